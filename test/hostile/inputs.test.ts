// Hostile texts through the library (`analyzeSource` and the tools under it): each must give
// clear, positioned diagnostics, never throw, never lose text, never pollute a prototype.
// The same files through the built CLI are in cli.test.ts; the big ones in scale.test.ts.
import { describe, expect, it } from "vitest";
import { defaultCatalogue, loadCatalogue, validateDefinition } from "@wfkit/core";
import { analyzeSource, compile, decompile, format, jsonEqual, parse } from "@wfkit/dsl";
import { expectPrototypesUnchanged, prototypeSnapshot } from "./prototype.js";

const VALID_WF = ["trigger start on_demand", "gate floor hold", "destination inbox standalone", "start -> floor -> inbox", ""].join("\n");
const codes = (text: string, language: "wf" | "json") => analyzeSource(text, language).faults.map((fault) => fault.code);

describe("empty and comment-only files", () => {
  it("an empty .wf is a definition with no trigger and no destination, both placed at the start", () => {
    const analysis = analyzeSource("", "wf");
    expect(analysis.ok).toBe(false);
    expect(analysis.definition).toEqual({ schemaVersion: 1, nodes: [], edges: [] });
    expect(analysis.faults.map((fault) => [fault.code, fault.range.start])).toEqual([
      ["trigger-missing", { line: 0, character: 0 }],
      ["destination-missing", { line: 0, character: 0 }],
    ]);
  });

  it("an empty .json says a value is expected at the end of the file", () => {
    const analysis = analyzeSource("", "json");
    expect(analysis.definition).toBeUndefined();
    expect(analysis.faults.map((fault) => [fault.code, fault.message])).toEqual([["json-syntax", "expected a JSON value, found the end of the file"]]);
  });

  it("a .wf of only comments reads as empty, and the formatter keeps every comment", () => {
    const text = "# one\n#two\n   # three   \n";
    expect(codes(text, "wf")).toEqual(["trigger-missing", "destination-missing"]);
    const formatted = format(text).text;
    for (const comment of ["# one", "#two", "# three"]) expect(formatted).toContain(comment);
  });

  it("a block comment left open at the end of a .json is underlined inside the text", () => {
    // Found by `npm run fuzz`: jsonc-parser puts that error one character past the end, and
    // the fault's span (and range) pointed outside the file.
    for (const text of ["/*", "/*\r\n", '{"schemaVersion": 1} /* trailing']) {
      const faults = analyzeSource(text, "json").faults;
      expect(faults.length).toBeGreaterThan(0);
      for (const fault of faults) expect(fault.span.end, JSON.stringify(text)).toBeLessThanOrEqual(text.length);
    }
    expect(analyzeSource("/*", "json").faults.at(-1)!.message).toBe("expected a JSON value, found the end of the file");
  });

  it("a .json of only a comment is refused: JSON has no comments, and no value is left", () => {
    expect(codes("// nothing here\n", "json")).toEqual(["json-syntax", "json-syntax"]);
    expect(analyzeSource("// nothing here\n", "json").definition).toBeUndefined();
  });
});

describe("binary garbage and invalid UTF-8", () => {
  // What a reader gets from invalid UTF-8: U+FFFD for each bad sequence.
  const garbage = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x0a, 0xed, 0xa0, 0x80, 0x7f]).toString("utf8");

  it("is a positioned syntax error in both languages, not a crash", () => {
    for (const language of ["wf", "json"] as const) {
      const analysis = analyzeSource(garbage, language);
      expect(analysis.ok).toBe(false);
      expect(analysis.faults.length).toBeGreaterThan(0);
      expect(analysis.faults[0]!.range.start).toEqual({ line: 0, character: 0 });
    }
  });

  it("messages show control characters and replacement characters escaped, so a terminal prints them safely", () => {
    const messages = analyzeSource(garbage, "wf").faults.map((fault) => fault.message);
    // Found by this suite: the raw NUL, ESC and U+FFFD went into the message verbatim.
    expect(messages.join("\n")).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\ufffd]/);
    expect(messages[0]).toContain("\\ufffd");
  });

  it("a lone surrogate in a quoted name survives compile and decompile", () => {
    const text = VALID_WF.replace("gate floor", 'gate "f\ud800"').replace("-> floor", '-> "f\ud800"');
    const compiled = compile(text);
    expect(compiled.faults).toEqual([]);
    expect(jsonEqual(compile(decompile(compiled.definition)).definition, compiled.definition)).toBe(true);
  });
});

