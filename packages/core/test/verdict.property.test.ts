/**
 * Classes of input that once got a wrong verdict or a cascade of faults for one mistake:
 * bodies mixing the two forms, subjects pinned by name, faults that dragged others along, and
 * costs past the exact range of numbers. Each class has several inputs; every verdict is also
 * CheckSession's (the editor's path).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { CheckSession, bodyFormOf, defaultCatalogue, loadCatalogue, validateDefinition, type Catalogue } from "@wfkit/core";
import * as generated from "../src/generated/validators.js";
import type { GeneratedValidator } from "../src/schema-errors.js";
import { runs } from "./arbitraries.js";

type Json = Record<string, unknown>;

const trigger = { id: "start", kind: "trigger", trigger: { kind: "on_demand" } };
const inbox = { id: "inbox", kind: "destination", destination: { kind: "standalone" } };
const gate = (id: string) => ({ id, kind: "gate", belowFloor: "hold" });
const pack = (id: string) => ({ id, partId: "pack", partVersion: "1" });
const edge = (from: unknown, to: unknown) => ({ from, to });
const profile = (id: string, subjectRefs: unknown[]) => ({ id, partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs } });
const pinned = (canonicalId: string, extra: Json = {}) => ({ canonicalId, kind: "company", ...extra });

/** A graph whose faults are an unknown part, a dangling edge and a cycle, one each. */
const faultyGraph = {
  schemaVersion: 1,
  nodes: [trigger, { id: "x", partId: "nope", partVersion: "1" }, gate("a"), gate("b"), inbox],
  edges: [edge("start", "x"), edge("x", "a"), edge("a", "b"), edge("b", "a"), edge("b", "inbox"), edge("x", "ghost")],
};
const faultyGraphCodes = ["part-unknown", "edge-dangling", "cycle"];

/** `[code, pointer]` of every fault, asserting first that CheckSession gives the same verdict. */
function faultsOf(input: unknown, catalogue?: Catalogue): [string, string][] {
  const result = validateDefinition(input, { catalogue });
  const session = new CheckSession().check(input, catalogue);
  expect(session.faults).toEqual(result.faults);
  expect(session.ok).toBe(result.ok);
  return result.faults.map((fault) => [fault.code, fault.pointer]);
}

const codesOf = (input: unknown, catalogue?: Catalogue) => faultsOf(input, catalogue).map(([code]) => code);

describe("the body form is decided once", () => {
  it.each<[string, unknown, "definition" | "version-save-body"]>([
    ["a Definition", { schemaVersion: 1, nodes: [], edges: [] }, "definition"],
    ["a version-save body", { scope: { graph: {} } }, "version-save-body"],
    ["scope.graph beside schemaVersion", { schemaVersion: 1, scope: { graph: {} } }, "version-save-body"],
    ["scope.graph beside nodes and edges", { nodes: [], edges: [], scope: { graph: {} } }, "version-save-body"],
    ["a scope without graph, alone", { scope: {} }, "version-save-body"],
    ["a scope string, alone", { scope: "x" }, "version-save-body"],
    ["a scope without graph beside a Definition's fields", { schemaVersion: 1, nodes: [], edges: [], scope: { other: 1 } }, "definition"],
    ["a scope string beside schemaVersion", { schemaVersion: 1, scope: "x" }, "definition"],
    ["top-level trigger without scope", { trigger: { kind: "on_demand" } }, "definition"],
    ["an inherited scope", Object.create({ scope: { graph: {} } }), "definition"],
    ["an array", [], "definition"],
    ["null", null, "definition"],
  ])("%s", (_, value, form) => {
    expect(bodyFormOf(value)).toBe(form);
  });

  it.each<[string, Json]>([
    ["schemaVersion beside it", { schemaVersion: 1 }],
    ["nodes and edges beside it", { nodes: [], edges: [] }],
    ["a whole valid Definition beside it", { schemaVersion: 1, nodes: [trigger, inbox], edges: [edge("start", "inbox")] }],
    ["schemaVersion 2 beside it", { schemaVersion: 2 }],
  ])("a body with scope.graph and %s: the graph in scope.graph is judged, and the extra fields are one body-mixed fault", (_, extra) => {
    const body = { ...extra, scope: { graph: faultyGraph } };
    const codes = codesOf(body);
    expect(codes.filter((code) => code === "body-mixed")).toHaveLength(1);
    expect(codes.filter((code) => code !== "body-mixed").sort()).toEqual([...faultyGraphCodes].sort());
    const mixed = validateDefinition(body).faults.find((fault) => fault.code === "body-mixed")!;
    expect(mixed.pointer).toBe(`/${Object.keys(extra)[0]}`);
    for (const field of Object.keys(extra)) expect(mixed.message).toContain(`\`${field}\``);
  });

  it.each<[string, unknown]>([["a string", "x"], ["an empty object", {}], ["an object without graph", { other: 1 }], ["null", null], ["an array", []]])(
    "a valid Definition with an extra scope that is %s gets one fault for it",
    (_, scope) => {
      const definition = { schemaVersion: 1, nodes: [trigger, inbox], edges: [edge("start", "inbox")], scope };
      expect(faultsOf(definition)).toEqual([["unknown-field", "/scope"]]);
      expect(validateDefinition(definition).ok).toBe(true);
    },
  );

  it("the published schema's own choice of form agrees with bodyFormOf", () => {
    const whole = generated.validateDefinitionDocument as unknown as GeneratedValidator;
    const definitionForm = generated.validateDefinitionForm as unknown as GeneratedValidator;
    const bodyForm = generated.validateVersionSaveBodyForm as unknown as GeneratedValidator;
    const value = fc.oneof(fc.constantFrom<unknown>(1, "x", null, [], {}, { graph: {} }, { graph: { schemaVersion: 1, nodes: [], edges: [] } }), fc.jsonValue({ maxDepth: 1 }));
    const body = fc.dictionary(fc.constantFrom("schemaVersion", "nodes", "edges", "scope", "trigger", "destinations"), value, { maxKeys: 6 });
    fc.assert(
      fc.property(body, (input) => {
        const chosen = bodyFormOf(input) === "version-save-body" ? bodyForm : definitionForm;
        expect(whole(input)).toBe(chosen(input));
      }),
      runs(300),
    );
  });
});

