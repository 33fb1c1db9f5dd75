/**
 * The SVG drawing: goldens for the examples (regenerate with
 * `UPDATE_GOLDEN=1 npx vitest run packages/graph/test/graph.test.ts`, then read the diff),
 * faults drawn on nodes and edges, escaping, stability under small edits, browser safety.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCatalogue } from "@wfkit/core";
import { analyzeSource } from "@wfkit/dsl";
import { describe, expect, it } from "vitest";
import { DRAWN_FONT_FAMILIES, graphModelOf, LARGE_GRAPH_NODES, LAYOUT_FONT, layoutDot, renderSvg, toDot, type GraphModel } from "../src/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../../..");
const examples = path.join(repoRoot, "examples");
const goldenDir = path.join(here, "golden");
const update = process.env.UPDATE_GOLDEN === "1";
/** The CLI shows user text through `printable`; these tests need a visible stand-in. */
const displayText = (text: string) => text.replace(/\n/g, "\\n");

function modelOfFile(file: string): GraphModel {
  const text = readFileSync(file, "utf8");
  const analysis = analyzeSource(text, file.endsWith(".json") ? "json" : "wf", { catalogue: defaultCatalogue });
  return graphModelOf({ definition: analysis.definition, faults: analysis.faults, catalogue: defaultCatalogue, ...(analysis.estimate ? { estimate: analysis.estimate } : {}) });
}

const exampleFiles = [
  ...readdirSync(examples).filter((name) => name.endsWith(".wf")).map((name) => path.join(examples, name)),
  ...readdirSync(path.join(examples, "broken")).filter((name) => name.endsWith(".wf")).map((name) => path.join(examples, "broken", name)),
].sort();

/** Each drawn node's centre (its first label line's anchor), by SVG id. */
function nodeCentres(svg: string): Map<string, { x: number; y: number }> {
  const centres = new Map<string, { x: number; y: number }>();
  for (const match of svg.matchAll(/<g id="(wf-n\d+)" class="[^"]*">\n<title>[^<]*<\/title>\n[^\n]*\n<text[^>]* x="([-\d.]+)" y="([-\d.]+)"/g)) {
    centres.set(match[1]!, { x: Number(match[2]), y: Number(match[3]) });
  }
  return centres;
}

describe("golden SVGs of the examples", () => {
  for (const file of exampleFiles) {
    const name = path.relative(examples, file).replace(/[\\/]/g, "__").replace(/\.wf$/, ".svg");
    it(name, async () => {
      const svg = await renderSvg(modelOfFile(file), { displayText });
      const golden = path.join(goldenDir, name);
      if (update) writeFileSync(golden, svg);
      expect(existsSync(golden), `missing golden ${name}; run with UPDATE_GOLDEN=1 and review it`).toBe(true);
      expect(svg).toBe(readFileSync(golden, "utf8"));
    });
  }
});

