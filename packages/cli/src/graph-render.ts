/**
 * Drawing a definition's graph as Mermaid (renders in GitHub Markdown and most docs sites)
 * or Graphviz DOT (for `dot -Tsvg`).
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
import { isPlainObject, isVersionSaveBody } from "@wfkit/core";
import { printable } from "./printable.js";

export type GraphFormat = "mermaid" | "dot";

interface GraphNode {
  id: string;
  kind: "trigger" | "part" | "gate" | "destination" | "unknown" | "missing";
  detail: string;
}

interface Graph {
  nodes: GraphNode[];
  edges: { from: number; to: number }[];
}

/** Reads nodes and edges from a Definition or version-save body, tolerating any shape. */
export function graphOf(definition: unknown): Graph {
  const root = isVersionSaveBody(definition) ? (isPlainObject(definition.scope) ? definition.scope.graph : undefined) : definition;
  const rawNodes = isPlainObject(root) && Array.isArray(root.nodes) ? root.nodes : [];
  const rawEdges = isPlainObject(root) && Array.isArray(root.edges) ? root.edges : [];
  const nodes: GraphNode[] = [];
  const indexOf = new Map<string, number>();
  for (const raw of rawNodes) {
    if (!isPlainObject(raw) || typeof raw.id !== "string") continue;
    if (!indexOf.has(raw.id)) indexOf.set(raw.id, nodes.length);
    nodes.push(describeNode(raw as Record<string, unknown> & { id: string }));
  }
  const edges: Graph["edges"] = [];
  const endpoint = (id: unknown): number | undefined => {
    if (typeof id !== "string") return undefined;
    let index = indexOf.get(id);
    if (index === undefined) {
      index = nodes.length;
      indexOf.set(id, index);
      nodes.push({ id, kind: "missing", detail: "not declared" });
    }
    return index;
  };
  for (const raw of rawEdges) {
    if (!isPlainObject(raw)) continue;
    const from = endpoint(raw.from);
    const to = endpoint(raw.to);
    if (from !== undefined && to !== undefined) edges.push({ from, to });
  }
  return { nodes, edges };
}

function describeNode(raw: Record<string, unknown> & { id: string }): GraphNode {
  const inner = (field: string) => (isPlainObject(raw[field]) ? (raw[field] as Record<string, unknown>) : {});
  switch (raw.kind) {
    case "trigger":
      return { id: raw.id, kind: "trigger", detail: `trigger: ${String(inner("trigger").kind ?? "?")}` };
    case "gate":
      return { id: raw.id, kind: "gate", detail: `gate: ${String(raw.belowFloor ?? "?")}` };
    case "destination":
      return { id: raw.id, kind: "destination", detail: `destination: ${String(inner("destination").kind ?? "?")}` };
    case undefined:
    case "part": {
      const version = typeof raw.partVersion === "string" ? `@${raw.partVersion}` : "";
      const subjects = Array.isArray(inner("terminal").subjectRefs) ? (inner("terminal").subjectRefs as unknown[]).length : 0;
      return { id: raw.id, kind: "part", detail: `${String(raw.partId ?? "?")}${version}${subjects ? ` (${subjects} subject${subjects === 1 ? "" : "s"})` : ""}` };
    }
    default:
      return { id: raw.id, kind: "unknown", detail: `kind: ${String(raw.kind)}` };
  }
}

export function renderGraph(definition: unknown, format: GraphFormat): string {
  const graph = graphOf(definition);
  return format === "mermaid" ? renderMermaid(graph) : renderDot(graph);
}

export function escapeMermaidLabel(text: string): string {
  return printable(text)
    .replace(/[#"<>&]/g, (char) => `#${char.codePointAt(0)};`)
    .replace(/\t/g, " ");
}

function renderMermaid(graph: Graph): string {
  const shape: Record<GraphNode["kind"], [string, string]> = {
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

function renderDot(graph: Graph): string {
  const shape: Record<GraphNode["kind"], string> = {
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
