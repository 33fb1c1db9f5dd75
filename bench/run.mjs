// `npm run bench`: every performance figure wfkit publishes, measured in one run and
// printed as tables; the figures are written to bench/results.json. Each comparison is
// measured side by side in one process (or, for process start-up, back to back), so the
// ratios hold on a noisy machine. BENCH_QUICK=1 skips the 1M-node sizes (and runs the JSON
// directory and keystroke sections with fewer rounds). The whole-process section
// (whole-process.mjs) times `wfkit check` as users run it, in paired fresh processes;
// json-dir.mjs a directory of JSON definitions beside ajv-cli, json-keystroke.mjs the JSON
// keystroke in the language server beside the .wf one and VS Code's JSON language service,
// lsp-first-open.mjs a fresh server's first diagnostics beside that service's first validation,
// graph-peer.mjs `wfkit graph --format svg` beside Graphviz's own `dot` (marked missing without it).
import { writeFileSync } from "node:fs";
import os from "node:os";
import { benchChecker } from "./core.mjs";
import { benchBrokenText, benchDsl } from "./dsl.mjs";
import { benchMemory } from "./memory.mjs";
import { benchCliStartup } from "./cli.mjs";
import { benchWholeProcess, benchWholeProcessShapes } from "./whole-process.mjs";
import { benchLspLatency } from "./lsp.mjs";
import { benchService, serviceHttpGoals } from "./service.mjs";
import { benchGraphLayout } from "./graph.mjs";
import { benchGraphPeer } from "./graph-peer.mjs";
import { benchLspFirstOpen } from "./lsp-first-open.mjs";
import { benchPlayground } from "./playground.mjs";
import { checkLexerBacktracking } from "../test/fuzz/redos.mjs";
import { runHostileScale } from "../test/fuzz/scale.mjs";
import { benchHostileGrowth, GROWTH_BUDGET } from "./hostile.mjs";
import { benchJsonDirectory } from "./json-dir.mjs";
import { benchJsonKeystroke } from "./json-keystroke.mjs";

// Node reads and parses every certificate of NODE_EXTRA_CA_CERTS as each process starts (about
// 90 ms on this machine, which sets it to the system bundle); wfkit's users seldom set it, and
// it would hide a process's own start-up inside the floor's. Every process this bench starts
// inherits this environment, so none loads them; results.json says whether it was set.
const extraCaCerts = process.env.NODE_EXTRA_CA_CERTS !== undefined;
delete process.env.NODE_EXTRA_CA_CERTS;

const quick = process.env.BENCH_QUICK === "1";
const scaling = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000];
const results = { machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGB: Math.round(os.totalmem() / 2 ** 30), node: process.version, nodeExtraCaCertsUnset: extraCaCerts }, goals: {} };

const growth = (rows, key) => rows.slice(1).map((row, i) => ({ from: rows[i].nodes, to: row.nodes, factor: row[key] / rows[i][key] }));
const section = (title, rows) => {
  console.log(`\n## ${title}`);
  console.table(rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "number" && !Number.isInteger(v) ? Number(v.toFixed(v < 10 ? 2 : 1)) : v]))));
};