describe("byte order marks and line endings", () => {
  it("a BOM is not part of the first line: positions after it count from the first real character", () => {
    const plain = analyzeSource("trigger start nope\n", "wf").faults[0]!;
    const withBom = analyzeSource("\ufefftrigger start nope\n", "wf").faults[0]!;
    expect(withBom.code).toBe(plain.code);
    expect(withBom.range.start.line).toBe(0);
    // The BOM is one UTF-16 unit before the text; the fault moves by exactly that unit.
    expect(withBom.span.start).toBe(plain.span.start + 1);
  });

  it("a .json with a BOM is read, not refused", () => {
    const json = JSON.stringify(compile(VALID_WF).definition);
    const analysis = analyzeSource("\ufeff" + json, "json");
    expect(analysis.faults).toEqual([]);
    expect(analysis.ok).toBe(true);
  });

  it("CRLF and lone CR end lines like LF: the same definition, faults on the same lines", () => {
    const broken = VALID_WF.replace("hold", "drop");
    const expected = analyzeSource(broken, "wf");
    for (const eol of ["\r\n", "\r"]) {
      const analysis = analyzeSource(broken.replace(/\n/g, eol), "wf");
      expect(jsonEqual(analysis.definition, expected.definition)).toBe(true);
      expect(analysis.faults.map((fault) => [fault.code, fault.range])).toEqual(expected.faults.map((fault) => [fault.code, fault.range]));
      expect(analysis.faults[0]!.range.start.line).toBe(1);
    }
  });

  it("the formatter keeps a file's line endings rather than mixing in LF", () => {
    for (const eol of ["\r\n", "\r"]) {
      const formatted = format("trigger   start on_demand" + eol + "destination d standalone" + eol + "start->d" + eol).text;
      expect(formatted.replaceAll(eol, "")).not.toMatch(/[\r\n]/);
    }
  });

  it("JSON with lone CR line breaks places a fault on the right line", () => {
    const analysis = analyzeSource('{\r"schemaVersion": 1,\r"nodes": [],\r"edges": [],\r"colour": "blue"\r}', "json");
    const unknown = analysis.faults.find((fault) => fault.code === "unknown-field")!;
    expect(unknown.range.start.line).toBe(4);
  });
});

describe("very long tokens", () => {
  const id = "a".repeat(1 << 20);

  it("a 1 MB bare identifier is read whole: nothing is cut, the graph is valid", () => {
    const analysis = analyzeSource(`trigger ${id} on_demand\ndestination d standalone\n${id} -> d\n`, "wf");
    expect(analysis.faults).toEqual([]);
    const definition = analysis.definition as { nodes: { id: string }[] };
    expect(definition.nodes[0]!.id).toHaveLength(1 << 20);
  });

  it("a 1 MB id in JSON is read whole too", () => {
    const json = JSON.stringify({ schemaVersion: 1, nodes: [{ id, kind: "trigger", trigger: { kind: "on_demand" } }, { id: "d", kind: "destination", destination: { kind: "standalone" } }], edges: [{ from: id, to: "d" }] });
    const analysis = analyzeSource(json, "json");
    expect(analysis.faults).toEqual([]);
    expect((analysis.definition as { nodes: { id: string }[] }).nodes[0]!.id).toBe(id);
  });

  it("faults about a 1 MB id have messages of readable size, and keep the id whole where a tool needs it", () => {
    const definition = {
      schemaVersion: 1,
      nodes: [
        { id: "t", kind: "trigger", trigger: { kind: "on_demand" } },
        { id, partId: "terminal.profil", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [] } },
        { id, kind: "gate", belowFloor: "hold" },
      ],
      edges: [{ from: "t", to: id }, { from: id, to: `${id}b` }],
    };
    const faults = validateDefinition(definition).faults;
    expect(new Set(faults.map((fault) => fault.code))).toEqual(new Set(["part-unknown", "duplicate-id", "edge-dangling", "destination-missing"]));
    for (const fault of faults) expect(fault.message.length).toBeLessThan(600);
    expect(faults.find((fault) => fault.code === "part-unknown")!.nodeId).toBe(id);
    expect(faults.find((fault) => fault.code === "duplicate-id")!.nodeId).toBe(id);
  });

  it("a 1 MB run of characters no token matches gives a message of readable size", () => {
    // Found by this suite: the message quoted the whole run, twice (a 2 MB message).
    for (const junk of ["é".repeat(1 << 20), "\u0001".repeat(1 << 20)]) {
      const faults = analyzeSource(`trigger ${junk} on_demand\n`, "wf").faults;
      expect(faults[0]!.code).toBe("syntax");
      expect(faults[0]!.span.end - faults[0]!.span.start).toBe(1 << 20); // the underline still covers it all
      for (const fault of faults) expect(fault.message.length).toBeLessThan(300);
    }
  });

  it("an unterminated 1 MB string is one fault, and the formatter leaves the text alone", () => {
    const text = `trigger "${"x".repeat(1 << 20)}`;
    expect(codes(text, "wf")).toEqual(["syntax"]);
    expect(format(text).text).toBe(text);
  });
});

