// Whole-process figures: what a user meets when a CI job runs `wfkit check FILE`. Each
// measure pairs two fresh processes, A (the baseline) then B (wfkit), alternating A and B
// so that the machine's load hits both alike; the ratio is taken pair by pair and the
// median ratio reported, with the median wall times beside it.
//
// Baselines: for a definition, `node` reading and `JSON.parse`-ing the equivalent
// pretty-printed JSON file (the floor for any tool that reads it); for a small `.wf`,
// `node -e 0` (the floor any Node command pays). Peak resident memory and the pages a process
// touched for the first time (minor page faults) are read by a preload (rss-on-exit.mjs) that
// writes the process's own figures as it exits. What one first touch costs is measured too
// (`firstTouchMicros`): on a virtual machine it can cost tens of times what it does on bare
// hardware, and then the memory a check touches is a large part of its time.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { decompile } from "@wfkit/dsl";
import { layeredGraph } from "./graphs.mjs";
import { definitionOf } from "./json-files.mjs";
import { chainGraph, fanOutGraph } from "./graph-shapes.mjs";
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

/** Medians over `runs` fresh processes: peak resident memory (MB) and pages touched for the first time. */
function processMemory(args, runs) {
  const out = `${tmp}rss.json`;
  const peaks = [];
  const faults = [];
  for (let i = 0; i < runs; i++) {
    run(["--import", rssPreload, ...args], { WFKIT_BENCH_RSS_FILE: out });
    const usage = JSON.parse(readFileSync(out, "utf8"));
    peaks.push(usage.maxRssKB / 1024);
    faults.push(usage.minorPageFaults);
  }
  return { peakMB: median(peaks), firstTouches: median(faults) };
}

// A child process fills 64 MB of memory it has not touched before, and reports the time per
// page it faulted in.
const FIRST_TOUCH = `const before = process.resourceUsage().minorPageFault;
const start = performance.now();
Buffer.alloc(64 << 20).fill(1);
const elapsed = performance.now() - start;
process.stdout.write(String((elapsed * 1000) / (process.resourceUsage().minorPageFault - before)));`;

/** What touching a page of fresh memory costs on this machine (µs, the median of 5 processes). */
function firstTouchMicros() {
  const samples = [];
  for (let i = 0; i < 5; i++) samples.push(Number(spawnSync(process.execPath, ["-e", FIRST_TOUCH], { encoding: "utf8" }).stdout));
  return median(samples);
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
    const wfMemory = processMemory([wfkit, "check", largest.wf], 3);
    const jsonMemory = processMemory([wfkit, "check", largest.json], 3);
    const memory = { nodes: Math.max(...sizes), wfPeakMB: wfMemory.peakMB, jsonPeakMB: jsonMemory.peakMB, ratio: wfMemory.peakMB / jsonMemory.peakMB };
    // Pages each process of the 10k rows (or the smallest size run) touched for the first time,
    // beside the baseline's, and what one such touch costs here.
    const nodes = Math.min(...sizes);
    const { json, wf } = files[nodes];
    const touchMicros = firstTouchMicros();
    const touches = [
      ["node: read + JSON.parse the JSON", ["-e", READ_AND_PARSE, json]],
      [`wfkit check ${nodes / 1000}k.json`, [wfkit, "check", json]],
      [`wfkit check ${nodes / 1000}k.wf`, [wfkit, "check", wf]],
      ["node -e 0", ["-e", "0"]],
      ["wfkit check small.wf", [wfkit, "check", files.small]],
    ].map(([command, args]) => {
      // No peak memory here: Linux counts a child's peak from the moment it was forked, so a
      // process smaller than this one reads this one's size (the 100k rows above are larger).
      const { firstTouches } = processMemory(args, 3);
      return { command, firstTouches, firstTouchMs: (firstTouches * touchMicros) / 1000 };
    });
    return { rows, memory, firstTouch: { microsPerPage: touchMicros, rows: touches } };
  } finally {
    rmSync(`${tmp}rss.json`, { force: true });
  }
}

/**
 * The 10k-node figures on shapes the bench's own layered graph is not: the JSON directory
 * section's generators (subjects with identifiers, fan-in into packs with analyst reviews, ids
 * with spaces and punctuation, parts of two versions with their own jobs) at 10,000 nodes, and
 * the picture section's long chain and wide fan-out. Each `.wf` is the decompiled JSON; each
 * is paired with reading and `JSON.parse`-ing its own JSON.
 */
export const OTHER_SHAPES = {
  "subjects with identifiers": (nodes) => definitionOf("subjects", nodes, 7),
  "fan-in into packs": (nodes) => definitionOf("fan-in", nodes, 7),
  "ids with spaces": (nodes) => definitionOf("spaced", nodes, 7),
  "parts of two versions": (nodes) => definitionOf("versions", nodes, 7),
  "long chain": chainGraph,
  "wide fan-out": fanOutGraph,
};

export function benchWholeProcessShapes({ nodes = 10_000, pairs = 6 } = {}) {
  mkdirSync(tmp, { recursive: true });
  const rows = [];
  for (const [shape, make] of Object.entries(OTHER_SHAPES)) {
    const definition = make(nodes);
    const name = shape.replace(/\W+/g, "-");
    const json = `shape-${name}.json`;
    const wf = `shape-${name}.wf`;
    writeFileSync(`${tmp}${json}`, JSON.stringify(definition, null, 2));
    writeFileSync(`${tmp}${wf}`, decompile(definition));
    const baseline = ["-e", READ_AND_PARSE, json];
    for (const [format, file] of [["json", json], ["wf", wf]]) {
      rows.push({ shape, format, nodes: definition.nodes.length, ...paired(baseline, [wfkit, "check", file], pairs) });
    }
  }
  return rows;
}
