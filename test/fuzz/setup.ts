/**
 * Vitest setup file for `npm run fuzz` (scripts/fuzz.mjs passes it as `setupFiles`). It wires
 * every existing property test in the repository to the regression store without editing it:
 * a global fast-check reporter, which applies to every `fc.assert` that does not bring its own,
 * saves the counterexample of a failure (kind `inline`, named by its test) and counts runs.
 *
 * Environment (set by scripts/fuzz.mjs):
 * - FUZZ_PROPERTY_MS: the time budget of one property (fast-check's `interruptAfterTimeLimit`).
 * - FUZZ_STATS: a file to append one JSON line per property run to.
 * - FUZZ_REPLAY_SEED / FUZZ_REPLAY_PATH: replay one saved inline regression (`--replay`).
 * - FC_NUM_RUNS: the runs of every property (test/support/num-runs.ts), the ones that name no
 *   count of their own included.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { expect } from "vitest";
import { numRuns } from "../support/num-runs.js";
import { onEveryRun, savingReporter, type RunInfo } from "./regressions.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const statsFile = process.env["FUZZ_STATS"];

function currentTest(): { testFile: string; testName: string } {
  const state = expect.getState();
  return { testFile: path.relative(repoRoot, state.testPath ?? "unknown"), testName: state.currentTestName ?? "unknown" };
}

function record(property: string, details: RunInfo): void {
  if (!statsFile) return;
  const line = { property, numRuns: details.numRuns, numSkips: details.numSkips, failed: details.failed, interrupted: details.interrupted, numShrinks: details.numShrinks };
  appendFileSync(statsFile, JSON.stringify(line) + "\n");
}

onEveryRun(record);

const budget = Number(process.env["FUZZ_PROPERTY_MS"]);
const replaySeed = process.env["FUZZ_REPLAY_SEED"];

fc.configureGlobal({
  ...fc.readConfigureGlobal(),
  // A property that names no count of its own runs fast-check's 100, or FC_NUM_RUNS when set.
  numRuns: numRuns(100),
  ...(Number.isFinite(budget) && budget > 0 ? { interruptAfterTimeLimit: budget } : {}),
  ...(replaySeed !== undefined ? { seed: Number(replaySeed), path: process.env["FUZZ_REPLAY_PATH"] || undefined, endOnFailure: true } : {}),
  reporter: savingReporter(
    () => {
      const { testFile, testName } = currentTest();
      return { property: `${testFile} > ${testName}`, kind: "inline", testFile, testName };
    },
    (details) => {
      const { testFile, testName } = currentTest();
      record(`${testFile} > ${testName}`, details);
    },
  ),
});
