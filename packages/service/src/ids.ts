/**
 * The ids the service hands out (`run_…`, `wf_…`, `alert_…`): a prefix and 16 hex digits from
 * the system's random source. They name things, they do not grant access (every read checks
 * the caller), so they come from a pool filled 4 KB at a time: a call into the system's
 * random source per id would cost a run start more than binding its SQL statements does
 * (docs/performance.md, the service's second round).
 */
import { randomFillSync } from "node:crypto";

const pool = Buffer.alloc(4096);
let used = pool.length;

/** `prefix_` and 16 random hex digits. */
export function newId(prefix: string): string {
  if (used + 8 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const digits = pool.toString("hex", used, used + 8);
  used += 8;
  return `${prefix}_${digits}`;
}
