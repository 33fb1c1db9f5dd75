// Inputs that once got a wrong verdict from the BUILT CLI, run as a child process: bodies that
// mix the Definition and the version-save body, subjects pinned by a name or ticker, one
// mistake reported as many faults, and costs past the exact range of numbers. Several inputs
// per class, in .json and .wf.
import { beforeAll, describe, expect, it } from "vitest";
import { checkFile, ensureBuilt, runCli, tempDir } from "./support.js";

beforeAll(() => ensureBuilt());

type Json = Record<string, unknown>;
const trigger = { id: "start", kind: "trigger", trigger: { kind: "on_demand" } };
const inbox = { id: "inbox", kind: "destination", destination: { kind: "standalone" } };
const gate = (id: string) => ({ id, kind: "gate", belowFloor: "hold" });
const edge = (from: unknown, to: unknown) => ({ from, to });
const profile = (id: string, subjectRefs: unknown[]) => ({ id, partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs } });

/** An unknown part, a cycle and a dangling edge: three faults in any graph that holds it. */
const faultyGraph = {
  schemaVersion: 1,
  nodes: [trigger, { id: "x", partId: "nope", partVersion: "1" }, gate("a"), gate("b"), inbox],
  edges: [edge("start", "x"), edge("x", "a"), edge("a", "b"), edge("b", "a"), edge("b", "inbox"), edge("x", "ghost")],
};

/** `wfkit check` on one file: its exit status and fault codes, sorted. */
function check(name: string, content: string, extraArgs: string[] = [], files: Record<string, string> = {}) {
  const dir = tempDir({ [name]: content, ...files });
  const run = checkFile(dir, name, extraArgs);
  return { status: run.status, codes: run.faults.map((fault) => fault.code).sort(), faults: run.faults };
}

describe("a body is judged as one form, and nothing in it escapes the rules", () => {
  const mixed: [string, Json][] = [
    ["schemaVersion beside scope.graph", { schemaVersion: 1, scope: { graph: faultyGraph } }],
    ["nodes and edges beside scope.graph", { nodes: [], edges: [], scope: { graph: faultyGraph } }],
    ["a whole Definition beside scope.graph", { schemaVersion: 1, nodes: [trigger, inbox], edges: [edge("start", "inbox")], scope: { graph: faultyGraph } }],
    ["schemaVersion, nodes and edges beside scope.graph, and top-level destinations", { schemaVersion: 1, nodes: [], edges: [], destinations: [{ kind: "standalone" }], scope: { graph: faultyGraph } }],
  ];
  it.each(mixed)("%s: exit 1, body-mixed once, and the graph in scope.graph judged", (_, body) => {
    const run = check("mixed.json", JSON.stringify(body, null, 2));
    expect(run.status).toBe(1);
    expect(run.codes).toEqual(["body-mixed", "cycle", "edge-dangling", "part-unknown"]);
  });

  it("a .wf version block whose `with` adds schemaVersion to the body is body-mixed, placed on that field", () => {
    const text = ['workflow "w"', "version {", "  destination standalone", '  with { "schemaVersion": 1 }', "}", "trigger start on_demand", "gate g hold", "start -> g", ""].join("\n");
    const run = check("mixed.wf", text);
    expect(run.status).toBe(1);
    expect(run.codes).toEqual(["body-mixed"]);
    expect(run.faults[0]!.range.start.line).toBe(4);
  });

  it.each<[string, unknown]>([["a string", "x"], ["an empty object", {}], ["an object without graph", { note: 1 }], ["null", null]])(
    "a valid Definition with an extra scope that is %s: one warning, exit 0",
    (_, scope) => {
      const run = check("extra.json", JSON.stringify({ schemaVersion: 1, nodes: [trigger, inbox], edges: [edge("start", "inbox")], scope }, null, 2));
      expect(run.status).toBe(0);
      expect(run.codes).toEqual(["unknown-field"]);
    },
  );
});

