/**
 * A graph model as Graphviz DOT for the SVG drawing. Every name in the DOT is synthetic (`n0`,
 * `e0`); text from the user's file appears only inside quoted labels, escaped (see `dotLabel`).
 * Node and edge `id`s and `class`es pass through to the SVG, where the editor preview finds
 * them and its stylesheet restyles them for the theme.
 */
import type { GraphEdge, GraphFault, GraphModel, GraphNode, GraphNodeKind } from "./model.js";

/** How text from the user's file is shown (the CLI passes its `printable`). */
export type DisplayText = (text: string) => string;

export interface DrawOptions {
  displayText: DisplayText;
}

/** Characters XML 1.0 forbids (most C0 controls, U+FFFE, U+FFFF, lone surrogates): never in the SVG. */
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlSafe(text: string): string {
  return text.replace(XML_INVALID, "\ufffd");
}

/** Text for XML character data or a double-quoted attribute. */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(/[&<>"]/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[char]!);
}

/**
 * The inside of a quoted DOT label. `&` becomes `&amp;` because Graphviz copies a label's
 * entities into the SVG as they are (a node named `&lt;` would otherwise show as `<`); `\` and
 * `"` get DOT's backslash; remaining line breaks become spaces (a label's lines are ours).
 */
export function dotLabel(text: string): string {
  return xmlSafe(text)
    .replace(/&/g, "&amp;")
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')
    .replace(/[\r\n\u2028\u2029]/g, " ");
}

const SHAPES: Record<GraphNodeKind, string> = {
  trigger: 'shape=box, style="rounded,filled", fillcolor="#e8f1fb"',
  part: 'shape=box, style=filled, fillcolor="#f5f5f5"',
  gate: 'shape=diamond, style=filled, fillcolor="#fff6dd"',
  destination: 'shape=parallelogram, style=filled, fillcolor="#e9f7ec"',
  unknown: 'shape=box, style=filled, fillcolor="#ffffff"',
  missing: 'shape=box, style="dashed", fillcolor="#ffffff"',
};

const FAULT_COLOURS = { error: "#d1242f", warning: "#b35900" } as const;

/** The worst severity among faults, or undefined when there are none. */
export function worstSeverity(faults: readonly GraphFault[]): GraphFault["severity"] | undefined {
  if (!faults.length) return undefined;
  return faults.some((fault) => fault.severity === "error") ? "error" : "warning";
}

export function classOf(item: { faults: readonly GraphFault[] }, base: string): string {
  const severity = worstSeverity(item.faults);
  return severity ? `${base} wf-fault wf-${severity}` : base;
}

function nodeLabel(node: GraphNode, show: DisplayText): string {
  const lines = [node.id, node.detail];
  if (node.costMinorUnits !== undefined) lines.push(`cost ${node.costMinorUnits}`);
  return lines.map((line) => dotLabel(show(line))).join("\\n");
}

function edgeLabel(edge: GraphEdge, show: DisplayText): string {
  return edge.flows.map((name) => dotLabel(show(name))).join("\\n");
}

/**
 * From this many nodes on, a drawing bounds the layout's search (network simplex and crossing
 * minimisation iterations, in proportion to the graph) and leaves what flows along an edge to
 * its tooltip: Graphviz lays an edge label out as a node of its own, and unbounded, a workflow
 * of 1,000 nodes took about 6 s instead of about 0.3 s, and one of 10,000 about 50 s instead of
 * about 14 s. Smaller drawings are laid out in full.
 */
export const LARGE_GRAPH_NODES = 500;

/**
 * Graphviz sizes each label with built-in metrics for a few named fonts and falls back to
 * Times for any other name, a font list included; Times is narrower than any sans-serif a
 * reader's browser draws with, so labels spilled out of their boxes. Layout measures with
 * Verdana, the widest of the families Graphviz knows, and the drawing asks for Verdana
 * (Windows, macOS) or DejaVu Sans (most Linux desktops), which have the same widths; any
 * other sans-serif is narrower, so a label may sit loose in its box but never spills out.
 */
export const LAYOUT_FONT = "Verdana";
export const DRAWN_FONT_FAMILIES = "Verdana,DejaVu Sans,Bitstream Vera Sans,sans-serif";

export function toDot(model: GraphModel, options: DrawOptions): string {
  const show = options.displayText;
  const large = model.nodes.length >= LARGE_GRAPH_NODES;
  const lines = [
    "digraph workflow {",
    `  graph [rankdir=LR, nodesep=0.3, ranksep=0.5, fontname="${LAYOUT_FONT}", bgcolor="transparent"${large ? ", nslimit=0.1, nslimit1=0.1, mclimit=0.01, remincross=false" : ""}];`,
    `  node [fontname="${LAYOUT_FONT}", fontsize=11, color="#57606a", fontcolor="#1f2328", margin="0.12,0.06"];`,
    `  edge [fontname="${LAYOUT_FONT}", fontsize=9, color="#57606a", fontcolor="#57606a"];`,
  ];
  for (const node of model.nodes) {
    const severity = worstSeverity(node.faults);
    const fault = severity ? `, color="${FAULT_COLOURS[severity]}", penwidth=2` : "";
    lines.push(`  ${node.key} [id="wf-${node.key}", class="${classOf(node, `wf-node wf-${node.kind}`)}", label="${nodeLabel(node, show)}", ${SHAPES[node.kind]}${fault}];`);
  }
  for (const edge of model.edges) {
    const severity = worstSeverity(edge.faults);
    const fault = severity ? `, color="${FAULT_COLOURS[severity]}", fontcolor="${FAULT_COLOURS[severity]}", penwidth=2` : "";
    const label = edge.flows.length && !large ? `, label="${edgeLabel(edge, show)}"` : "";
    lines.push(`  n${edge.from} -> n${edge.to} [id="wf-${edge.key}", class="${classOf(edge, "wf-edge")}"${label}${fault}];`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}