results.checker = benchChecker(scaling);
section("Checker: validateDefinition vs an ajv schema-only pass and JSON.parse (ms, medians)", results.checker);
results.dsl = benchDsl(scaling);
section("DSL: parse and lex+parse+compile vs JSON.parse of the same graph (ms, medians)", results.dsl);
results.brokenText = benchBrokenText(10_000);
section("DSL: a 10k-node .wf with one syntax error in the middle against the same text without it (ms, medians)", [results.brokenText]);
results.scaling = {
  parse: growth(results.dsl, "parseMs"),
  compile: growth(results.dsl, "compileMs"),
  check: growth(results.checker, "checkMs"),
};
section("Scaling: growth factor per 10x nodes (linear is about 10)", ["parse", "compile", "check"].flatMap((stage) => results.scaling[stage].map((g) => ({ stage, ...g }))));
results.memory = benchMemory(quick ? [100_000] : [100_000, 1_000_000]);
section("Memory: peak resident memory above a process that only read the file (MB)", results.memory);
results.cli = await benchCliStartup();
section("CLI: `wfkit check` of a small file vs `node -e 0` (process wall time, ms, medians)", [results.cli]);
results.wholeProcess = benchWholeProcess();
section("Whole process: `wfkit check FILE` against a baseline process, paired runs (ms and ratio, medians)", results.wholeProcess.rows);
section("Whole process: peak resident memory of `wfkit check`, the .wf against its JSON (MB)", [results.wholeProcess.memory]);
results.wholeProcess.shapes = benchWholeProcessShapes({ pairs: quick ? 4 : 6 });
section("Whole process: `wfkit check` of 10k-node definitions of other shapes against reading and JSON.parse-ing each one's JSON, paired runs (ms and ratio, medians; goal 2x)", results.wholeProcess.shapes);
section(
  `Whole process: pages each touched for the first time (minor page faults, medians of 3), at ${results.wholeProcess.firstTouch.microsPerPage.toFixed(1)} µs a page on this machine`,
  results.wholeProcess.firstTouch.rows,
);
results.lsp = await benchLspLatency();
section("LSP: keystroke-to-diagnostics latency from a client process (ms)", results.lsp);
results.lspFirstOpen = await benchLspFirstOpen({ pairs: quick ? 7 : 9 });
section(
  `LSP: first diagnostics of a ${results.lspFirstOpen.rows[0].nodes}-node file over stdio from a fresh server (didOpen right after initialize) against vscode-json-languageservice's first validation of the same definition in a fresh process, paired (ms and median ratios; goal: ${results.lspFirstOpen.goal}x; beside them the peer with its load, and both from spawn)`,
  results.lspFirstOpen.rows,
);
results.jsonDirectory = benchJsonDirectory({ quick });
section(
  "`wfkit check DIR` of JSON definitions (20-40 nodes, six shapes) against a walk+read+JSON.parse floor and `ajv validate` (ajv-cli, the definition schema), and naming every file instead; fresh processes in turned rounds (ms and median ratios; goals: 3x the floor, 1.0x ajv)",
  results.jsonDirectory,
);
results.jsonKeystroke = await benchJsonKeystroke(quick ? { keystrokes: 16, warmup: 6 } : { keystrokes: 40, warmup: 10 });
section("LSP: a JSON keystroke at 10k nodes over stdio, beside the .wf keystroke in the same server and vscode-json-languageservice validating the same text with the definition schema in-process (ms; goal: JSON within 3x the .wf keystroke)", [
  {
    nodes: results.jsonKeystroke.nodes,
    wfMedianMs: results.jsonKeystroke.wf.medianMs,
    jsonMedianMs: results.jsonKeystroke.json.medianMs,
    jsonP95Ms: results.jsonKeystroke.json.p95Ms,
    vscodeJsonMedianMs: results.jsonKeystroke.vscodeJson.medianMs,
    jsonVsWf: results.jsonKeystroke.jsonVsWf,
    jsonVsVscodeJson: results.jsonKeystroke.jsonVsVscodeJson,
  },
]);
results.service = await benchService();
results.graph = await benchGraphLayout();
section("Graph: @wfkit/graph drawing a generated workflow in one process, one Graphviz engine for all (ms, medians; loadMs: loading the engine, once)", results.graph);
results.graphPeer = benchGraphPeer({ pairs: 7 });
section(
  `Graph: \`wfkit graph --format svg\` against \`dot -Tsvg\` (${results.graphPeer.dot ?? "missing: Graphviz is not installed"}) on the same DOT text, whole processes, paired (ms and median ratios; goal: ${results.graphPeer.goal}x at 100 nodes)`,
  results.graphPeer.rows,
);
results.playground = await benchPlayground();
section("Playground: what the page downloads (KiB, raw and gzipped)", results.playground.sizes);
section("Playground: a fresh page in headless Chromium, from navigation (ms, medians)", [results.playground.timing]);

results.redos = await checkLexerBacktracking();
console.log("\n## Lexer backtracking check (pathological strings)");
console.log(JSON.stringify(results.redos, null, 2));
results.hostileGrowth = benchHostileGrowth();
section(`Hostile text: time for 4x the input (budget ${GROWTH_BUDGET}x; linear is about 4)`, results.hostileGrowth.rows);
if (!quick) {
  results.hostileScale = await runHostileScale();
  console.log("\n## Hostile scale through the CLI (1M nodes, 10^6 edges to one node, a 240 MB .json of 10^6 terminal parts)");
  console.log(JSON.stringify(results.hostileScale, null, 2));
}

