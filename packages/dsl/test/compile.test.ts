import { describe, expect, it } from "vitest";
import { compile } from "@wfkit/dsl";

function definitionOf(text: string): unknown {
  const result = compile(text);
  expect(result.faults).toEqual([]);
  return result.definition;
}

function codes(text: string): string[] {
  return compile(text).faults.map((diagnostic) => `${diagnostic.code} ${text.slice(diagnostic.span.start, diagnostic.span.end)}`);
}

describe("compiling", () => {
  it("turns the sketch into the Definition the service takes", () => {
    const text = [
      "# Compare two grocers; hold weak results for review.",
      'workflow "grocer-compare"',
      'subject tesco = company "cmp_tesco" "Tesco PLC"',
      'subject sainsbury = company "cmp_sbry" "J Sainsbury plc" identifiers []',
      "trigger start on_demand",
      "part compare = terminal.compare@1 { job compare.peers@1  subjects [tesco, sainsbury] }",
      "part report  = pack@1",
      "gate floor hold",
      "destination inbox standalone",
      "start -> compare -> report -> floor -> inbox",
    ].join("\n");
    const result = compile(text);
    expect(result.workflowName).toBe("grocer-compare");
    expect(result.definition).toEqual({
      schemaVersion: 1,
      nodes: [
        { id: "start", kind: "trigger", trigger: { kind: "on_demand" } },
        {
          id: "compare",
          partId: "terminal.compare",
          partVersion: "1",
          terminal: {
            job: { id: "compare.peers", version: "1" },
            subjectRefs: [
              { canonicalId: "cmp_tesco", kind: "company", label: "Tesco PLC" },
              { canonicalId: "cmp_sbry", kind: "company", label: "J Sainsbury plc", identifiers: [] },
            ],
          },
        },
        { id: "report", partId: "pack", partVersion: "1" },
        { id: "floor", kind: "gate", belowFloor: "hold" },
        { id: "inbox", kind: "destination", destination: { kind: "standalone" } },
      ],
      edges: [
        { from: "start", to: "compare" },
        { from: "compare", to: "report" },
        { from: "report", to: "floor" },
        { from: "floor", to: "inbox" },
      ],
    });
  });

  it("writes scheduled triggers with their fields, and leaves out what is not written", () => {
    expect(definitionOf('trigger t scheduled { schedule "0 6 * * 1" timezone "Europe/London" }\ngate g\npart p\npart q = pack\n')).toEqual({
      schemaVersion: 1,
      nodes: [
        { id: "t", kind: "trigger", trigger: { kind: "scheduled", schedule: "0 6 * * 1", timezone: "Europe/London" } },
        { id: "g", kind: "gate" },
        { id: "p" },
        { id: "q", partId: "pack" },
      ],
      edges: [],
    });
  });

  it("expands groups row by row: every name before an arrow to every name after it", () => {
    const text = "part a\npart b\npart c\npart d\npart e\na, b -> c, d -> e\n";
    expect((definitionOf(text) as { edges: unknown[] }).edges).toEqual([
      { from: "a", to: "c" },
      { from: "a", to: "d" },
      { from: "b", to: "c" },
      { from: "b", to: "d" },
      { from: "c", to: "e" },
      { from: "d", to: "e" },
    ]);
  });

  it("merges `with` fields into the object before them, at every level, and keeps -0 and __proto__", () => {
    const text = [
      'workflow with {"owner": "ops"}',
      'subject s = company "c" with {"region": "UK"}',
      'trigger t on_demand { with {"retries": 2} } with {"ui": {"x": 1}}',
      'part p = terminal.compare@1 { job j@1 with {"q": true} subjects [s] with {"budget": -0} } with {"kind": "part", "__proto__": null}',
      'destination d standalone { with {"label": "Inbox"} }',
      't -> p -> d with {"w": 1}',
    ].join("\n");
    const definition = definitionOf(text) as { nodes: Record<string, unknown>[]; edges: unknown[] } & Record<string, unknown>;
    expect(definition["owner"]).toBe("ops");
    expect(definition.nodes[0]).toEqual({ id: "t", kind: "trigger", trigger: { kind: "on_demand", retries: 2 }, ui: { x: 1 } });
    const part = definition.nodes[1]!;
    expect(part["kind"]).toBe("part");
    expect(Object.prototype.hasOwnProperty.call(part, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(part)).toBe(Object.prototype);
    const terminal = part["terminal"] as Record<string, unknown>;
    expect(Object.is(terminal["budget"], -0)).toBe(true);
    expect(terminal["job"]).toEqual({ id: "j", version: "1", q: true });
    expect(terminal["subjectRefs"]).toEqual([{ canonicalId: "c", kind: "company", region: "UK" }]);
    expect(definition.nodes[2]).toEqual({ id: "d", kind: "destination", destination: { kind: "standalone", label: "Inbox" } });
    expect(definition.edges).toEqual([
      { from: "t", to: "p", w: 1 },
      { from: "p", to: "d", w: 1 },
    ]);
  });

  it("writes a version-save body when there is a `version` block", () => {
    const text = 'version {\n  trigger scheduled { schedule "0 7 * * 1" }\n  destination standalone\n  scope with {"s": 1}\n  with {"b": 2}\n}\npart p = pack@1\n';
    expect(definitionOf(text)).toEqual({
      scope: { graph: { schemaVersion: 1, nodes: [{ id: "p", partId: "pack", partVersion: "1" }], edges: [] }, s: 1 },
      trigger: { kind: "scheduled", schedule: "0 7 * * 1" },
      destinations: [{ kind: "standalone" }],
      b: 2,
    });
  });

  it("keeps JSON nodes, edges and documents exactly, and lets edges use JSON nodes' ids", () => {
    expect(definitionOf('node {"id": "x", "kind": "mystery"}\npart y\nx -> y\nedge {"from": 1}\nedge "odd"\n')).toEqual({
      schemaVersion: 1,
      nodes: [{ id: "x", kind: "mystery" }, { id: "y" }],
      edges: [{ from: "x", to: "y" }, { from: 1 }, "odd"],
    });
    expect(definitionOf("# anything at all\ndocument [1, {\"a\": null}]\n")).toEqual([1, { a: null }]);
    expect(definitionOf('part "a \\"b\\" 📦" = "odd id"@"2024 Q1"\n')).toEqual({ schemaVersion: 1, nodes: [{ id: 'a "b" 📦', partId: "odd id", partVersion: "2024 Q1" }], edges: [] });
  });
});

describe("faults of the language", () => {
  it("undeclared nodes and subjects, at the name, with a suggestion", () => {
    const result = compile("part report = pack@1\npart p = terminal.profile@1 { subjects [acme] }\np -> reprot\n");
    expect(result.faults.map((diagnostic) => [diagnostic.code, diagnostic.pointer, diagnostic.suggestion])).toEqual([
      ["undeclared-subject", "/nodes/1/terminal/subjectRefs/0", undefined],
      ["undeclared-node", "/edges/0/to", "report"],
    ]);
  });

  it("names declared twice, with the first declaration as related", () => {
    const result = compile('subject s = company "a"\nsubject s = company "b"\npart p\ngate p hold\n');
    expect(result.faults.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line, diagnostic.related?.[0]?.range.start.line])).toEqual([
      ["duplicate-name", 1, 0],
      ["duplicate-name", 3, 2],
    ]);
  });

  it("fields written twice, statements that may appear once, misplaced properties, `document` with others", () => {
    expect(codes('gate g hold with {"belowFloor": "x", "a": 1, "a": 2}\n')).toEqual(["duplicate-field \"belowFloor\"", "duplicate-field \"a\""]);
    expect(codes('workflow "a"\nworkflow "b"\n')).toEqual(["duplicate-statement workflow"]);
    expect(codes("part p = pack@1 { job a@1 job b@1 schedule \"x\" }\n")).toEqual(["duplicate-field job", "syntax schedule"]);
    expect(codes("part p\ndocument {}\n")).toEqual(["mixed-document document"]);
  });

  it("numbers JSON cannot keep exactly, but not ones it can", () => {
    expect(codes('node {"a": 12345678901234567891, "b": 1e400, "c": 9007199254740993, "ok": [1e21, 1000000000000000000000, 40874727274982170, 0.1]}\n')).toEqual([
      "number-precision 12345678901234567891",
      "number-precision 1e400",
      "number-precision 9007199254740993",
    ]);
  });
});

