import { describe, expect, it } from "vitest";
import { compile, decompile, jsonEqual } from "@wfkit/dsl";

function backAgain(value: unknown): unknown {
  const compiled = compile(decompile(value));
  expect(compiled.faults).toEqual([]);
  return compiled.definition;
}

describe("the decompiler", () => {
  it("writes typed statements, named subjects and chains for a valid definition", () => {
    const definition = {
      schemaVersion: 1,
      nodes: [
        { id: "start", kind: "trigger", trigger: { kind: "scheduled", schedule: "0 6 * * 1", timezone: "Europe/London" } },
        {
          id: "compare",
          partId: "terminal.compare",
          partVersion: "1",
          terminal: {
            job: { id: "compare.peers", version: "1" },
            subjectRefs: [
              { canonicalId: "cmp_tesco", kind: "company", label: "Tesco PLC", identifiers: [] },
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
    };
    expect(decompile(definition, { workflowName: "grocers" })).toBe(
      [
        'workflow "grocers"',
        "",
        'subject tesco_plc = company "cmp_tesco" "Tesco PLC" identifiers []',
        'subject j_sainsbury_plc = company "cmp_sbry" "J Sainsbury plc" identifiers []',
        "",
        'trigger start scheduled { schedule "0 6 * * 1" timezone "Europe/London" }',
        "part compare = terminal.compare@1 { job compare.peers@1 subjects [tesco_plc, j_sainsbury_plc] }",
        "part report = pack@1",
        "gate floor hold",
        "destination inbox standalone",
        "",
        "start -> compare -> report -> floor -> inbox",
        "",
      ].join("\n"),
    );
    expect(backAgain(definition)).toEqual(definition);
  });

  it("groups fan-out and fan-in in the order of the edges, and splits where the order differs", () => {
    const nodes = ["a", "b", "c", "d"].map((id) => ({ id }));
    const fan = { schemaVersion: 1, nodes, edges: [{ from: "a", to: "b" }, { from: "a", to: "c" }, { from: "b", to: "d" }, { from: "c", to: "d" }] };
    expect(decompile(fan).trim().split("\n").pop()).toBe("a -> b, c -> d");
    const reordered = { ...fan, edges: [{ from: "c", to: "d" }, { from: "a", to: "b" }, { from: "b", to: "d" }] };
    expect(decompile(reordered).trim().split("\n").slice(-2)).toEqual(["c -> d", "a -> b -> d"]);
    expect(backAgain(fan)).toEqual(fan);
    expect(backAgain(reordered)).toEqual(reordered);
  });

  it("keeps what typed statements cannot say: `kind: part`, wrong types, unknown fields, odd nodes", () => {
    const definition = {
      schemaVersion: 1,
      nodes: [
        { id: "p", kind: "part", partId: "pack", partVersion: 1, colour: "red" },
        { id: "g", kind: "gate", belowFloor: 3 },
        { id: "p", kind: "gate", belowFloor: "hold" },
        { kind: "gate" },
        "not a node",
      ],
      edges: [{ from: "p", to: "ghost" }, { from: "p", to: "g", weight: 2 }, 7],
      extra: true,
    };
    const text = decompile(definition);
    expect(text).toContain('part p = pack with {"kind": "part", "partVersion": 1, "colour": "red"}');
    expect(text).toContain('gate g with {"belowFloor": 3}');
    expect(text).toContain('node {"id": "p", "kind": "gate", "belowFloor": "hold"}'); // a second `p` would be a duplicate name
    expect(text).toContain('edge {"from": "p", "to": "ghost"}'); // `ghost` is not declared
    expect(text).toContain('p -> g with {"weight": 2}');
    expect(text).toContain('workflow with {"extra": true}');
    expect(backAgain(definition)).toEqual(definition);
  });

  it("writes a version-save body as a `version` block, and anything else as a `document`", () => {
    const body = {
      scope: { graph: { schemaVersion: 1, nodes: [], edges: [] }, note: 1 },
      trigger: { kind: "on_demand" },
      destinations: [{ kind: "standalone" }, { kind: "standalone", label: "x" }],
    };
    expect(decompile(body)).toBe(
      ["version {", "  trigger on_demand", "  destination standalone", '  destination standalone { with {"label": "x"} }', '  scope with {"note": 1}', "}", ""].join("\n"),
    );
    expect(backAgain(body)).toEqual(body);
    expect(decompile([1, 2])).toBe("document [1, 2]\n");
    expect(decompile({ schemaVersion: 2, nodes: [], edges: [] })).toBe('document {"schemaVersion": 2, "nodes": [], "edges": []}\n');
  });

  it("keeps -0, __proto__ keys, lone surrogates and large numbers", () => {
    const tricky = JSON.parse('{"schemaVersion": 1, "nodes": [{"id": "\\ud800", "__proto__": {"n": -0}, "big": 1e300, "x": 9007199254740993}], "edges": []}');
    tricky.nodes[0].__proto__.n = -0;
    const back = backAgain(tricky) as { nodes: Record<string, { n: number }>[] };
    expect(jsonEqual(back, tricky)).toBe(true);
    expect(Object.is(back.nodes[0]!["__proto__"]!.n, -0)).toBe(true);
  });

  it("reads non-JSON values as JSON.stringify would", () => {
    expect(compile(decompile(undefined)).definition).toBeNull();
    expect(compile(decompile({ a: undefined, b: NaN, c: [undefined], d: new Date(0) })).definition).toEqual({ b: null, c: [null], d: "1970-01-01T00:00:00.000Z" });
  });

  it("names subjects readably and shares a declaration between equal subjects", () => {
    const subject = { canonicalId: "cmp_x", kind: "company", label: "Société Générale" };
    const part = (id: string) => ({ id, partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [subject] } });
    const text = decompile({ schemaVersion: 1, nodes: [part("a"), part("b")], edges: [] });
    expect(text.match(/^subject /gm)).toHaveLength(1);
    expect(text).toContain("subject societe_generale = company");
  });

  it("writes a long subject list one name per line, keyword names included, and reads it back", () => {
    const labels = ["part", "trigger", "subjects", "with", "destination", "version", "node", "edge", "Subject Nine"];
    const refs = labels.map((label, index) => ({ canonicalId: `cmp_${index}`, kind: "company", label }));
    const definition = { schemaVersion: 1, nodes: [{ id: "p", partId: "terminal.compare", partVersion: "1", terminal: { subjectRefs: refs } }], edges: [] };
    const text = decompile(definition);
    expect(text).toContain("  subjects [\n    part,\n    trigger,\n    subjects,\n    subject,\n");
    expect(backAgain(definition)).toEqual(definition);
  });
});
