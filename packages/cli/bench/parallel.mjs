// When do worker threads pay off for `wfkit check`? Checks directories of N generated
// definitions with one thread (WFKIT_WORKERS=1) and with workers (WFKIT_WORKERS=<cores>),
// several runs each, and prints the medians. The result sets PARALLEL_THRESHOLD_FILES in
// src/commands/check.ts; see docs/cli.md "Parallelism".
//
//   node packages/cli/bench/parallel.mjs [--runs 5] [--sizes 50,200,800,3200] [--nodes 40]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const bin = fileURLToPath(new URL("../bin/wfkit.js", import.meta.url));
const argument = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const runs = Number(argument("runs", "5"));
const sizes = argument("sizes", "50,200,800,3200").split(",").map(Number);
const nodesPerFile = Number(argument("nodes", "40"));
const cores = os.availableParallelism();

/** A valid definition with a chain of `nodes` profile parts fanning into one pack. */
function definition(seed, nodes) {
  const lines = [`workflow "bench ${seed}"`, "", 'subject tesco = company "cmp_tesco" "Tesco PLC"', "", "trigger start on_demand"];
  for (let i = 0; i < nodes; i++) lines.push(`part p${i} = terminal.profile@1 { job profile.company@1 subjects [tesco] }`);
  lines.push("part pack = pack@1", "destination out standalone", "");
  for (let i = 0; i < nodes; i++) lines.push(`start -> p${i} -> pack`);
  lines.push("pack -> out", "");
  return lines.join("\n");
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

function time(directory, workers) {
  const start = performance.now();
  const result = spawnSync(process.execPath, [bin, "check", directory, "--quiet"], { env: { ...process.env, WFKIT_WORKERS: String(workers) }, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error(`wfkit check exited ${result.status}`);
  return performance.now() - start;
}

const root = mkdtempSync(path.join(os.tmpdir(), "wfkit-parallel-"));
try {
  console.log(`${cores} cores; ${nodesPerFile + 4} nodes per file; median of ${runs} runs`);
  console.log("files  1 thread  workers  speed-up");
  for (const size of sizes) {
    const directory = path.join(root, String(size));
    mkdirSync(directory);
    for (let i = 0; i < size; i++) writeFileSync(path.join(directory, `flow-${i}.wf`), definition(i, nodesPerFile));
    time(directory, 1); // warm the file cache
    const single = [];
    const parallel = [];
    for (let run = 0; run < runs; run++) {
      single.push(time(directory, 1));
      parallel.push(time(directory, cores));
    }
    const a = median(single);
    const b = median(parallel);
    console.log(`${String(size).padStart(5)}  ${a.toFixed(0).padStart(6)} ms  ${b.toFixed(0).padStart(5)} ms  ${(a / b).toFixed(2)}x`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