describe("the drawing", () => {
  it("gives the same bytes for the same definition, layout after layout", async () => {
    const model = modelOfFile(path.join(examples, "fan-out-fan-in.wf"));
    const drawings = [];
    for (let round = 0; round < 3; round++) drawings.push(await renderSvg(model, { displayText }));
    expect(new Set(drawings).size).toBe(1);
  });

  it("runs concurrent requests one at a time, each complete", async () => {
    const files = exampleFiles.slice(0, 4);
    const together = await Promise.all(files.map((file) => renderSvg(modelOfFile(file), { displayText })));
    for (const [index, file] of files.entries()) expect(together[index]).toBe(await renderSvg(modelOfFile(file), { displayText }));
  });

  it("draws a faulty node in the fault's colour with its message as the tooltip", async () => {
    const definition = {
      schemaVersion: 1,
      nodes: [
        { id: "start", kind: "trigger", trigger: { kind: "on_demand" } },
        { id: "p", kind: "part", partId: "no.such.part", partVersion: "1" },
      ],
      edges: [{ from: "start", to: "p" }],
    };
    const faults = [
      { code: "part-unknown", severity: "error" as const, message: "part `no.such.part` is not in the catalogue", nodeId: "p" },
      { code: "edge-x", severity: "warning" as const, message: "edge <0> & more", nodeId: null, edge: 0 },
    ];
    const svg = await renderSvg(graphModelOf({ definition, faults }), { displayText });
    expect(svg).toMatch(/<g id="wf-n1" class="node wf&#45;node wf&#45;part wf&#45;fault wf&#45;error">\n<title>p\nno.such.part@1\nerror part-unknown: part `no.such.part` is not in the catalogue<\/title>\n<polygon fill="#f5f5f5" stroke="#d1242f" stroke-width="2"/);
    expect(svg).toMatch(/<g id="wf-e0" class="edge wf&#45;edge wf&#45;fault wf&#45;warning">\n<title>start → p\nwarning edge-x: edge &lt;0&gt; &amp; more<\/title>\n<path fill="none" stroke="#b35900" stroke-width="2"/);
    expect(svg).not.toContain('id="wf-n0" class="node wf&#45;node wf&#45;trigger wf&#45;fault');
  });

  it("lists a fault of the whole graph as the drawing's own tooltip", async () => {
    const model = graphModelOf({ definition: { nodes: [], edges: [] }, faults: [{ code: "graph-empty", severity: "error", message: "no nodes", nodeId: null }] });
    expect(model.graphFaults).toHaveLength(1);
    const svg = await renderSvg(model, { displayText });
    expect(svg).toContain('<g id="graph0" class="graph" transform="scale(1 1) rotate(0) translate(4 4)">\n<title>error graph-empty: no nodes</title>\n');
    expect(svg.match(/<title>/g)).toHaveLength(1);
  });

  it("labels parts with id, version and cost, and edges with what flows along them", () => {
    const model = modelOfFile(path.join(examples, "company-profile.wf"));
    const dot = toDot(model, { displayText });
    const part = model.nodes.find((node) => node.kind === "part" && node.costMinorUnits !== undefined)!;
    expect(dot).toContain(`label="${part.id}\\n${part.detail}\\ncost ${part.costMinorUnits}"`);
    const produces = new Map(defaultCatalogue.parts.map((entry) => [entry.partId, entry.produces]));
    const flowing = model.edges.filter((edge) => edge.flows.length);
    expect(flowing.length).toBeGreaterThan(0);
    for (const edge of flowing) {
      const from = model.nodes[edge.from]!;
      if (from.kind === "part") for (const name of edge.flows) expect(produces.get(from.detail.split("@")[0]!)).toContain(name);
    }
  });

  it("sizes boxes with sans-serif widths, not the narrower Times Graphviz assumes for unknown fonts", async () => {
    const model = modelOfFile(path.join(examples, "company-profile.wf"));
    // The first polygon is the drawing's background; the rest are node boxes.
    const widest = (svg: string) => Math.max(...[...svg.matchAll(/<polygon[^>]*points="([^"]*)"/g)].slice(1).map((match) => {
      const xs = match[1]!.split(" ").map((point) => Number(point.split(",")[0]));
      return Math.max(...xs) - Math.min(...xs);
    }));
    const ours = await renderSvg(model, { displayText });
    const asTimes = await layoutDot(toDot(model, { displayText }).replaceAll(`fontname="${LAYOUT_FONT}"`, 'fontname="Times"'));
    expect(widest(ours)).toBeGreaterThan(widest(asTimes) * 1.05);
    expect(ours).toContain(`font-family="${DRAWN_FONT_FAMILIES}"`);
    expect(ours).not.toMatch(/font-family="(?!Verdana,DejaVu Sans)/);
  });

  it("escapes text from the file for DOT and for XML", async () => {
    const id = 'a"b\\c&lt;<x>\u0001';
    const model = graphModelOf({ definition: { nodes: [{ id, kind: "gate", belowFloor: "hold" }], edges: [] } });
    const dot = toDot(model, { displayText: (text) => text });
    expect(dot).toContain('label="a\\"b\\\\c&amp;lt;<x>\ufffd\\ngate: hold"');
    const svg = await renderSvg(model, { displayText: (text) => text });
    expect(svg).toContain(">a&quot;b\\c&amp;lt;&lt;x&gt;\ufffd</text>");
    expect(svg).not.toContain("\u0001");
  });

  it("moves little for a small edit: a node added at the end leaves every other node where it was", async () => {
    for (const file of exampleFiles.filter((name) => !name.includes("broken"))) {
      const model = modelOfFile(file);
      const last = model.nodes.length - 1;
      const before = nodeCentres(await renderSvg(model, { displayText }));
      const grown = graphModelOf({
        definition: { nodes: [...model.nodes.map((node) => ({ id: node.id, kind: node.kind === "missing" ? "part" : node.kind })), { id: "added", kind: "gate", belowFloor: "hold" }], edges: [...model.edges.map((edge) => ({ from: model.nodes[edge.from]!.id, to: model.nodes[edge.to]!.id })), { from: model.nodes[last]!.id, to: "added" }] },
      });
      const reference = nodeCentres(await renderSvg(graphModelOf({ definition: { nodes: model.nodes.map((node) => ({ id: node.id, kind: node.kind === "missing" ? "part" : node.kind })), edges: model.edges.map((edge) => ({ from: model.nodes[edge.from]!.id, to: model.nodes[edge.to]!.id })) } }), { displayText }));
      const after = nodeCentres(await renderSvg(grown, { displayText }));
      expect(before.size, file).toBe(model.nodes.length);
      expect(after.size, file).toBe(model.nodes.length + 1);
      const order = (centres: Map<string, { x: number; y: number }>) => [...reference.keys()].sort((a, b) => centres.get(a)!.x - centres.get(b)!.x || centres.get(a)!.y - centres.get(b)!.y);
      expect(order(after), file).toEqual(order(reference));
      for (const [key, centre] of reference) expect(Math.abs(after.get(key)!.x - centre.x), `${file} ${key}`).toBeLessThanOrEqual(60);
    }
  });
});