describe("deep nesting (no stack overflow, the JSON path included)", () => {
  const depth = 100_000;

  it("100,000 nested JSON arrays are refused with one fault at the bracket past the limit", () => {
    // Found by this suite: jsonc-parser recursed once per level and overflowed the stack.
    const analysis = analyzeSource("[".repeat(depth) + "]".repeat(depth), "json");
    expect(analysis.definition).toBeUndefined();
    expect(analysis.faults).toHaveLength(1);
    expect(analysis.faults[0]).toMatchObject({ code: "json-syntax", severity: "error", span: { start: 2000, end: 2001 } });
    expect(analysis.faults[0]!.message).toMatch(/more than 2,000 levels/);
  });

  it("100,000 nested objects, and 100,000 unclosed brackets, are refused the same way", () => {
    for (const text of ['{"a":'.repeat(depth) + "1" + "}".repeat(depth), "[".repeat(depth), "{".repeat(depth)]) {
      const faults = analyzeSource(text, "json").faults;
      expect(faults.map((fault) => fault.code)).toEqual(["json-syntax"]);
      expect(faults[0]!.message).toMatch(/levels deep/);
    }
  });

  it("brackets inside strings and comments do not count as nesting", () => {
    const text = `{"schemaVersion": 1, "nodes": [], "edges": [], "note": "${"[".repeat(depth)}"} /* ${"{".repeat(depth)} */`;
    const faults = analyzeSource(text, "json").faults;
    expect(faults.map((fault) => fault.code)).toEqual(["trigger-missing", "destination-missing", "unknown-field", "json-syntax"]);
    expect(faults.at(-1)!.message).toMatch(/comments are not allowed/);
  });

  it("2,000 levels, the limit, are still read and checked", () => {
    const analysis = analyzeSource(`{"schemaVersion": 1, "nodes": [], "edges": [], "ui": ${"[".repeat(1999)}${"]".repeat(1999)}}`, "json");
    expect(analysis.definition).toBeDefined();
    expect(analysis.faults.map((fault) => fault.code)).toEqual(["trigger-missing", "destination-missing", "unknown-field"]);
  });

  it("100,000 nested arrays in a .wf JSON literal are refused as in .json: one syntax error at the bracket past 2,000 levels", () => {
    const text = `node ${"[".repeat(depth)}${"]".repeat(depth)}\n`;
    for (const faults of [parse(text).faults, analyzeSource(text, "wf").faults.filter((fault) => fault.code === "syntax"), format(text).faults]) {
      expect(faults.map((fault) => [fault.code, fault.span.start])).toEqual([["syntax", 5 + 2000]]);
      expect(faults[0]!.message).toMatch(/more than 2,000 levels/);
    }
    expect(() => JSON.stringify(compile(text).definition)).not.toThrow();
  });

  it("100,000 unclosed brackets in a .wf are one positioned syntax error", () => {
    const faults = analyzeSource(`node ${"[".repeat(depth)}\n`, "wf").faults;
    expect(faults.map((fault) => fault.code)).toEqual(["syntax"]);
    expect(faults[0]!.range.start.line).toBe(0);
  });
});