describe("a subject pinned by a name is not pinned", () => {
  it.each<[string, unknown[], [string, string][]]>([
    ["a label", [pinned("Tesco PLC")], [["/nodes/1/terminal/subjectRefs/0/canonicalId", "cmp_tesco"]]],
    ["a ticker", [pinned("TSCO.L")], [["/nodes/1/terminal/subjectRefs/0/canonicalId", "cmp_tesco"]]],
    ["a label in other case and spacing", [pinned(" tesco plc ")], [["/nodes/1/terminal/subjectRefs/0/canonicalId", "cmp_tesco"]]],
    ["a canonical id in other case", [pinned("CMP_WMT")], [["/nodes/1/terminal/subjectRefs/0/canonicalId", "cmp_wmt"]]],
    ["the second of two, beside a well pinned one", [pinned("cmp_sbry"), pinned("WMT", { label: "Walmart" })], [["/nodes/1/terminal/subjectRefs/1/canonicalId", "cmp_wmt"]]],
    // Not clean (an unknown field), so the rule's careful path: the name is still caught.
    ["on a node with an unknown field", [pinned("Ocado Group plc", { note: "x" })], [["/nodes/1/terminal/subjectRefs/0/canonicalId", "cmp_ocdo"]]],
  ])("%s", (_, refs, expected) => {
    const definition = { schemaVersion: 1, nodes: [trigger, profile("p", refs), inbox], edges: [edge("start", "p"), edge("p", "inbox")] };
    const result = validateDefinition(definition);
    const found = result.faults.filter((fault) => fault.code === "subject-not-canonical");
    expect(found.map((fault) => [fault.pointer, fault.suggestion])).toEqual(expected);
    expect(result.ok).toBe(false);
    // Only over-long quotes are shortened, never the prose between two quotes.
    for (const fault of found) expect(fault.message).not.toContain("…");
    faultsOf(definition);
  });

  it("a very long name is shortened in the message, and kept whole in the suggestion", () => {
    const catalogue: Catalogue = { ...defaultCatalogue, subjects: [{ canonicalId: "cmp_long", kind: "company", label: `Long ${"x".repeat(300)}` }] };
    const definition = { schemaVersion: 1, nodes: [trigger, profile("p", [pinned(`long ${"X".repeat(300)}`)]), inbox], edges: [edge("start", "p"), edge("p", "inbox")] };
    const [fault] = validateDefinition(definition, { catalogue }).faults;
    expect(fault).toMatchObject({ code: "subject-not-canonical", suggestion: "cmp_long" });
    expect(fault!.message).toContain("…");
    expect(fault!.message).toContain("not a canonical id. Terminal parts run against canonical subjects, not names: use `cmp_long`.");
  });

  it.each<[string, unknown[]]>([
    ["canonical ids of the table", [pinned("cmp_tesco"), pinned("cmp_ocdo")]],
    ["a label used as a label", [pinned("cmp_tesco", { label: "Tesco PLC" })]],
  ])("%s pass", (_, refs) => {
    const definition = { schemaVersion: 1, nodes: [trigger, profile("p", refs), inbox], edges: [edge("start", "p"), edge("p", "inbox")] };
    expect(faultsOf(definition)).toEqual([]);
  });

  it("a canonical id the table does not know is a warning (subject-unknown), not a name: the service's table may be newer", () => {
    const definition = { schemaVersion: 1, nodes: [trigger, profile("p", [pinned("cmp_unlisted")]), inbox], edges: [edge("start", "p"), edge("p", "inbox")] };
    expect(faultsOf(definition)).toEqual([["subject-unknown", "/nodes/1/terminal/subjectRefs/0/canonicalId"]]);
    const result = validateDefinition(definition);
    expect(result.ok).toBe(true);
    expect(result.faults[0]).toMatchObject({ severity: "warning", nodeId: "p" });
    expect(result.faults[0]!.message).toContain("`cmp_unlisted`, which the catalogue's subject table does not hold");
  });

  it("a catalogue without a subject table judges no canonical id", () => {
    const catalogue: Catalogue = { ...defaultCatalogue, subjects: undefined };
    const definition = { schemaVersion: 1, nodes: [trigger, profile("p", [pinned("Tesco PLC")]), inbox], edges: [edge("start", "p"), edge("p", "inbox")] };
    expect(faultsOf(definition, catalogue)).toEqual([]);
  });
});

