import { describe, expect, it } from "vitest";
import { escapeMermaidLabel, graphOf, quoteDot, renderGraph } from "../src/graph-render.js";

const definition = {
  schemaVersion: 1,
  nodes: [
    { id: "start", kind: "trigger", trigger: { kind: "on_demand" } },
    { id: 'say "hi"', partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [{}, {}] } },
    { id: "end", kind: "gate", belowFloor: "hold" },
    { id: "a\\b<c>#1;", kind: "destination", destination: { kind: "standalone" } },
  ],
  edges: [
    { from: "start", to: 'say "hi"' },
    { from: 'say "hi"', to: "end" },
    { from: "end", to: "a\\b<c>#1;" },
    { from: "end", to: "ghost" },
  ],
};

describe("graphOf", () => {
  it("adds a placeholder for an edge's undeclared node", () => {
    const graph = graphOf(definition);
    expect(graph.nodes.map((node) => [node.id, node.kind])).toContainEqual(["ghost", "missing"]);
    expect(graph.edges).toHaveLength(4);
  });

  it("reads a version-save body's graph, and tolerates anything", () => {
    expect(graphOf({ scope: { graph: definition } }).nodes).toHaveLength(5);
    expect(graphOf(null)).toEqual({ nodes: [], edges: [] });
    expect(graphOf({ nodes: [1, { id: 2 }], edges: [null, { from: 1 }] })).toEqual({ nodes: [], edges: [] });
  });
});

describe("mermaid", () => {
  it("uses synthetic ids (so `end` is safe) and entity-escapes labels", () => {
    expect(renderGraph(definition, "mermaid")).toBe(
      [
        "flowchart LR",
        '  n0(["start<br/>trigger: on_demand"])',
        '  n1["say #34;hi#34;<br/>terminal.profile@1 (2 subjects)"]',
        '  n2{"end<br/>gate: hold"}',
        '  n3[/"a\\b#60;c#62;#35;1;<br/>destination: standalone"/]',
        '  n4["ghost<br/>not declared"]',
        "  n0 --> n1",
        "  n1 --> n2",
        "  n2 --> n3",
        "  n2 --> n4",
        "  classDef missing stroke-dasharray: 5 5",
        "  class n4 missing",
        "",
      ].join("\n"),
    );
  });

  it("escapes every character that could end or alter a label", () => {
    expect(escapeMermaidLabel('"#<>&\n')).toBe("#34;#35;#60;#62;#38; ");
  });
});

describe("dot", () => {
  it("quotes ids and escapes backslashes, quotes and line breaks", () => {
    expect(quoteDot('a "b" \\ c\nd')).toBe('"a \\"b\\" \\\\ c\\nd"');
    const dot = renderGraph(definition, "dot");
    expect(dot).toContain('  "say \\"hi\\"" [label="say \\"hi\\"\\nterminal.profile@1 (2 subjects)", shape=box];');
    expect(dot).toContain('  "end" -> "a\\\\b<c>#1;";');
    expect(dot).toContain('  "ghost" [label="ghost\\nnot declared", shape=box, style=dashed];');
    expect(dot.startsWith("digraph workflow {\n  rankdir=LR;\n")).toBe(true);
    expect(dot.endsWith("}\n")).toBe(true);
  });
});
