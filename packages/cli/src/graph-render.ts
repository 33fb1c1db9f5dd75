/**
 * Drawing a definition's graph as Mermaid (renders in GitHub Markdown and most docs sites),
 * Graphviz DOT (for `dot -Tsvg`), or an SVG laid out in-process by @wfkit/graph (which also
 * reads the graph for all three: `graphModelOf`).
 *
 * Node ids are arbitrary strings in a definition (spaces, quotes, `end`, `->`, line breaks,
 * escape sequences), so neither format gets them raw. Each node gets a synthetic id (`n0`,
 * `n1`, ...), which also avoids Mermaid's reserved words such as `end`, and the real id is
 * shown in a quoted label, first made printable (control characters and line breaks written
 * as `\n`, `\u001b`: see printable.ts), then quoted by the format's own rules:
 * - Mermaid: `"`, `#`, `<`, `>` and `&` as Mermaid entity codes (`#34;`, `#35;`, ...).
 * - DOT: `\` and `"` escaped with a backslash.
 *
 * Shapes follow flowchart custom: the trigger is a terminator (stadium/oval), parts are
 * boxes, a gate is a decision (diamond), a destination is output (parallelogram). An edge
 * naming a node that does not exist is drawn to a dashed placeholder, so reviews see it.
 */
import type { Catalogue, Estimate } from "@wfkit/core";
import type { GraphFault, GraphModel, GraphNodeKind } from "@wfkit/graph";
import { printable } from "./printable.js";
import { loadGraph } from "./siblings.js";

export type GraphFormat = "mermaid" | "dot" | "svg";
export const GRAPH_FORMATS: readonly GraphFormat[] = ["mermaid", "dot", "svg"];

/** What a drawing may show besides the definition: its faults, estimate and catalogue (svg only). */
export interface GraphContext {
  faults?: readonly GraphFault[];
  estimate?: Estimate;
  catalogue?: Catalogue;
}

export async function renderGraph(definition: unknown, format: GraphFormat, context: GraphContext = {}): Promise<string> {
  // Loaded here, not at start-up: in the CLI's bundle it is a sibling file (see bundles.mjs).
  const { graphModelOf, renderSvg } = await loadGraph();
  if (format === "svg") return renderSvg(graphModelOf({ definition, ...context }), { displayText: printable });
  const graph = graphModelOf({ definition });
  return format === "mermaid" ? renderMermaid(graph) : renderDot(graph);
}

export function escapeMermaidLabel(text: string): string {
  return printable(text)
    .replace(/[#"<>&]/g, (char) => `#${char.codePointAt(0)};`)
    .replace(/\t/g, " ");
}

function renderMermaid(graph: GraphModel): string {
  const shape: Record<GraphNodeKind, [string, string]> = {
    trigger: ["([", "])"],
    part: ["[", "]"],
    gate: ["{", "}"],
    destination: ["[/", "/]"],
    unknown: ["[", "]"],
    missing: ["[", "]"],
  };
  const lines = ["flowchart LR"];
  graph.nodes.forEach((node, index) => {
    const [open, close] = shape[node.kind];
    lines.push(`  n${index}${open}"${escapeMermaidLabel(node.id)}<br/>${escapeMermaidLabel(node.detail)}"${close}`);
  });
  for (const edge of graph.edges) lines.push(`  n${edge.from} --> n${edge.to}`);
  const missing = graph.nodes.flatMap((node, index) => (node.kind === "missing" ? [`n${index}`] : []));
  if (missing.length) lines.push("  classDef missing stroke-dasharray: 5 5", `  class ${missing.join(",")} missing`);
  return lines.join("\n") + "\n";
}

/** The inside of a DOT quoted label: printable, then `\` and `"` escaped. */
export function escapeDot(text: string): string {
  return printable(text).replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}

function renderDot(graph: GraphModel): string {
  const shape: Record<GraphNodeKind, string> = {
    trigger: "shape=oval",
    part: "shape=box",
    gate: "shape=diamond",
    destination: "shape=parallelogram",
    unknown: "shape=box",
    missing: "shape=box, style=dashed",
  };
  const lines = ["digraph workflow {", "  rankdir=LR;"];
  graph.nodes.forEach((node, index) => lines.push(`  n${index} [label="${escapeDot(node.id)}\\n${escapeDot(node.detail)}", ${shape[node.kind]}];`));
  for (const edge of graph.edges) lines.push(`  n${edge.from} -> n${edge.to};`);
  lines.push("}");
  return lines.join("\n") + "\n";
}