const at = (rows, nodes) => rows.find((r) => r.nodes === nodes);
results.goals = {
  "checker within 2x of ajv schema-only (10k nodes)": { value: at(results.checker, 10_000).checkVsAjv, goal: 2 },
  "DSL lex+parse+compile within 3x of JSON.parse (10k nodes)": { value: at(results.dsl, 10_000).compileVsJsonParse, goal: 3 },
  "DSL parse of a 10k-node .wf with one syntax error within 2x of the valid text": { value: results.brokenText.brokenVsValidParse, goal: 2 },
  "CLI within 2x of node -e 0": { value: results.cli.ratio, goal: 2 },
  ...Object.fromEntries(results.wholeProcess.rows.map((row) => [`whole process: ${row.command} within ${row.command.includes("small") ? 1.5 : 2}x of ${row.baseline}`, { value: row.ratio, goal: row.command.includes("small") ? 1.5 : 2 }])),
  ...Object.fromEntries(results.wholeProcess.shapes.map((row) => [`whole process: wfkit check 10k.${row.format} shaped "${row.shape}" within 2x of read + JSON.parse of its JSON`, { value: row.ratio, goal: 2 }])),
  "whole process: peak RSS of checking the 100k .wf within 2x of its JSON": { value: results.wholeProcess.memory.ratio, goal: 2 },
  "LSP open to diagnostics at 10k nodes (ms)": { value: at(results.lsp, 10_000)?.openMs, goal: 150 },
  "LSP p95 at 1k nodes (ms)": { value: at(results.lsp, 1_000)?.p95Ms, goal: 16 },
  "LSP p95 at 10k nodes (ms)": { value: at(results.lsp, 10_000)?.p95Ms, goal: 16 },
  "SVG drawing of a 1k-node graph (ms)": { value: results.graph.find((row) => row.nodes >= 999 && row.nodes < 10_000)?.drawMs, goal: 1000 },
  ...Object.fromEntries(
    results.graphPeer.rows
      .filter((row) => row.size === 100)
      .map((row) => [`wfkit graph --format svg within ${results.graphPeer.goal}x of dot -Tsvg, 100 nodes, ${row.shape}`, { value: row.ratio ?? undefined, goal: results.graphPeer.goal, ...(row.missing ? { missing: row.missing } : {}) }]),
  ),
  ...Object.fromEntries(
    results.lspFirstOpen.rows.map((row) => [`LSP first diagnostics of a ${row.nodes}-node ${row.document} over stdio within ${results.lspFirstOpen.goal}x of vscode-json-languageservice's first validation`, { value: row.ratio, goal: results.lspFirstOpen.goal }]),
  ),
  ...Object.fromEntries(results.hostileGrowth.rows.map((row) => [`hostile text, time for 4x the input: ${row.shape}`, { value: row.growth, goal: row.budget }])),
  // Higher is better for these (`atLeast`): the service's throughput against its floor.
  ...serviceHttpGoals(results.service.http),
  ...Object.fromEntries(
    results.jsonDirectory.flatMap((row) => [
      [`check DIR of ${row.files} JSON files within 3x a walk+read+JSON.parse floor`, { value: row.wfkitVsFloor, goal: 3 }],
      [`check DIR of ${row.files} JSON files within 1.0x ajv-cli validate`, { value: row.wfkitVsAjv, goal: 1 }],
    ]),
  ),
  "JSON keystroke over stdio at 10k nodes within 3x the .wf keystroke": { value: results.jsonKeystroke.jsonVsWf, goal: 3 },
  "JSON keystroke over stdio at 10k nodes within 1x vscode-json-languageservice validating in-process": { value: results.jsonKeystroke.jsonVsVscodeJson, goal: 1 },
};
section("Goals", Object.entries(results.goals).map(([goal, { value, goal: target }]) => ({ goal, value, target, met: value !== undefined && (results.goals[goal].atLeast ? value >= target : value <= target) })));
writeFileSync(new URL("./results.json", import.meta.url), JSON.stringify(results, null, 2) + "\n");
console.log("\nwrote bench/results.json");
