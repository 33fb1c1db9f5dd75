/**
 * A graph model drawn as a self-contained SVG by Graphviz's `dot` layout, compiled to
 * WebAssembly (@hpcc-js/wasm-graphviz: the WebAssembly is inside its JavaScript, so a
 * webview's bundle needs no file beside it; the CLI's graph bundle swaps that for a file read
 * from disk, see packages/cli/scripts/bundles.mjs).
 *
 * One Graphviz engine serves every layout of a process (or worker), one layout at a time:
 * loading it (decompressing and compiling the WebAssembly) costs more than laying out a
 * small graph, and the editor preview and the playground draw again on every edit.
 *
 * What makes reusing an engine safe: Graphviz
 * keeps part of its call stack in the WebAssembly memory (emscripten's stack, of fixed size,
 * below which lie Graphviz's static data), with no check against overflowing it. A layout
 * that recurses deeply enough with locals there (212 nested clusters do it) writes over that
 * data: it may even succeed, but every later layout in that engine traps with "memory access
 * out of bounds". wfkit's DOT has no clusters, but `layoutDot` takes any DOT, so a layout that
 * fails drops the engine and is tried once more on a fresh one (a second failure is the
 * graph's own: Node's stack exhausted by a 20,000-node chain, say). A syntax error, an `exit`
 * from Graphviz (an allocation it cannot make) and Node's stack running out leave an engine as
 * it was, and its memory does not grow from layout to layout; packages/graph/test/engine-*.test.ts
 * hold each case, and lay out many graphs in one engine against a fresh engine's drawings.
 * WebAssembly memory also never shrinks: an engine a layout grew past `ENGINE_MEMORY_LIMIT`
 * is dropped, so one hostile graph does not keep hundreds of megabytes for the process's life.
 *
 * Graphviz writes each node's and edge's DOT name as its `<title>`; those are synthetic
 * (`n0`), so they are replaced with what a reader wants in the tooltip: the node's id and
 * detail, and each fault's code and message.
 */
import { Graphviz } from "@hpcc-js/wasm-graphviz";
import { DRAWN_FONT_FAMILIES, escapeXml, toDot, type DrawOptions } from "./dot.js";
import type { GraphFault, GraphModel } from "./model.js";

/**
 * An engine whose WebAssembly memory is larger than this after a layout is dropped. A fresh
 * engine has 16 MiB, which a 1,000-node workflow fits in; 10,000 nodes grow it to about
 * 71 MiB; Graphviz's ceiling is 2 GiB.
 */
export const ENGINE_MEMORY_LIMIT = 256 * 2 ** 20;

let memoryLimit = ENGINE_MEMORY_LIMIT;

/** Sets the memory past which an engine is dropped after a layout (tests, and embedders that draw huge graphs). */
export function setEngineMemoryLimit(bytes: number): void {
  memoryLimit = bytes;
}

let engine: Promise<Graphviz> | undefined;
let loads = 0;
let queue: Promise<unknown> = Promise.resolve();

function loadEngine(): Promise<Graphviz> {
  loads++;
  // Never an instance the library memoised for another caller (which may have broken it).
  Graphviz.unload();
  const loading = Graphviz.load();
  // A failed load is not kept: the next layout tries again.
  loading.catch(() => {
    if (engine === loading) engine = undefined;
  });
  return loading;
}

/** Forgets the engine (the library memoises one too: it must load afresh next time). */
function dropEngine(): void {
  engine = undefined;
  Graphviz.unload();
}

/** The bytes of an engine's WebAssembly memory (emscripten's view of it), if it can be read. */
function memoryBytes(graphviz: Graphviz): number | undefined {
  return (graphviz as unknown as { _module?: { HEAPU8?: Uint8Array } })._module?.HEAPU8?.byteLength;
}

function layoutIn(graphviz: Graphviz, dot: string): string {
  const svg = graphviz.dot(dot, "svg");
  if ((memoryBytes(graphviz) ?? 0) > memoryLimit) dropEngine();
  return svg;
}

async function layoutNow(dot: string): Promise<string> {
  const graphviz = await (engine ??= loadEngine());
  try {
    return layoutIn(graphviz, dot);
  } catch {
    // The engine may be one an earlier layout corrupted (even a syntax error can be such an
    // engine's), so it is dropped and the layout tried once more afresh; a second failure is
    // the graph's own, and leaves no engine behind either.
    dropEngine();
    const fresh = await (engine = loadEngine());
    try {
      return layoutIn(fresh, dot);
    } catch (error) {
      dropEngine();
      throw error;
    }
  }
}

/** Runs `dot` on DOT text, after every layout asked for earlier has finished. */
export function layoutDot(dot: string): Promise<string> {
  const run = queue.then(() => layoutNow(dot));
  queue = run.catch(() => undefined);
  return run;
}

/** How many times this process has loaded Graphviz, and the current engine's memory (bytes). */
export async function graphvizEngineState(): Promise<{ loads: number; memoryBytes: number | undefined }> {
  await queue;
  const current = engine ? await engine.catch(() => undefined) : undefined;
  return { loads, memoryBytes: current ? memoryBytes(current) : undefined };
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
