// Checker figures: time per graph against an ajv schema-only pass and JSON.parse of the same
// graph, and scaling from 1k to 1M nodes.
import { validateDefinition } from "@wfkit/core";
import { validateDefinitionSchemaOnly } from "../packages/core/dist/generated/schema-only.js";
import { layeredGraph } from "./graphs.mjs";
import { compare, roundsFor } from "./measure.mjs";

export function benchChecker(sizes) {
  const rows = [];
  for (const nodes of sizes) {
    const graph = layeredGraph(nodes);
    const text = JSON.stringify(graph);
    const result = validateDefinition(graph);
    if (!result.ok) throw new Error(`benchmark graph of ${nodes} nodes is not valid: ${result.faults[0]?.message}`);
    const m = compare(
      {
        check: () => validateDefinition(graph),
        ajvSchemaOnly: () => validateDefinitionSchemaOnly(graph),
        jsonParse: () => JSON.parse(text),
      },
      { rounds: roundsFor(nodes), warmup: nodes >= 1_000_000 ? 1 : 3 },
    );
    rows.push({ nodes, edges: graph.edges.length, checkMs: m.check, ajvSchemaOnlyMs: m.ajvSchemaOnly, jsonParseMs: m.jsonParse, checkVsAjv: m.check / m.ajvSchemaOnly, checkVsJsonParse: m.check / m.jsonParse });
  }
  return rows;
}