describe("hostile ids", () => {
  const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "prototype"];
  const chain = ["trigger __proto__ on_demand", "gate constructor hold", "gate toString hold", "gate hasOwnProperty hold", "gate prototype hold", "destination valueOf standalone", "__proto__ -> constructor -> toString -> hasOwnProperty -> prototype -> valueOf", ""].join("\n");

  it("Object.prototype's names are plain ids in .wf, in JSON and in the checker", () => {
    const fromWf = analyzeSource(chain, "wf");
    expect(fromWf.faults).toEqual([]);
    expect((fromWf.definition as { nodes: { id: string }[] }).nodes.map((node) => node.id)).toEqual(names.filter((name) => name !== "prototype").slice(0, 4).concat("prototype", "valueOf"));
    const fromJson = analyzeSource(JSON.stringify(fromWf.definition), "json");
    expect(fromJson.faults).toEqual([]);
    expect(validateDefinition(fromWf.definition).ok).toBe(true);
  });

  it("an edge to `toString` or `__proto__` that no node declares is undeclared, not found on a prototype", () => {
    const text = ["trigger start on_demand", "destination d standalone", "start -> toString -> d", "start -> __proto__ -> d", ""].join("\n");
    // (`d` is then unreachable: true, and the only other fault.)
    expect(codes(text, "wf").sort()).toEqual(["undeclared-node", "undeclared-node", "unreachable"]);
    const json = { schemaVersion: 1, nodes: [{ id: "s", kind: "trigger", trigger: { kind: "on_demand" } }, { id: "d", kind: "destination", destination: { kind: "standalone" } }], edges: [{ from: "s", to: "constructor" }, { from: "s", to: "d" }] };
    expect(validateDefinition(json).faults.map((fault) => [fault.code, fault.pointer])).toEqual([["edge-dangling", "/edges/0/to"]]);
  });

  it("empty, numeric and object ids are shape errors placed on the id in the JSON text", () => {
    const text = JSON.stringify({ schemaVersion: 1, nodes: [{ id: "", kind: "gate", belowFloor: "hold" }, { id: 42, kind: "gate", belowFloor: "hold" }, { id: { toString: "x" }, kind: "gate", belowFloor: "hold" }, { id: ["a"], kind: "gate", belowFloor: "hold" }], edges: [{ from: 42, to: "" }] }, null, 2);
    const shapes = analyzeSource(text, "json").faults.filter((fault) => fault.code === "shape");
    // Scalars are underlined themselves; an object or array at its key (one line, not many).
    const underlined = shapes.map((fault) => text.slice(fault.span.start, fault.span.end));
    expect(underlined).toEqual(['""', "42", '"id"', '"id"', "42"]);
    expect(shapes.map((fault) => fault.pointer)).toEqual(["/nodes/0/id", "/nodes/1/id", "/nodes/2/id", "/nodes/3/id", "/edges/0/from"]);
  });

  it('an empty quoted name in .wf (`""`) is refused with a message, not a crash', () => {
    const analysis = analyzeSource('trigger "" on_demand\ndestination d standalone\n"" -> d\n', "wf");
    expect(analysis.ok).toBe(false);
    expect(analysis.faults.length).toBeGreaterThan(0);
    expect(analysis.faults.every((fault) => fault.message.length > 0)).toBe(true);
  });
});

describe("hostile catalogues", () => {
  const part = (partId: string, requires: string[], produces: string[]) => ({ partId, versions: ["1"], requires, produces, unattendedSafe: true, cost: { baseMinorUnits: 1 } });
  const node = (id: string, partId: string) => ({ id, partId, partVersion: "1" });

  it("parts whose requires and produces name each other in a cycle load, and checking ends with the graph's own faults", () => {
    const loaded = loadCatalogue({ ...structuredClone(defaultCatalogue), parts: [...structuredClone(defaultCatalogue).parts, part("a", ["y"], ["x"]), part("b", ["x"], ["y"]), part("self", ["z"], ["z"])] });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const definition = {
      schemaVersion: 1,
      nodes: [{ id: "t", kind: "trigger", trigger: { kind: "on_demand" } }, node("a", "a"), node("b", "b"), node("s", "self"), { id: "d", kind: "destination", destination: { kind: "standalone" } }],
      edges: [{ from: "t", to: "a" }, { from: "a", to: "b" }, { from: "b", to: "a" }, { from: "b", to: "s" }, { from: "s", to: "s" }, { from: "s", to: "d" }],
    };
    const codesFound = validateDefinition(definition, { catalogue: loaded.catalogue }).faults.map((fault) => fault.code).sort();
    expect(codesFound).toEqual(["cycle", "edge-incompatible", "edge-incompatible", "edge-self"]);
  });

  it("missing fields and wrong types are refused with a pointer to each", () => {
    const loaded = loadCatalogue({ catalogueVersion: 1, parts: [{ partId: 7, versions: "1", requires: "x", produces: null, unattendedSafe: "yes", cost: {} }, {}] });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const pointers = loaded.problems.map((problem) => problem.pointer);
    for (const pointer of ["/parts/0/partId", "/parts/0/versions", "/parts/0/requires", "/parts/0/produces", "/parts/0/unattendedSafe", "/parts/0/cost", "/parts/1"]) expect(pointers).toContain(pointer);
  });

  it("anything that is not a catalogue document is refused, never thrown on", () => {
    for (const value of [null, 0, "", [], {}, { catalogueVersion: 2, parts: [] }, { catalogueVersion: 1, parts: {} }, { catalogueVersion: 1, parts: [null] }]) {
      const loaded = loadCatalogue(value);
      expect(loaded.ok, JSON.stringify(value)).toBe(false);
    }
  });

  it("a catalogue passed to validateDefinition without loading it is named as the problem, not the definition", () => {
    // Found by this suite: the checker threw half-way on `parts: null` and reported "The input
    // could not be read as JSON data", blaming a valid definition.
    const definition = compile(VALID_WF).definition;
    for (const catalogue of [{ parts: null }, { catalogueVersion: 1, parts: [{ partId: "pack" }] }, 5, "catalogue"]) {
      const result = validateDefinition(definition, { catalogue: catalogue as never });
      expect(result.ok).toBe(false);
      expect(result.faults).toHaveLength(1);
      expect(result.faults[0]!.code).toBe("catalogue-invalid");
      expect(result.faults[0]!.message).toMatch(/^The catalogue passed to validateDefinition is not a valid catalogue/);
    }
  });
});

