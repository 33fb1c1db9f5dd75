import { describe, expect, it } from "vitest";
import { defaultCatalogue, loadCatalogue, validateDefinition, type Catalogue } from "@wfkit/core";

describe("catalogue", () => {
  it("the embedded sample catalogue is itself valid", () => {
    expect(loadCatalogue(defaultCatalogue)).toEqual({ ok: true, catalogue: defaultCatalogue });
  });

  it.each([
    ["not an object", 42, ""],
    ["wrong version", { ...defaultCatalogue, catalogueVersion: 2 }, "/catalogueVersion"],
    ["part without versions", { catalogueVersion: 1, parts: [{ partId: "pack", requires: [], produces: [], unattendedSafe: true, cost: { baseMinorUnits: 1 } }] }, "/parts/0"],
    ["negative cost", { catalogueVersion: 1, parts: [{ partId: "pack", versions: ["1"], requires: [], produces: [], unattendedSafe: true, cost: { baseMinorUnits: -1 } }] }, "/parts/0/cost/baseMinorUnits"],
    ["requires not strings", { catalogueVersion: 1, parts: [{ partId: "pack", versions: ["1"], requires: [1], produces: [], unattendedSafe: true, cost: { baseMinorUnits: 1 } }] }, "/parts/0/requires/0"],
    ["terminal part without jobs", { catalogueVersion: 1, parts: [{ partId: "terminal.x", versions: ["1"], requires: [], produces: [], unattendedSafe: true, cost: { baseMinorUnits: 1 } }] }, "/parts/0"],
    ["jobs on a non-terminal part", { catalogueVersion: 1, parts: [{ partId: "pack", versions: ["1"], requires: [], produces: [], unattendedSafe: true, terminal: { jobs: [] }, cost: { baseMinorUnits: 1 } }] }, "/parts/0/terminal"],
    ["a part listed twice", { catalogueVersion: 1, parts: [defaultCatalogue.parts[4], defaultCatalogue.parts[4]] }, "/parts/1/partId"],
    ["a cost of 1e308", { catalogueVersion: 1, parts: [{ partId: "pack", versions: ["1"], requires: [], produces: [], unattendedSafe: true, cost: { baseMinorUnits: 1e308 } }] }, "/parts/0/cost/baseMinorUnits"],
    ["a cost of 2^53", { catalogueVersion: 1, parts: [{ partId: "pack", versions: ["1"], requires: [], produces: [], unattendedSafe: true, cost: { baseMinorUnits: 2 ** 53 } }] }, "/parts/0/cost/baseMinorUnits"],
    ["a per-subject cost past 2^53", { catalogueVersion: 1, parts: [{ partId: "pack", versions: ["1"], requires: [], produces: [], unattendedSafe: true, cost: { baseMinorUnits: 1, perSubjectMinorUnits: 2 ** 60 } }] }, "/parts/0/cost/perSubjectMinorUnits"],
  ])("rejects a catalogue with %s, pointing at the mistake", (_, value, pointer) => {
    const result = loadCatalogue(value);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems.map((p) => p.pointer)).toContain(pointer);
      for (const problem of result.problems) expect(problem.message).toMatch(/\w{3,}/);
    }
  });

  it("accepts costs up to 2^53 - 1, the largest safe integer", () => {
    const part = { partId: "pack", versions: ["1"], requires: [], produces: [], unattendedSafe: true, cost: { baseMinorUnits: Number.MAX_SAFE_INTEGER, perSubjectMinorUnits: Number.MAX_SAFE_INTEGER } };
    expect(loadCatalogue({ catalogueVersion: 1, parts: [part] }).ok).toBe(true);
  });

  it("drives the checker: requires/produces cycles in naming are just names", () => {
    const catalogue: Catalogue = {
      catalogueVersion: 1,
      parts: [
        { partId: "a", versions: ["1"], requires: ["b.out"], produces: ["a.out"], unattendedSafe: true, cost: { baseMinorUnits: 1 } },
        { partId: "b", versions: ["1"], requires: ["a.out"], produces: ["b.out"], unattendedSafe: true, cost: { baseMinorUnits: 2 } },
      ],
      nodeKinds: { trigger: { produces: ["a.out", "b.out"] }, destination: { requires: ["b.out"] } },
    };
    const graph = {
      schemaVersion: 1,
      nodes: [
        { id: "t", kind: "trigger", trigger: { kind: "on_demand" } },
        { id: "x", partId: "a", partVersion: "1" },
        { id: "y", partId: "b", partVersion: "1" },
        { id: "d", kind: "destination", destination: { kind: "standalone" } },
      ],
      edges: [{ from: "t", to: "x" }, { from: "x", to: "y" }, { from: "y", to: "d" }],
    };
    // t offers b.out to x (part a); x offers a.out to y (part b); y offers b.out to d.
    const result = validateDefinition(graph, { catalogue });
    expect(result.faults).toEqual([]);
    expect(result.estimate.costMinorUnits).toBe(3);
    // A destination needing what nothing upstream produces is caught on the edge into it.
    const stricter = { ...catalogue, nodeKinds: { ...catalogue.nodeKinds, destination: { requires: ["c.out"] } } };
    expect(validateDefinition(graph, { catalogue: stricter }).faults.map((f) => [f.code, f.nodeId, f.edge])).toEqual([["edge-incompatible", "d", 2]]);
  });
});

describe("did-you-mean", () => {
  it.each([
    ["pak", "pack"],
    ["terminal.compar", "terminal.compare"],
    ["Terminal.Compare", "terminal.compare"],
    ["terminal.profiel", "terminal.profile"],
    ["ui", undefined],
    ["xyz", undefined],
    ["totally.different", undefined],
  ])("suggests for part id %s: %s", (partId, expected) => {
    const faults = validateDefinition({
      schemaVersion: 1,
      nodes: [{ id: "t", kind: "trigger", trigger: { kind: "on_demand" } }, { id: "p", partId, partVersion: "1" }, { id: "d", kind: "destination", destination: { kind: "standalone" } }],
      edges: [{ from: "t", to: "p" }, { from: "p", to: "d" }],
    }).faults.filter((f) => f.code === "part-unknown");
    expect(faults.map((f) => [f.nodeId, f.suggestion])).toEqual([["p", expected]]);
  });
});