describe("the source map", () => {
  const text = [
    'workflow "w"',
    'subject tesco = company "cmp_tesco" "Tesco PLC"',
    "trigger start on_demand",
    'part compare = terminal.compare@1 { job compare.peers@1 subjects [tesco] } with {"ui": 1}',
    "part report = pack",
    "start -> compare, report",
    'edge {"from": "start", "to": "nowhere"}',
  ].join("\n");
  const { sourceMap } = compile(text);
  const at = (pointer: string, part?: "key" | "value") => {
    const span = sourceMap.spanOf(pointer, part);
    return text.slice(span.start, span.end);
  };

  it("places nodes at their names and fields at their words", () => {
    expect(at("/nodes/1")).toBe("compare");
    expect(at("/nodes/1/id")).toBe("compare");
    expect(at("/nodes/1/partId")).toBe("terminal.compare");
    expect(at("/nodes/1/partVersion")).toBe("1");
    expect(at("/nodes/1/terminal/job/id")).toBe("compare.peers");
    expect(at("/nodes/1/terminal/subjectRefs")).toBe("subjects [tesco]");
    expect(at("/nodes/1/terminal/subjectRefs/0")).toBe("tesco");
    expect(at("/nodes/1/terminal/subjectRefs/0/label")).toBe('"Tesco PLC"');
    expect(at("/nodes/1/ui")).toBe("1");
    expect(at("/nodes/1/ui", "key")).toBe('"ui"');
    expect(at("/nodes/0/kind")).toBe("trigger");
    expect(at("/nodes/0/trigger/kind")).toBe("on_demand");
  });

  it("places edges at their arrow and target, and JSON edges in their JSON", () => {
    expect(at("/edges/1")).toBe("-> compare, report");
    expect(at("/edges/1/from")).toBe("start");
    expect(at("/edges/1/to")).toBe("report");
    expect(at("/edges/2/to")).toBe('"nowhere"');
  });

  it("falls back to the nearest written ancestor for what is not written", () => {
    expect(sourceMap.locate("/nodes/2/partVersion")).toEqual({ span: sourceMap.spanOf("/nodes/2"), exact: false });
    expect(at("/nodes/2/partVersion")).toBe("report");
    expect(at("/nodes/9")).toBe('"w"');
    expect(at("")).toBe('"w"');
    expect(sourceMap.has("/nodes/1/partId")).toBe(true);
    expect(sourceMap.has("/nodes/1/terminal/subjectRefs/0/identifiers")).toBe(false);
  });
});
