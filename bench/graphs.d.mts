/** Types of graphs.mjs, for the tests that build the benchmark's graphs. */
export function layeredGraph(nodeCount: number): { schemaVersion: 1; nodes: Record<string, unknown>[]; edges: { from: string; to: string }[] };
