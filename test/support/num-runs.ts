/**
 * How many cases each fast-check property runs: modest in the unit suite (the `unitDefault`
 * each property picks for its cost), or FC_NUM_RUNS for every property at once (`npm run
 * fuzz`, a soak). Every property file takes its count from here.
 */
export function numRuns(unitDefault: number): number {
  const fromEnv = Number(process.env["FC_NUM_RUNS"]);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : unitDefault;
}
