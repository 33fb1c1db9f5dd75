// The hostile-input sizes too slow for the unit suite: 1,000,000 nodes through the DSL and the
// built CLI (about a minute each on 2 cores), 1,000,000 edges into one node as a .json file
// through the CLI, and a 240 MB .json definition of 1,000,000 terminal parts (checked in
// Node's default heap: see LARGE_JSON_CHARS in packages/dsl/src/json-source.ts). For `npm run bench` (after `npm run build`), or by hand:
//
//   node test/fuzz/scale.mjs            exit 1 if any run crashed or answered wrongly
//   SCALE_HEAP_MB=8192 node test/fuzz/scale.mjs   the same with a larger V8 heap for the CLI
//   import { runHostileScale } from "../test/fuzz/scale.mjs"
//
// It checks answers, not speed; the timings it returns are for the benchmark's tables.
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { syntheticSource } from "@wfkit/dsl";
import { layeredGraph } from "../../bench/graphs.mjs";

const bin = fileURLToPath(new URL("../../packages/cli/bin/wfkit.cjs", import.meta.url));

/**
 * `wfkit check FILE --format json`, its output to a file beside it: a million faults make
 * about a gigabyte of JSON, more than a pipe buffer or one string in this process can hold.
 */
function check(file, heapMb) {
  const start = performance.now();
  const heap = heapMb ? [`--max-old-space-size=${heapMb}`] : [];
  const outFile = `${file}.out`;
  const out = openSync(outFile, "w");
  const run = spawnSync(process.execPath, [...heap, bin, "check", file, "--format", "json"], { stdio: ["ignore", out, "pipe"], encoding: "utf8" });
  closeSync(out);
  const ms = performance.now() - start;
  return { status: run.status, ms, outFile, stderr: (run.stderr ?? "").slice(0, 2000) };
}

/** The report, when small enough to read whole. */
function readReport(outFile) {
  try {
    return JSON.parse(readFileSync(outFile, "utf8"));
  } catch {
    return undefined;
  }
}

/** Occurrences of `needle` in a file, read in pieces (the file may be larger than a string can be). */
function countInFile(path, needle) {
  const fd = openSync(path, "r");
  const buffer = Buffer.alloc(1 << 24);
  let count = 0;
  let carry = "";
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      const text = carry + buffer.toString("latin1", 0, read);
      let at = text.indexOf(needle);
      while (at >= 0) {
        count++;
        at = text.indexOf(needle, at + needle.length);
      }
      carry = text.slice(Math.max(0, text.length - needle.length + 1));
    }
  } finally {
    closeSync(fd);
  }
  return count;
}

/** The last `bytes` of a file. */
function tailOf(path, bytes) {
  const size = statSync(path).size;
  const fd = openSync(path, "r");
  const buffer = Buffer.alloc(Math.min(bytes, size));
  try {
    readSync(fd, buffer, 0, buffer.length, size - buffer.length);
  } finally {
    closeSync(fd);
  }
  return buffer.toString("utf8");
}

/** Runs each size; resolves with per-case figures and `ok` (every answer right). */
export async function runHostileScale({ nodes = 1_000_000, edges = 1_000_000, terminalParts = 1_000_000, heapMb = undefined } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "wfkit-scale-"));
  const cases = [];
  try {
    const wf = path.join(dir, "million.wf");
    writeFileSync(wf, syntheticSource(nodes));
    const wfRun = check(wf, heapMb);
    const wfReport = readReport(wfRun.outFile);
    cases.push({ case: `${nodes.toLocaleString("en")} nodes, .wf`, ms: Math.round(wfRun.ms), status: wfRun.status, ok: wfRun.status === 0 && wfReport?.files?.[0]?.faults?.length === 0, stderr: wfRun.stderr || undefined });

    const fanIn = { schemaVersion: 1, nodes: [{ id: "start", kind: "trigger", trigger: { kind: "on_demand" } }, { id: "end", kind: "destination", destination: { kind: "standalone" } }], edges: Array.from({ length: edges }, () => ({ from: "start", to: "end" })) };
    const json = path.join(dir, "fan-in.json");
    writeFileSync(json, JSON.stringify(fanIn));
    const jsonRun = check(json, heapMb);
    // Every fault an edge-duplicate, one per repeated edge, and the summary agreeing.
    const written = jsonRun.status === null ? 0 : countInFile(jsonRun.outFile, '"code": "edge-duplicate"');
    const summary = jsonRun.status === null ? "" : tailOf(jsonRun.outFile, 200);
    cases.push({
      case: `${edges.toLocaleString("en")} edges into one node, .json`,
      ms: Math.round(jsonRun.ms),
      status: jsonRun.status,
      ok: jsonRun.status === 1 && written === edges - 1 && summary.includes(`"errors": ${edges - 1},`) && jsonRun.stderr === "",
      stderr: jsonRun.stderr || undefined,
    });

    // A valid definition with `terminalParts` terminal parts (a pack beside each): the report
    // lists no fault and an estimate with one entry per terminal part.
    const large = path.join(dir, "terminal-parts.json");
    writeFileSync(large, JSON.stringify(layeredGraph(terminalParts * 2 + 3)));
    const megabytes = Math.round(statSync(large).size / 2 ** 20);
    const largeRun = check(large, heapMb);
    const tail = largeRun.status === null ? "" : tailOf(largeRun.outFile, 400);
    cases.push({
      case: `${terminalParts.toLocaleString("en")} terminal parts, ${megabytes} MB .json`,
      ms: Math.round(largeRun.ms),
      status: largeRun.status,
      ok: largeRun.status === 0 && largeRun.stderr === "" && /"errors": 0,/.test(tail),
      stderr: largeRun.stderr || undefined,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { ok: cases.every((entry) => entry.ok), cases };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const heapMb = process.env.SCALE_HEAP_MB ? Number(process.env.SCALE_HEAP_MB) : undefined;
  const result = await runHostileScale({ nodes: Number(process.env.SCALE_NODES ?? 1_000_000), edges: Number(process.env.SCALE_EDGES ?? 1_000_000), terminalParts: Number(process.env.SCALE_TERMINAL_PARTS ?? 1_000_000), heapMb });
  console.table(result.cases);
  process.exit(result.ok ? 0 : 1);
}
