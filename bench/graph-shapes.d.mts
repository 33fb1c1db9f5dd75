/** Types of graph-shapes.mjs, for the tests that lay the benchmark's shapes out. */
type Definition = { schemaVersion: 1; nodes: Record<string, unknown>[]; edges: { from: string; to: string }[] };
export function fanInGraph(nodeCount: number, fanIn?: number): Definition;
export function chainGraph(nodeCount: number): Definition;
export function fanOutGraph(nodeCount: number): Definition;
export function spacedIdsGraph(nodeCount: number): Definition;
export const GRAPH_SHAPES: Record<string, (nodeCount: number) => Definition>;
