// Start-up cost of the CLI: wall time of `wfkit check small.wf` against `node -e 0` (the
// floor any Node CLI pays), N runs each, interleaved so that machine noise hits both alike.
// Reports medians and their ratio; the goal is a ratio within 2x.
//
//   node packages/cli/bench/startup.mjs [--runs N] [--json]
//
// Also exported as `measureStartup()` for the repository's `npm run bench`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const cliDir = fileURLToPath(new URL("..", import.meta.url));
const bin = path.join(cliDir, "bin", "wfkit.cjs");

/** A small, valid workflow: what a pre-commit hook checks on every commit. */
export const SMALL_WF = `workflow "startup bench"

subject tesco = company "cmp_tesco" "Tesco PLC"
subject sainsbury = company "cmp_sbry" "J Sainsbury plc"

trigger start on_demand
part compare = terminal.compare@1 { job compare.peers@1 subjects [tesco, sainsbury] }
part pack = pack@1
destination out standalone

start -> compare -> pack -> out
`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function time(command, args, cwd) {
  const start = performance.now();
  const result = spawnSync(command, args, { cwd, stdio: "ignore" });
  const elapsed = performance.now() - start;
  if (result.error) throw result.error;
  return { elapsed, status: result.status };
}

export function measureStartup({ runs = 30, file } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "wfkit-startup-"));
  try {
    const target = file ?? path.join(dir, "small.wf");
    if (!file) writeFileSync(target, SMALL_WF);
    const checkArgs = [bin, "check", target];
    const status = time(process.execPath, checkArgs, dir).status;
    // Warm the file cache for both before timing.
    for (let i = 0; i < 3; i++) {
      time(process.execPath, ["-e", "0"], dir);
      time(process.execPath, checkArgs, dir);
    }
    const baseline = [];
    const check = [];
    for (let i = 0; i < runs; i++) {
      baseline.push(time(process.execPath, ["-e", "0"], dir).elapsed);
      check.push(time(process.execPath, checkArgs, dir).elapsed);
    }
    const baselineMs = median(baseline);
    const checkMs = median(check);
    return { runs, checkExitStatus: status, nodeMedianMs: round(baselineMs), checkMedianMs: round(checkMs), ratio: round(checkMs / baselineMs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function round(value) {
  return Math.round(value * 100) / 100;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const runsIndex = process.argv.indexOf("--runs");
  const runs = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 30;
  const result = measureStartup({ runs });
  if (process.argv.includes("--json")) console.log(JSON.stringify(result));
  else {
    console.log(`node -e 0          median ${result.nodeMedianMs} ms`);
    console.log(`wfkit check small  median ${result.checkMedianMs} ms (exit ${result.checkExitStatus})`);
    console.log(`ratio ${result.ratio}x over ${result.runs} runs each (goal: within 2x)`);
  }
}
