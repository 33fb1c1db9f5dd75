/**
 * @wfkit/graph: a checked workflow drawn as SVG, the one renderer of the CLI's
 * `graph --format svg` and the editor's preview. Browser-safe: no `node:` imports, no eval.
 */
export { graphModelOf, type GraphEdge, type GraphFault, type GraphModel, type GraphModelInput, type GraphNode, type GraphNodeKind } from "./model.js";
export { toDot, DRAWN_FONT_FAMILIES, LARGE_GRAPH_NODES, LAYOUT_FONT, dotLabel, escapeXml, xmlSafe, type DisplayText, type DrawOptions } from "./dot.js";
export { ENGINE_MEMORY_LIMIT, graphvizEngineState, layoutDot, renderSvg, setEngineMemoryLimit } from "./svg.js";
