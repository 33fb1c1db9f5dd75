// `wfkit graph --format svg`: how long @wfkit/graph takes to draw a generated workflow (the
// model, the DOT, Graphviz's `dot` layout in WebAssembly, the SVG), with loading Graphviz
// (which every drawing does, see packages/graph/src/svg.ts) given apart. Needs `npm run build`.
import { defaultCatalogue } from "../packages/core/dist/index.js";
import { graphModelOf, layoutDot, renderSvg, toDot } from "../packages/graph/dist/index.js";
import { layeredGraph } from "./graphs.mjs";
import { median } from "./measure.mjs";

const displayText = (text) => text;

async function timeAsync(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Medians over `rounds` drawings of graphs of each size; the goal is 1,000 nodes under 1 s. */
export async function benchGraphLayout(sizes = [100, 1_000, 10_000]) {
  const emptyDrawing = toDot(graphModelOf({ definition: { nodes: [], edges: [] } }), { displayText });
  const loads = [];
  for (let round = 0; round < 5; round++) loads.push(await timeAsync(() => layoutDot(emptyDrawing)));
  const loadMs = median(loads);
  const rows = [];
  for (const nodes of sizes) {
    const model = graphModelOf({ definition: layeredGraph(nodes), catalogue: defaultCatalogue });
    const rounds = nodes >= 10_000 ? 1 : 5;
    const times = [];
    let svg = "";
    for (let round = 0; round < rounds; round++) times.push(await timeAsync(async () => (svg = await renderSvg(model, { displayText }))));
    rows.push({ nodes: model.nodes.length, edges: model.edges.length, drawMs: median(times), loadMs, svgKB: Math.round(svg.length / 1024) });
  }
  return rows;
}