describe("faults on a repeated node id", () => {
  it("go to the declaration their pointer names, as the diagnostic does, not to the first of that id", () => {
    const model = modelOfFile(path.join(examples, "broken", "undeclared.wf"));
    const reports = model.nodes.filter((node) => node.id === "report");
    expect(reports.map((node) => node.index)).toEqual([2, 3]);
    expect(reports[0]!.faults).toEqual([]);
    expect(reports[1]!.faults.map((fault) => fault.code)).toEqual(["duplicate-name"]);
    // The estimate counts the first declaration only (core skips a duplicate), so its cost stays there.
    expect(reports[0]!.costMinorUnits).toBeGreaterThan(0);
    expect(reports[1]!.costMinorUnits).toBeUndefined();
  });

  it("in a version-save body too, and falls back to the id when the pointer names another node or none", () => {
    const nodes = [
      { id: "start", kind: "trigger", trigger: { kind: "on_demand" } },
      { id: "p", partId: "pack", partVersion: "1" },
      { id: "p", partId: "pack", partVersion: "1" },
    ];
    const fault = (pointer: string | undefined, nodeId: string | null = "p") => ({ code: "x", severity: "error" as const, message: "m", nodeId, ...(pointer === undefined ? {} : { pointer }) });
    const body = { scope: { graph: { schemaVersion: 1, nodes, edges: [] } } };
    const at = (definition: unknown, pointer: string | undefined, nodeId?: string | null) =>
      graphModelOf({ definition, faults: [fault(pointer, nodeId)] }).nodes.findIndex((node) => node.faults.length > 0);
    expect(at(body, "/scope/graph/nodes/2/id")).toBe(2);
    expect(at(body, "/scope/graph/nodes/2")).toBe(2);
    expect(at({ schemaVersion: 1, nodes, edges: [] }, "/nodes/2/partId")).toBe(2);
    expect(at({ schemaVersion: 1, nodes, edges: [] }, "/nodes/0/id")).toBe(1); // node 0 is `start`, not `p`
    expect(at({ schemaVersion: 1, nodes, edges: [] }, "/nodes/02/id")).toBe(1);
    expect(at({ schemaVersion: 1, nodes, edges: [] }, "/edges/0/to")).toBe(1);
    expect(at({ schemaVersion: 1, nodes, edges: [] }, undefined)).toBe(1);
    expect(at({ schemaVersion: 1, nodes, edges: [] }, "/nodes/2/id", null)).toBe(-1);
  });

  it("are drawn on that node in the SVG", async () => {
    const svg = await renderSvg(modelOfFile(path.join(examples, "broken", "undeclared.wf")), { displayText });
    const classOf = (key: string) => svg.match(new RegExp(`<g id="wf-${key}" class="([^"]*)"`))?.[1];
    expect(classOf("n2")).not.toContain("wf&#45;error");
    expect(classOf("n3")).toContain("wf&#45;error");
  });
});

describe("large drawings", () => {
  it("bound the layout's search and leave edge flows to tooltips from LARGE_GRAPH_NODES nodes on", () => {
    const chain = (count: number) => ({
      nodes: Array.from({ length: count }, (_, index) => ({ id: `p${index}`, partId: "pack", partVersion: "1" })),
      edges: Array.from({ length: count - 1 }, (_, index) => ({ from: `p${index}`, to: `p${index + 1}` })),
    });
    const catalogue = { ...defaultCatalogue, parts: [{ partId: "pack", versions: ["1"], requires: ["x"], produces: ["x"], unattendedSafe: true, cost: { baseMinorUnits: 1 } }] };
    const small = toDot(graphModelOf({ definition: chain(LARGE_GRAPH_NODES - 1), catalogue }), { displayText });
    const large = toDot(graphModelOf({ definition: chain(LARGE_GRAPH_NODES), catalogue }), { displayText });
    expect(small).not.toContain("mclimit");
    expect(small).toContain('class="wf-edge", label="x"');
    expect(large).toContain("nslimit=0.1, nslimit1=0.1, mclimit=0.01, remincross=false");
    expect(large).not.toContain('class="wf-edge", label=');
  });
});
