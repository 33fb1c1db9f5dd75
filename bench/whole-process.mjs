// Whole-process figures: what a user meets when a CI job runs `wfkit check FILE`. Each
// measure pairs two fresh processes, A (the baseline) then B (wfkit), alternating A and B
// so that the machine's load hits both alike; the ratio is taken pair by pair and the
// median ratio reported, with the median wall times beside it.
//
// Baselines: for a definition, `node` reading and `JSON.parse`-ing the equivalent
// pretty-printed JSON file (the floor for any tool that reads it); for a small `.wf`,
// `node -e 0` (the floor any Node command pays). Peak resident memory is read by a preload
// (rss-on-exit.mjs) that writes the process's own maxRSS as it exits.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { decompile } from "@wfkit/dsl";
import { layeredGraph } from "./graphs.mjs";
import { median } from "./measure.mjs";
import { SMALL_WF } from "../packages/cli/bench/startup.mjs";

const tmp = fileURLToPath(new URL("./.tmp/", import.meta.url));
const wfkit = fileURLToPath(new URL("../packages/cli/bin/wfkit.cjs", import.meta.url));
const rssPreload = fileURLToPath(new URL("./rss-on-exit.mjs", import.meta.url));
const READ_AND_PARSE = `JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))`;

function run(args, env = {}) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: tmp, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
  const elapsed = performance.now() - start;
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited with ${result.status}: ${result.stderr}`);
  return elapsed;
}

/** `pairs` alternating runs of A then B after one unmeasured warm-up pair; medians and the median of the pair-by-pair ratios. */
function paired(baseline, command, pairs) {
  run(baseline);
  run(command);
  const a = [];
  const b = [];
  const ratios = [];
  for (let i = 0; i < pairs; i++) {
    const first = run(baseline);
    const second = run(command);
    a.push(first);
    b.push(second);
    ratios.push(second / first);
  }
  return { pairs, baselineMs: median(a), wfkitMs: median(b), ratio: median(ratios) };
}

function peakRssMB(args, runs) {
  const out = `${tmp}rss.txt`;
  const peaks = [];
  for (let i = 0; i < runs; i++) {
    run(["--import", rssPreload, ...args], { WFKIT_BENCH_RSS_FILE: out });
    peaks.push(Number(readFileSync(out, "utf8")) / 1024);
  }
  return median(peaks);
}

/** Writes the definitions the section reads; returns their file names (relative to bench/.tmp). */
function writeInputs(sizes) {
  mkdirSync(tmp, { recursive: true });
  const files = { small: "small.wf" };
  writeFileSync(`${tmp}small.wf`, SMALL_WF);
  for (const nodes of sizes) {
    const graph = layeredGraph(nodes);
    files[nodes] = { json: `whole-${nodes}.json`, wf: `whole-${nodes}.wf` };
    writeFileSync(`${tmp}${files[nodes].json}`, JSON.stringify(graph, null, 2));
    writeFileSync(`${tmp}${files[nodes].wf}`, decompile(graph));
  }
  return files;
}

const PAIRS = { 10_000: 10, 100_000: 4 };

export function benchWholeProcess(sizes = [10_000, 100_000]) {
  const files = writeInputs(sizes);
  const rows = [];
  try {
    for (const nodes of sizes) {
      const { json, wf } = files[nodes];
      const baseline = ["-e", READ_AND_PARSE, json];
      for (const [format, file] of [["json", json], ["wf", wf]]) {
        const m = paired(baseline, [wfkit, "check", file], PAIRS[nodes] ?? 4);
        rows.push({ command: `wfkit check ${nodes / 1000}k.${format}`, baseline: "node: read + JSON.parse the JSON", ...m });
      }
    }
    const small = paired(["-e", "0"], [wfkit, "check", files.small], 20);
    rows.push({ command: "wfkit check small.wf", baseline: "node -e 0", ...small });
    const largest = files[Math.max(...sizes)];
    const memory = { nodes: Math.max(...sizes), wfPeakMB: peakRssMB([wfkit, "check", largest.wf], 3), jsonPeakMB: peakRssMB([wfkit, "check", largest.json], 3) };
    memory.ratio = memory.wfPeakMB / memory.jsonPeakMB;
    return { rows, memory };
  } finally {
    rmSync(`${tmp}rss.txt`, { force: true });
  }
}
