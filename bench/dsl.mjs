// DSL figures: lex+parse+compile throughput and its ratio to JSON.parse of the equivalent
// JSON, measured side by side on the same workflow (the .wf text is the decompiled JSON).
import { analyzeSource, compile, decompile, parse } from "@wfkit/dsl";
import { layeredGraph } from "./graphs.mjs";
import { compare, roundsFor } from "./measure.mjs";

export function wfTextFor(nodes) {
  const graph = layeredGraph(nodes);
  return { graph, json: JSON.stringify(graph), wf: decompile(graph) };
}

export function benchDsl(sizes) {
  const rows = [];
  for (const nodes of sizes) {
    const { json, wf } = wfTextFor(nodes);
    const compiled = compile(wf);
    if (compiled.faults.some((d) => d.severity === "error")) throw new Error(`benchmark .wf of ${nodes} nodes does not compile`);
    const m = compare(
      { parse: () => parse(wf), compile: () => compile(wf), jsonParse: () => JSON.parse(json) },
      { rounds: roundsFor(nodes), warmup: nodes >= 1_000_000 ? 1 : 3 },
    );
    const megabytes = Buffer.byteLength(wf) / 1e6;
    rows.push({
      nodes,
      wfMB: megabytes,
      parseMs: m.parse,
      compileMs: m.compile,
      jsonParseMs: m.jsonParse,
      compileMBps: megabytes / (m.compile / 1000),
      compileVsJsonParse: m.compile / m.jsonParse,
    });
  }
  return rows;
}

/**
 * The same graph's `.wf` with one syntax error in the middle (an edge line given a second
 * arrow): parse, and `analyzeSource` as the CLI and the editor call it, against the valid
 * text. Syntax errors send only their statements to chevrotain, so the broken text should
 * cost about what the valid text costs (the goal: within 2x). A broken text is not checked,
 * so its `analyzeSource` skips the checker; the parse ratio is the one the goal reads.
 */
export function benchBrokenText(nodes) {
  const { wf } = wfTextFor(nodes);
  const lines = wf.split("\n");
  const middle = lines.findIndex((line, i) => i >= lines.length / 2 && line.includes(" -> "));
  const broken = [...lines.slice(0, middle), lines[middle].replace(" -> ", " -> -> "), ...lines.slice(middle + 1)].join("\n");
  if (parse(broken).faults.length !== 1) throw new Error("the broken benchmark text should have exactly one syntax error");
  const m = compare(
    { valid: () => parse(wf), broken: () => parse(broken), validAnalysis: () => analyzeSource(wf, "wf"), brokenAnalysis: () => analyzeSource(broken, "wf") },
    { rounds: roundsFor(nodes), warmup: 3 },
  );
  return { nodes, validParseMs: m.valid, brokenParseMs: m.broken, brokenVsValidParse: m.broken / m.valid, validAnalysisMs: m.validAnalysis, brokenAnalysisMs: m.brokenAnalysis };
}
