import { describe, expect, it } from "vitest";
import { graphModelOf } from "@wfkit/graph";
import { escapeDot, escapeMermaidLabel, renderGraph } from "../src/graph-render.js";

const graphOf = (value: unknown) => graphModelOf({ definition: value });

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
    expect(graphOf({ scope: { graph: definition } }).nodesPointer).toBe("/scope/graph/nodes");
    expect(graphOf(definition).nodes.map((node) => node.index)).toEqual([0, 1, 2, 3, undefined]);
    expect(graphOf(null)).toEqual({ nodesPointer: "/nodes", nodes: [], edges: [], graphFaults: [] });
    expect(graphOf({ nodes: [1, { id: 2 }], edges: [null, { from: 1 }] })).toEqual({ nodesPointer: "/nodes", nodes: [], edges: [], graphFaults: [] });
  });
});

describe("mermaid", () => {
  it("uses synthetic ids (so `end` is safe) and entity-escapes labels", async () => {
    expect(await renderGraph(definition, "mermaid")).toBe(
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
    expect(escapeMermaidLabel('"#<>&\t')).toBe("#34;#35;#60;#62;#38; ");
  });

  it("writes line breaks and control characters as visible escapes, never raw", () => {
    expect(escapeMermaidLabel("a\n::error::x")).toBe("a\\n::error::x");
    expect(escapeMermaidLabel("\u001b]52;c;aGk=\u0007\u009b31m\u2028")).toBe("\\u001b]52;c;aGk=\\u0007\\u009b31m\\u2028");
  });
});

describe("dot", () => {
  it("uses synthetic ids and escapes backslashes, quotes and line breaks in labels", async () => {
    // A line break in an id is shown as the two characters `\n`, so DOT gets `\\n`.
    expect(escapeDot('a "b" \\ c\nd\u001b')).toBe('a \\"b\\" \\\\ c\\\\nd\\\\u001b');
    const dot = await renderGraph(definition, "dot");
    expect(dot).toContain('  n1 [label="say \\"hi\\"\\nterminal.profile@1 (2 subjects)", shape=box];');
    expect(dot).toContain('  n3 [label="a\\\\b<c>#1;\\ndestination: standalone", shape=parallelogram];');
    expect(dot).toContain("  n2 -> n3;");
    expect(dot).toContain('  n4 [label="ghost\\nnot declared", shape=box, style=dashed];');
    expect(dot.startsWith("digraph workflow {\n  rankdir=LR;\n")).toBe(true);
    expect(dot.endsWith("}\n")).toBe(true);
  });
});

describe("svg", () => {
  it("shows a node's line breaks and control characters as escapes (printable), XML-escaped", async () => {
    const svg = await renderGraph({ nodes: [{ id: "a\n::error::<b>&\u001b", kind: "gate", belowFloor: "hold" }], edges: [] }, "svg");
    expect(svg).toContain("<title>a\\n::error::&lt;b&gt;&amp;\\u001b\ngate: hold</title>");
    expect(svg).toContain(">a\\n::error::&lt;b&gt;&amp;\\u001b</text>");
    expect(svg).not.toContain("\u001b");
  });
});
