// `wfkit graph --format svg`: how long @wfkit/graph takes to draw a generated workflow (the
// model, the DOT, Graphviz's `dot` layout in WebAssembly, the SVG) in one process, as the
// editor preview and the playground draw again and again. Loading Graphviz (decoding and
// compiling its WebAssembly, as this package's own dist does) happens once per process (see
// packages/graph/src/svg.ts) and is given apart: the first layout of this process, of an
// empty drawing. graph-peer.mjs times the whole `wfkit graph` process against `dot`. Needs
// `npm run build`.
import { defaultCatalogue } from "../packages/core/dist/index.js";
import { graphModelOf, graphvizEngineState, layoutDot, renderSvg, toDot } from "../packages/graph/dist/index.js";
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
  const { loads: before } = await graphvizEngineState();
  const loadMs = await timeAsync(() => layoutDot(emptyDrawing));
  // Loaded here, unless something earlier in this process drew (then loadMs is one layout).
  const loadedHere = (await graphvizEngineState()).loads > before;
  const rows = [];
  for (const nodes of sizes) {
    const model = graphModelOf({ definition: layeredGraph(nodes), catalogue: defaultCatalogue });
    const rounds = nodes >= 10_000 ? 1 : 5;
    const times = [];
    let svg = "";
    for (let round = 0; round < rounds; round++) times.push(await timeAsync(async () => (svg = await renderSvg(model, { displayText }))));
    rows.push({ nodes: model.nodes.length, edges: model.edges.length, drawMs: median(times), loadMs: loadedHere ? loadMs : undefined, svgKB: Math.round(svg.length / 1024) });
  }
  return rows;
}
