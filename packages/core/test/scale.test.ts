// Large and hostile inputs: no stack overflow, no prototype pollution. No wall-clock limits
// here; speed is measured by `npm run bench`.
import { describe, expect, it } from "vitest";
import { validateDefinition, type Definition } from "@wfkit/core";

function chain(length: number): Definition {
  const nodes: Definition["nodes"] = [{ id: "n0", kind: "trigger", trigger: { kind: "on_demand" } }];
  const edges: Definition["edges"] = [];
  for (let i = 1; i < length - 1; i++) {
    nodes.push({ id: `n${i}`, kind: "gate", belowFloor: "hold" });
    edges.push({ from: `n${i - 1}`, to: `n${i}` });
  }
  nodes.push({ id: `n${length - 1}`, kind: "destination", destination: { kind: "standalone" } });
  edges.push({ from: `n${length - 2}`, to: `n${length - 1}` });
  return { schemaVersion: 1, nodes, edges };
}

describe("scale", () => {
  it("validates a 100,000-node chain without overflowing the stack", () => {
    const result = validateDefinition(chain(100_000));
    expect(result.faults).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("reports a 100,000-node cycle once", () => {
    const graph = chain(100_000);
    graph.edges.push({ from: "n99997", to: "n1" });
    const faults = validateDefinition(graph).faults;
    expect(faults.map((f) => f.code)).toEqual(["cycle"]);
    expect(faults[0]!.related).toHaveLength(99_996);
  });

  it("names a 100,000-node unreachable region once, at its head", () => {
    const graph = chain(100_000);
    graph.edges.splice(0, 1); // cut the trigger off from n1
    const faults = validateDefinition(graph).faults;
    expect(faults.map((f) => [f.code, f.nodeId])).toEqual([["unreachable", "n1"]]);
    expect(faults[0]!.related).toHaveLength(99_998);
  });

  it("handles 100,000 dangling edges to one misspelt node without going quadratic", () => {
    const graph = chain(1_000);
    for (let i = 0; i < 100_000; i++) graph.edges.push({ from: `n${i % 998}`, to: "n1000x" });
    const faults = validateDefinition(graph).faults;
    expect(faults).toHaveLength(100_000);
    expect(new Set(faults.map((f) => f.code))).toEqual(new Set(["edge-dangling"]));
  });
});

describe("hostile ids and fields", () => {
  it("never changes Object.prototype, and treats __proto__ and friends as plain ids", () => {
    const text = `{"schemaVersion":1,"__proto__":{"polluted":true},"nodes":[
      {"id":"__proto__","kind":"trigger","trigger":{"kind":"on_demand","__proto__":{"polluted":true}}},
      {"id":"constructor","partId":"toString","partVersion":"1"},
      {"id":"toString","kind":"destination","destination":{"kind":"standalone"}}],
      "edges":[{"from":"__proto__","to":"constructor"},{"from":"constructor","to":"toString"}]}`;
    const result = validateDefinition(JSON.parse(text));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false);
    expect(result.faults.map((f) => [f.code, f.nodeId])).toEqual([
      ["part-unknown", "constructor"],
      ["unknown-field", null],
      ["unknown-field", "__proto__"],
    ]);
  });

  it("rejects ids that are not non-empty strings, naming where they are", () => {
    const faults = validateDefinition({
      schemaVersion: 1,
      nodes: [{ id: 7, kind: "gate", belowFloor: "hold" }, { id: "", kind: "gate", belowFloor: "hold" }, { id: { x: 1 }, partId: "pack", partVersion: "1" }],
      edges: ["start->end", { from: 1, to: "x" }],
    }).faults.filter((f) => f.code === "shape");
    expect(faults.map((f) => f.pointer).sort()).toEqual(["/edges/0", "/edges/1/from", "/nodes/0/id", "/nodes/1/id", "/nodes/2/id"]);
  });

  it("reads a version-save body and reports its pointers inside scope.graph", () => {
    const result = validateDefinition({ scope: { graph: { schemaVersion: 1, nodes: [{ id: "p", partId: "pak", partVersion: "1" }], edges: [] } }, trigger: { kind: "on_demand" }, destinations: [{ kind: "standalone" }] });
    expect(result.faults.map((f) => [f.code, f.pointer, f.suggestion])).toEqual([["part-unknown", "/scope/graph/nodes/0/partId", "pack"]]);
  });
});