describe("terminal parts run against canonical subjects, not names", () => {
  const definition = (refs: unknown[]) =>
    JSON.stringify({ schemaVersion: 1, nodes: [trigger, profile("p", refs), inbox], edges: [edge("start", "p"), edge("p", "inbox")] }, null, 2);
  it.each<[string, unknown[], string]>([
    ["a label as canonicalId", [{ canonicalId: "Tesco PLC", kind: "company" }], "cmp_tesco"],
    ["a ticker as canonicalId", [{ canonicalId: "TSCO.L", kind: "company" }], "cmp_tesco"],
    ["another company's ticker, with a label", [{ canonicalId: "WMT", kind: "company", label: "Walmart Inc." }], "cmp_wmt"],
    ["a canonical id in capitals", [{ canonicalId: "CMP_SBRY", kind: "company" }], "cmp_sbry"],
  ])("%s: exit 1, subject-not-canonical on the canonicalId, suggesting %s", (_, refs, canonical) => {
    const run = check("names.json", definition(refs));
    expect(run.status).toBe(1);
    expect(run.codes).toEqual(["subject-not-canonical"]);
    expect(run.faults[0]).toMatchObject({ suggestion: canonical });
    expect(run.faults[0]!.message).toContain(`\`${canonical}\``);
  });

  it("canonical ids of the table pass", () => {
    expect(check("pinned.json", definition([{ canonicalId: "cmp_tesco", kind: "company" }, { canonicalId: "cmp_ocdo", kind: "company" }])).status).toBe(0);
  });

  it("a .wf subject declared with a name as its canonical id is reported where the name is written", () => {
    const text = ['subject tesco = company "TSCO.L" "Tesco PLC"', "trigger start on_demand", "part p = terminal.profile@1 { job profile.company@1 subjects [tesco] }", "destination inbox standalone", "start -> p -> inbox", ""].join("\n");
    const run = check("names.wf", text);
    expect(run.status).toBe(1);
    expect(run.codes).toEqual(["subject-not-canonical"]);
    expect(run.faults[0]!.range.start).toEqual({ line: 1, column: 25 });
  });
});

describe("one mistake, one fault", () => {
  const nodes = [trigger, gate("g"), inbox];
  const wired = [edge("start", "g"), edge("g", "inbox")];
  it.each<[string, Json, string[]]>([
    ["nodes an object", { schemaVersion: 1, nodes: { a: 1 }, edges: wired }, ["shape"]],
    ["nodes missing", { schemaVersion: 1, edges: wired }, ["shape"]],
    ["edges an object", { schemaVersion: 1, nodes, edges: { a: 1 } }, ["shape"]],
    ["a node id written as a number", { schemaVersion: 1, nodes: [trigger, { ...gate("g"), id: 5 }, inbox], edges: [edge("start", "5"), edge("5", "inbox")] }, ["shape"]],
    ["a node without id", { schemaVersion: 1, nodes: [trigger, { kind: "gate", belowFloor: "hold" }, inbox], edges: [edge("start", "inbox")] }, ["shape"]],
    ["a trigger without id", { schemaVersion: 1, nodes: [{ kind: "trigger", trigger: { kind: "on_demand" } }, gate("g"), inbox], edges: [edge("g", "inbox")] }, ["shape"]],
    ["an edge that is not an object", { schemaVersion: 1, nodes, edges: [edge("start", "g"), 7, edge("g", "inbox")] }, ["shape"]],
    ["a misspelt trigger kind", { schemaVersion: 1, nodes: [{ ...trigger, kind: "triger" }, gate("g"), inbox], edges: wired }, ["node-kind"]],
    ["a misspelt destination kind", { schemaVersion: 1, nodes: [trigger, gate("g"), { ...inbox, kind: "destinaton" }], edges: wired }, ["node-kind"]],
    [
      "an edge out of a destination to a gate fed by nothing else",
      { schemaVersion: 1, nodes: [trigger, inbox, gate("g"), { ...inbox, id: "archive" }], edges: [edge("start", "inbox"), edge("inbox", "g"), edge("g", "archive")] },
      ["edge-from-destination"],
    ],
  ])("%s: exit 1 with %j", (_, definition, codes) => {
    const run = check("one.json", JSON.stringify(definition, null, 2));
    expect(run.status).toBe(1);
    expect(run.codes).toEqual(codes);
  });

  it("a .wf edge out of a destination: one fault", () => {
    const text = ["trigger start on_demand", "destination inbox standalone", "gate g hold", "destination archive standalone", "start -> inbox -> g -> archive", ""].join("\n");
    const run = check("one.wf", text);
    expect(run.status).toBe(1);
    expect(run.codes).toEqual(["edge-from-destination"]);
  });
});