describe("one mistake, one fault", () => {
  const nodes = [trigger, gate("g"), inbox];
  const wired = [edge("start", "g"), edge("g", "inbox")];
  it.each<[string, unknown, [string, string][]]>([
    ["nodes an object", { schemaVersion: 1, nodes: { a: 1 }, edges: wired }, [["shape", "/nodes"]]],
    ["nodes null", { schemaVersion: 1, nodes: null, edges: wired }, [["shape", "/nodes"]]],
    ["nodes missing", { schemaVersion: 1, edges: wired }, [["shape", ""]]],
    ["edges an object", { schemaVersion: 1, nodes, edges: { a: 1 } }, [["shape", "/edges"]]],
    ["edges missing", { schemaVersion: 1, nodes }, [["shape", ""]]],
    ["scope.graph not an object", { scope: { graph: 5 } }, [["shape", "/scope/graph"]]],
    ["a node id written as a number", { schemaVersion: 1, nodes: [trigger, { ...gate("g"), id: 5 }, inbox], edges: [edge("start", "5"), edge("5", "inbox")] }, [["shape", "/nodes/1/id"]]],
    ["edge ends written as numbers", { schemaVersion: 1, nodes: [trigger, gate("7"), inbox], edges: [edge("start", 7), edge(7, "inbox")] }, [["shape", "/edges/0/to"], ["shape", "/edges/1/from"]]],
    ["a node without id", { schemaVersion: 1, nodes: [trigger, { kind: "gate", belowFloor: "hold" }, inbox], edges: [edge("start", "inbox")] }, [["shape", "/nodes/1"]]],
    ["an empty node id", { schemaVersion: 1, nodes: [trigger, { ...gate("g"), id: "" }, inbox], edges: [edge("start", ""), edge("", "inbox")] }, [["shape", "/nodes/1/id"]]],
    ["a trigger without id", { schemaVersion: 1, nodes: [{ kind: "trigger", trigger: { kind: "on_demand" } }, gate("g"), inbox], edges: [edge("g", "inbox")] }, [["shape", "/nodes/0"]]],
    ["a destination without id", { schemaVersion: 1, nodes: [trigger, gate("g"), { kind: "destination", destination: { kind: "standalone" } }], edges: [edge("start", "g")] }, [["shape", "/nodes/2"]]],
    ["a node that is not an object", { schemaVersion: 1, nodes: [trigger, 5, gate("g"), inbox], edges: wired }, [["shape", "/nodes/1"]]],
    ["an edge that is not an object", { schemaVersion: 1, nodes, edges: [edge("start", "g"), 7, edge("g", "inbox")] }, [["shape", "/edges/1"]]],
    ["an edge end missing", { schemaVersion: 1, nodes, edges: [{ from: "start" }, edge("g", "inbox")] }, [["shape", "/edges/0"]]],
    ["a misspelt trigger kind", { schemaVersion: 1, nodes: [{ ...trigger, kind: "triger" }, gate("g"), inbox], edges: wired }, [["node-kind", "/nodes/0/kind"]]],
    ["a trigger with a wrong kind but its trigger field", { schemaVersion: 1, nodes: [{ ...trigger, kind: "start" }, gate("g"), inbox], edges: wired }, [["node-kind", "/nodes/0/kind"]]],
    ["a misspelt destination kind", { schemaVersion: 1, nodes: [trigger, gate("g"), { ...inbox, kind: "destinaton" }], edges: wired }, [["node-kind", "/nodes/2/kind"]]],
    [
      "an edge out of a destination to a gate fed by nothing else",
      { schemaVersion: 1, nodes: [trigger, inbox, gate("g"), { ...inbox, id: "archive" }], edges: [edge("start", "inbox"), edge("inbox", "g"), edge("g", "archive")] },
      [["edge-from-destination", "/edges/1/from"]],
    ],
    [
      "an edge out of a destination to a chain of parts",
      { schemaVersion: 1, nodes: [trigger, gate("g"), inbox, pack("p"), pack("q"), { ...inbox, id: "archive" }], edges: [edge("start", "g"), edge("g", "inbox"), edge("inbox", "p"), edge("p", "q"), edge("q", "archive")] },
      [["edge-from-destination", "/edges/2/from"], ["edge-incompatible", "/edges/3"]],
    ],
  ])("%s", (_, input, expected) => {
    expect(faultsOf(input)).toEqual(expected);
  });

  it("a gate with no trigger before it at all is still unreachable", () => {
    const input = { schemaVersion: 1, nodes: [trigger, gate("g"), inbox, { ...inbox, id: "archive" }], edges: [edge("start", "inbox"), edge("g", "archive")] };
    expect(codesOf(input)).toEqual(["unreachable"]);
  });
});

