// DSL figures: lex+parse+compile throughput and its ratio to JSON.parse of the equivalent
// JSON, measured side by side on the same workflow (the .wf text is the decompiled JSON).
import { compile, decompile, parse } from "@wfkit/dsl";
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
    if (compiled.diagnostics.some((d) => d.severity === "error")) throw new Error(`benchmark .wf of ${nodes} nodes does not compile`);
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