describe("prototype pollution", () => {
  const payloads = {
    wf: [
      'workflow "__proto__"',
      'subject __proto__ = company "__proto__" "constructor"',
      "trigger constructor on_demand",
      'part __proto__ = pack@1 with {"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}}',
      'node {"__proto__": {"polluted": 3}, "id": "prototype", "kind": "gate", "belowFloor": "hold"}',
      "destination valueOf standalone",
      "constructor -> __proto__ -> prototype -> valueOf",
      "",
    ].join("\n"),
    json: '{"__proto__": {"polluted": 4}, "schemaVersion": 1, "constructor": {"prototype": {"polluted": 5}}, "nodes": [{"id": "__proto__", "kind": "trigger", "trigger": {"kind": "on_demand", "__proto__": {"polluted": 6}}}, {"id": "d", "kind": "destination", "destination": {"kind": "standalone"}}], "edges": [{"from": "__proto__", "to": "d", "__proto__": {"polluted": 7}}]}',
  };

  it("no tool changes a built-in prototype, whatever `__proto__` and `constructor` keys the input holds", () => {
    const before = prototypeSnapshot();
    for (const [language, text] of Object.entries(payloads) as ["wf" | "json", string][]) {
      analyzeSource(text, language);
      parse(text);
      const compiled = compile(text);
      format(text);
      decompile(compiled.definition);
      validateDefinition(analyzeSource(text, language).definition);
      validateDefinition(JSON.parse(payloads.json));
      loadCatalogue(JSON.parse('{"catalogueVersion": 1, "parts": [], "__proto__": {"polluted": 8}}'));
    }
    expectPrototypesUnchanged(before);
  });

  it("keeps `__proto__` keys as ordinary data: the definition says what the text says", () => {
    const definition = analyzeSource(payloads.json, "json").definition as Record<string, unknown>;
    expect(Object.keys(definition)).toContain("__proto__");
    expect(Object.getPrototypeOf(definition)).toBe(Object.prototype);
    expect(jsonEqual(definition, JSON.parse(payloads.json))).toBe(true);
    const fromWf = compile(payloads.wf).definition as { nodes: Record<string, unknown>[] };
    expect(Object.keys(fromWf.nodes.find((node) => node["id"] === "__proto__")!)).toContain("__proto__");
  });

  it("decompile refuses a cyclic value with a TypeError instead of looping for ever", () => {
    // Found by this suite: the JSON check walked the cycle with an explicit stack, forever.
    const cyclic: Record<string, unknown> = { schemaVersion: 1, nodes: [], edges: [] };
    cyclic["self"] = cyclic;
    expect(() => decompile(cyclic)).toThrow(TypeError);
    // A value shared (not cyclic) is fine, as in JSON.stringify.
    const shared = { kind: "standalone" };
    expect(decompile({ a: shared, b: shared })).toContain("standalone");
  });
});
