import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validateDefinition, type Definition, type Fault } from "@wfkit/core";
import { validGraph, shuffled, runs } from "./arbitraries.js";

const faultKey = (fault: Fault) =>
  // Which of several triggers is "the first" depends on file order by design.
  fault.code === "trigger-multiple" ? fault.code : `${fault.code}|${fault.severity}|${fault.nodeId}`;

describe("checker properties", () => {
  it("never throws, whatever the input, and always answers in the documented shape", () => {
    fc.assert(
      fc.property(fc.anything({ withObjectString: true, withNullPrototype: true, withSparseArray: true }), (input) => {
        const result = validateDefinition(input);
        expect(typeof result.ok).toBe("boolean");
        expect(Array.isArray(result.faults)).toBe(true);
        expect(Number.isInteger(result.estimate.costMinorUnits)).toBe(true);
        if (!result.ok) expect(result.faults.some((f) => f.severity === "error")).toBe(true);
      }),
      runs(300),
    );
  });

  it("never throws on definition-like JSON with random node and edge values", () => {
    const looseNode = fc.oneof(
      fc.jsonValue(),
      fc.record({ id: fc.oneof(fc.string(), fc.jsonValue()), kind: fc.oneof(fc.constantFrom("trigger", "part", "gate", "destination", "x"), fc.jsonValue()), partId: fc.constantFrom("pack", "terminal.compare", "terminal.zzz"), partVersion: fc.jsonValue(), terminal: fc.jsonValue(), trigger: fc.jsonValue(), destination: fc.jsonValue(), belowFloor: fc.jsonValue() }, { requiredKeys: [] }),
    );
    const looseEdge = fc.oneof(fc.jsonValue(), fc.record({ from: fc.oneof(fc.string(), fc.jsonValue()), to: fc.oneof(fc.string(), fc.jsonValue()) }, { requiredKeys: [] }));
    fc.assert(
      fc.property(fc.record({ schemaVersion: fc.jsonValue(), nodes: fc.array(looseNode), edges: fc.array(looseEdge) }, { requiredKeys: [] }), (input) => {
        const first = validateDefinition(input);
        expect(validateDefinition(input)).toEqual(first); // deterministic
      }),
      runs(300),
    );
  });

  it("a generated valid graph is ok, and its estimate is the independent sum of its parts", () => {
    fc.assert(
      fc.property(validGraph(), ({ definition, expectedCost, partIds }) => {
        const result = validateDefinition(definition);
        expect(result.faults).toEqual([]);
        expect(result.ok).toBe(true);
        expect(result.estimate.costMinorUnits).toBe(expectedCost);
        expect(result.estimate.parts.map((p) => p.nodeId).sort()).toEqual([...partIds].sort());
      }),
      runs(200),
    );
  });

  it("shuffling nodes and edges yields the same fault set", () => {
    const withDefects = fc.tuple(validGraph(), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), fc.nat(20), fc.nat(20));
    fc.assert(
      fc.property(withDefects, ([{ definition }, nodeKeys, edgeKeys, a, b]) => {
        // Add some structural defects so there are faults to compare.
        const ids = definition.nodes.map((n) => n.id);
        const broken: Definition = {
          ...definition,
          edges: [...definition.edges, { from: ids[a % ids.length]!, to: ids[b % ids.length]! }, { from: ids[b % ids.length]!, to: "nowhere-🛑" }],
        };
        const reordered: Definition = { ...broken, nodes: shuffled(broken.nodes, nodeKeys), edges: shuffled(broken.edges, edgeKeys) };
        const before = validateDefinition(broken).faults.map(faultKey).sort();
        const after = validateDefinition(reordered).faults.map(faultKey).sort();
        expect(after).toEqual(before);
      }),
      runs(200),
    );
  });

  type Defect = { name: string; apply: (d: Definition, target: string) => void; code: string; severity?: "warning" };
  const nodeById = (d: Definition, id: string) => d.nodes.find((n) => n.id === id)! as Record<string, any>;
  const defects: Defect[] = [
    { name: "unknown part id", code: "part-unknown", apply: (d, t) => void (nodeById(d, t).partId += "zq") },
    { name: "unknown part version", code: "part-version", apply: (d, t) => void (nodeById(d, t).partVersion = "99") },
    { name: "self edge", code: "edge-self", apply: (d, t) => void d.edges.push({ from: t, to: t }) },
    { name: "unknown field", code: "unknown-field", severity: "warning", apply: (d, t) => void (nodeById(d, t).colour = "blue") },
    { name: "dangling edge", code: "edge-dangling", apply: (d, t) => void d.edges.push({ from: t, to: "\u0000no such node\u0000" }) },
    { name: "missing version", code: "shape", apply: (d, t) => void delete nodeById(d, t).partVersion },
  ];

  it("injecting one defect into a valid graph yields exactly that fault, naming that node", () => {
    fc.assert(
      fc.property(validGraph(), fc.nat(defects.length - 1), fc.nat(), ({ definition, partIds }, which, pick) => {
        const defect = defects[which]!;
        const target = partIds[pick % partIds.length]!;
        const broken = structuredClone(definition);
        defect.apply(broken, target);
        const faults = validateDefinition(broken).faults.map(({ code, severity, nodeId }) => ({ code, severity, nodeId }));
        expect(faults).toEqual([{ code: defect.code, severity: defect.severity ?? "error", nodeId: target }]);
      }),
      runs(300),
    );
  });

  it("a gate that drops instead of holding is one gate-floor fault on the gate", () => {
    fc.assert(
      fc.property(validGraph().filter((g) => g.gateId !== undefined), ({ definition, gateId }) => {
        const broken = structuredClone(definition);
        nodeById(broken, gateId!).belowFloor = "drop";
        expect(validateDefinition(broken).faults.map((f) => [f.code, f.nodeId])).toEqual([["gate-floor", gateId]]);
      }),
      runs(50),
    );
  });
});
