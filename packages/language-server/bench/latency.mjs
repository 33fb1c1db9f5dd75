#!/usr/bin/env node
// Keystroke-to-diagnostics latency of the built language server, measured from a client
// process over stdio: the time from sending `textDocument/didChange` to receiving the
// `textDocument/publishDiagnostics` for that version, on documents of 100, 1,000 and 10,000
// nodes. Each keystroke toggles one character in a part id in the middle of the document,
// so every measurement includes a real change of diagnostics (a `part-unknown` error appears
// or disappears).
//
// Run after `npm run build`:
//   node packages/language-server/bench/latency.mjs [--keystrokes 100] [--warmup 40] [--sizes 100,1000,10000] [--debounce 150,0] [--opens 1] [--server dist/server.mjs]
// The open (from `textDocument/didOpen` to the first diagnostics, in a server process that
// has just answered `initialize`, as an editor opening a file meets it) is timed in `--opens`
// fresh server processes per size (the first of them then types), and reported as the median.
// The debounce adapts (0 ms while a check takes under a frame, else about the check's cost,
// capped by `wfkit.diagnostics.debounceMs`); both the default cap and 0 are measured and the
// wait the server chose is reported separately.
// WFKIT_SERVER_FLAGS passes Node flags to the server process, e.g. to profile it while it is
// measured: WFKIT_SERVER_FLAGS="--cpu-prof --cpu-prof-dir=prof".
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
import { generate } from "./generate.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
// Another build of the server (an older one, for a before/after comparison) with --server.
const SERVER = option("server", fileURLToPath(new URL("../dist/server.mjs", import.meta.url)));
const KEYSTROKES = Number(option("keystrokes", 100));
// Keystrokes sent first and not measured: the first checks run before V8 has optimised the
// checker, and an editor session is warm after its first few edits.
const WARMUP = Number(option("warmup", 40));
const SIZES = option("sizes", "100,1000,10000").split(",").map(Number);
const DEBOUNCES = option("debounce", "150,0").split(",").map(Number);
const OPENS = Math.max(1, Number(option("opens", 1)));

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

/** Starts a server, opens a document of `size` nodes, and types `keystrokes` keystrokes after `warmup` unmeasured ones. */
async function measure(size, debounceMs, { warmup = WARMUP, keystrokes = KEYSTROKES } = {}) {
  const child = spawn(process.execPath, [...(process.env.WFKIT_SERVER_FLAGS ? process.env.WFKIT_SERVER_FLAGS.split(" ") : []), SERVER, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  connection.onNotification("textDocument/publishDiagnostics", (params) => {
    const resolve = waiting.get(params.version);
    if (resolve) {
      waiting.delete(params.version);
      resolve({ at: performance.now(), count: params.diagnostics.length });
    }
  });
  connection.listen();
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { settings: { diagnostics: { debounceMs } } } });
  await connection.sendNotification("initialized", {});
  const { text, nodes } = generate(size);
  const uri = `file:///bench/${size}.wf`;
  const published = (version) => new Promise((resolve) => waiting.set(version, resolve));

  let version = 1;
  const opened = published(version);
  const openStart = performance.now();
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "wf", version, text } });
  const openTime = (await opened).at - openStart;

  // The part id `pack` of the middle pair: toggle `pack` <-> `packx`.
  const lines = text.split("\n");
  const line = lines.findIndex((l) => l === `part k${Math.floor((nodes - 2) / 4)} = pack@1`);
  const character = lines[line].indexOf("@");
  const latencies = [];
  for (let i = 0; i < warmup + keystrokes; i++) {
    version++;
    const typing = i % 2 === 0;
    const change = typing
      ? { range: { start: { line, character }, end: { line, character } }, text: "x" }
      : { range: { start: { line, character }, end: { line, character: character + 1 } }, text: "" };
    const done = published(version);
    const start = performance.now();
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [change] });
    const result = await done;
    if (i >= warmup) latencies.push(result.at - start);
    if ((result.count > 0) !== typing) throw new Error(`unexpected diagnostics at version ${version}: ${result.count}`);
  }
  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  connection.dispose();
  const sorted = [...latencies].sort((a, b) => a - b);
  return { nodes, lines: lines.length, debounceMs, openMs: openTime, median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1] };
}

const rows = [];
for (const debounce of DEBOUNCES) {
  for (const size of SIZES) {
    const row = await measure(size, debounce);
    const opens = [row.openMs];
    for (let i = 1; i < OPENS; i++) opens.push((await measure(size, debounce, { warmup: 0, keystrokes: 0 })).openMs);
    rows.push({ ...row, openMs: percentile([...opens].sort((a, b) => a - b), 0.5), opens });
  }
}
// No keystrokes (`--keystrokes 0`, to time opens only) leaves the keystroke columns empty.
const fixed = (n) => (n === undefined ? "-" : n.toFixed(1)).padStart(7);
console.log(`keystroke -> publishDiagnostics over stdio, ${KEYSTROKES} keystrokes per document after ${WARMUP} unmeasured (ms)`);
console.log("  nodes   lines  debounce cap    open   median      p95      max");
for (const r of rows) console.log(`${String(r.nodes).padStart(7)} ${String(r.lines).padStart(7)} ${String(r.debounceMs).padStart(9)}  ${fixed(r.openMs)}  ${fixed(r.median)}  ${fixed(r.p95)}  ${fixed(r.max)}`);
if (OPENS > 1) console.log(`open: the median of ${OPENS} fresh server processes (${rows.map((r) => r.opens.map((ms) => ms.toFixed(0)).join(", ")).join("; ")} ms).`);
console.log("The debounce is adaptive: 0 ms while the document's last check took under 16 ms, else about the check's cost, up to the cap.");
if (process.env.WFKIT_BENCH_JSON) console.log(JSON.stringify(rows));