describe("estimates are exact or refused", () => {
  const catalogue = (base: number, perSubject?: number): Catalogue => {
    const loaded = loadCatalogue({
      catalogueVersion: 1,
      parts: [{ partId: "terminal.x", versions: ["1"], requires: [], produces: ["r"], unattendedSafe: true, terminal: { jobs: [{ id: "j", version: "1" }] }, cost: { baseMinorUnits: base, perSubjectMinorUnits: perSubject } }],
    });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    return loaded.catalogue;
  };
  const part = (id: string, subjects: number) => ({ id, partId: "terminal.x", partVersion: "1", terminal: { job: { id: "j", version: "1" }, subjectRefs: Array.from({ length: subjects }, (_, i) => pinned(`c${i}`)) } });
  const graph = (parts: Json[]) => ({ schemaVersion: 1, nodes: [trigger, ...parts, inbox], edges: [...parts.map((p) => edge("start", p.id)), ...parts.map((p) => edge(p.id, "inbox"))] });

  it.each<[string, Catalogue, Json[], string | undefined, number]>([
    ["one part just below 2^53", catalogue(2 ** 53 - 2, 1), [part("a", 1)], undefined, 2 ** 53 - 1],
    ["a per-subject cost times the subjects past 2^53", catalogue(0, 2 ** 52), [part("a", 2)], "/nodes/1", 0],
    ["base plus per-subject past 2^53", catalogue(2 ** 52, 2 ** 52), [part("a", 1)], "/nodes/1", 0],
    ["a sum of exact parts past 2^53", catalogue(2 ** 52 + 1), [part("a", 1), part("b", 1)], "/nodes/2", 0],
    ["a sum of many parts past 2^53", catalogue(2 ** 50), Array.from({ length: 9 }, (_, i) => part(`p${i}`, 1)), "/nodes/8", 0],
  ])("%s", (_, cat, parts, overflowAt, total) => {
    const input = graph(parts);
    const result = validateDefinition(input, { catalogue: cat });
    const faults = faultsOf(input, cat).filter(([code]) => code !== "subjects-too-few");
    expect(faults).toEqual(overflowAt === undefined ? [] : [["estimate-too-large", overflowAt]]);
    expect(result.estimate.costMinorUnits).toBe(total);
    expect(Number.isSafeInteger(result.estimate.costMinorUnits)).toBe(true);
    for (const row of result.estimate.parts) expect(Number.isSafeInteger(row.costMinorUnits)).toBe(true);
  });

  it("any estimate given is the exact sum of its rows", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: 2 ** 53 - 1 }), fc.nat({ max: 2 ** 53 - 1 }), fc.nat({ max: 4 })), { minLength: 1, maxLength: 4 }), (specs) => {
        const cat: Catalogue = {
          catalogueVersion: 1,
          parts: specs.map(([base, perSubject], i) => ({ partId: `terminal.p${i}`, versions: ["1"], requires: [], produces: ["r"], unattendedSafe: true, terminal: { jobs: [{ id: "j", version: "1" }] }, cost: { baseMinorUnits: base, perSubjectMinorUnits: perSubject } })),
        };
        const parts = specs.map(([, , subjects], i) => ({ ...part(`n${i}`, subjects), partId: `terminal.p${i}` }));
        const result = validateDefinition(graph(parts), { catalogue: cat });
        const exact = specs.reduce((sum, [base, perSubject, subjects]) => sum + BigInt(base) + BigInt(perSubject) * BigInt(subjects), 0n);
        const refused = result.faults.some((fault) => fault.code === "estimate-too-large");
        expect(refused).toBe(exact > BigInt(Number.MAX_SAFE_INTEGER));
        if (!refused) expect(BigInt(result.estimate.costMinorUnits)).toBe(exact);
      }),
      runs(200),
    );
  });
});
