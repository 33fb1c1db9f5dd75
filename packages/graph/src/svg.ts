/**
 * A graph model drawn as a self-contained SVG by Graphviz's `dot` layout, compiled to
 * WebAssembly (@hpcc-js/wasm-graphviz: the WebAssembly is inside its JavaScript, so the CLI's
 * bundle and a webview's need no file beside them).
 *
 * Layouts run one at a time, each in a freshly loaded Graphviz instance that is unloaded
 * afterwards: an instance reused for many layouts has been seen to fail with memory errors.
 *
 * Graphviz writes each node's and edge's DOT name as its `<title>`; those are synthetic
 * (`n0`), so they are replaced with what a reader wants in the tooltip: the node's id and
 * detail, and each fault's code and message.
 */
import { Graphviz } from "@hpcc-js/wasm-graphviz";
import { DRAWN_FONT_FAMILIES, escapeXml, toDot, type DrawOptions } from "./dot.js";
import type { GraphFault, GraphModel } from "./model.js";

let queue: Promise<unknown> = Promise.resolve();

/** Runs `dot` on DOT text, after every layout asked for earlier has finished. */
export function layoutDot(dot: string): Promise<string> {
  const run = queue.then(async () => {
    const graphviz = await Graphviz.load();
    try {
      return graphviz.dot(dot, "svg");
    } finally {
      Graphviz.unload();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

function faultLines(faults: readonly GraphFault[]): string[] {
  return faults.map((fault) => `${fault.severity} ${fault.code}: ${fault.message}`);
}

/** The tooltip of each drawn element, by its SVG id. */
function tooltips(model: GraphModel, options: DrawOptions): Map<string, string> {
  const show = options.displayText;
  const titles = new Map<string, string>();
  for (const node of model.nodes) {
    const lines = [show(node.id), show(node.detail)];
    if (node.costMinorUnits !== undefined) lines.push(`estimated cost: ${node.costMinorUnits} minor units`);
    titles.set(`wf-${node.key}`, [...lines, ...faultLines(node.faults).map(show)].join("\n"));
  }
  for (const edge of model.edges) {
    const lines = [`${show(model.nodes[edge.from]!.id)} → ${show(model.nodes[edge.to]!.id)}`];
    if (edge.flows.length) lines.push(`carries: ${edge.flows.map(show).join(", ")}`);
    titles.set(`wf-${edge.key}`, [...lines, ...faultLines(edge.faults).map(show)].join("\n"));
  }
  return titles;
}

/** The SVG drawing of a graph model: the same model gives the same bytes. */
export async function renderSvg(model: GraphModel, options: DrawOptions): Promise<string> {
  const svg = (await layoutDot(toDot(model, options))).replace(/font-family="[^"]*"/g, `font-family="${DRAWN_FONT_FAMILIES}"`);
  const titles = tooltips(model, options);
  // Graphviz escapes `-` in ids as `&#45;`; ours contain only `wf-`, letters and digits.
  const withTitles = svg.replace(/<g id="wf&#45;([ne]\d+)" class="([^"]*)">\n<title>[^<]*<\/title>/g, (_match, key: string, classes: string) => {
    const id = `wf-${key}`;
    return `<g id="${id}" class="${classes}">\n<title>${escapeXml(titles.get(id) ?? "")}</title>`;
  });
  if (!model.graphFaults.length) return withTitles;
  const graphTitle = `<title>${escapeXml(faultLines(model.graphFaults).map(options.displayText).join("\n"))}</title>`;
  // Graphviz titles the drawing with the graph's DOT name; the faults replace it.
  return withTitles.replace(/(<g id="graph0" class="graph"[^>]*>\n)<title>[^<]*<\/title>/, (_match, open: string) => open + graphTitle);
}