describe("costs and estimates stay exact", () => {
  const catalogue = (base: number, perSubject = 0) =>
    JSON.stringify({
      catalogueVersion: 1,
      parts: [{ partId: "terminal.x", versions: ["1"], requires: [], produces: [], unattendedSafe: true, terminal: { jobs: [{ id: "j", version: "1" }] }, cost: { baseMinorUnits: base, perSubjectMinorUnits: perSubject } }],
    });
  const part = (id: string, subjects: number) => ({ id, partId: "terminal.x", partVersion: "1", terminal: { job: { id: "j", version: "1" }, subjectRefs: Array.from({ length: subjects }, (_, i) => ({ canonicalId: `c${i}`, kind: "company" })) } });
  const graph = (parts: Json[]) => JSON.stringify({ schemaVersion: 1, nodes: [trigger, ...parts, inbox], edges: [...parts.map((p) => edge("start", p.id)), ...parts.map((p) => edge(p.id, "inbox"))] });

  it.each<[string, string]>([
    ["1e308", catalogue(0).replace('"baseMinorUnits":0', '"baseMinorUnits":1e308')],
    ["2^53 written out", catalogue(0).replace('"baseMinorUnits":0', '"baseMinorUnits":9007199254740992')],
    ["2^53 + 1 written out (parsed as 2^53)", catalogue(0).replace('"baseMinorUnits":0', '"baseMinorUnits":9007199254740993')],
    ["a per-subject cost of 1e20", catalogue(1).replace('"perSubjectMinorUnits":0', '"perSubjectMinorUnits":1e20')],
  ])("a catalogue cost of %s is refused: exit 2, one line naming the field", (_, text) => {
    const dir = tempDir({ "catalogue.json": text, "flow.json": graph([part("a", 1)]) });
    const run = runCli(["check", "flow.json", "--catalogue", "catalogue.json"], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    // The place is given as line:column (a catalogue's problems never quote the file), and the message names the field.
    expect(run.stderr).toMatch(/catalogue\.json:1:\d+: not a valid catalogue: `(baseMinorUnits|perSubjectMinorUnits)` of part `/);
    expect(run.stderr).not.toMatch(/\n\s+at |internal error/);
  });

  it.each<[string, string, Json[], string]>([
    ["a sum of two exact parts past 2^53", catalogue(2 ** 52 + 1), [part("a", 1), part("b", 1)], "b"],
    ["one part's per-subject cost times its subjects past 2^53", catalogue(0, 2 ** 52), [part("a", 2)], "a"],
    // The eighth brings the total to 2^53, the first integer past the exact range.
    ["nine parts of 2^50", catalogue(2 ** 50), Array.from({ length: 9 }, (_, i) => part(`p${i}`, 1)), "p7"],
  ])("%s: exit 1, estimate-too-large, and no estimate printed", (_, cat, parts, nodeId) => {
    const dir = tempDir({ "catalogue.json": cat, "flow.json": graph(parts) });
    const run = checkFile(dir, "flow.json", ["--catalogue", "catalogue.json"]);
    expect(run.status).toBe(1);
    expect(run.faults.filter((fault) => fault.code === "estimate-too-large")).toEqual([expect.objectContaining({ nodeId })]);
    expect(run.stdout).not.toMatch(/"estimate"/);
    const estimate = runCli(["estimate", "flow.json", "--catalogue", "catalogue.json", "--format", "json"], { cwd: dir });
    expect(estimate.status).toBe(1);
    expect(estimate.stdout).not.toMatch(/costMinorUnits/);
  });

  it("an estimate just below 2^53 is printed exactly", () => {
    const dir = tempDir({ "catalogue.json": catalogue(2 ** 53 - 2, 1), "flow.json": graph([part("a", 1)]) });
    const run = runCli(["estimate", "flow.json", "--catalogue", "catalogue.json", "--format", "json"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('"costMinorUnits": 9007199254740991');
  });
});
