import { describe, expect, it } from "vitest";
import { defaultCatalogue, type Catalogue } from "@wfkit/core";
import { analyzeSource, type SourceFault } from "@wfkit/dsl";

function placed(text: string, faults: SourceFault[]): string[] {
  return faults.map((fault) => `${fault.severity} ${fault.code} ${text.slice(fault.span.start, fault.span.end)}`);
}

const valid = [
  'subject tesco = company "cmp_tesco" "Tesco PLC"',
  'subject sbry = company "cmp_sbry" "J Sainsbury plc"',
  "trigger start on_demand",
  "part compare = terminal.compare@1 { job compare.peers@1 subjects [tesco, sbry] }",
  "part report = pack@1",
  "destination inbox standalone",
  "start -> compare -> report -> inbox",
].join("\n");

describe("analyzeSource on .wf", () => {
  it("checks a valid file: ok, the definition, the estimate, no faults", () => {
    const analysis = analyzeSource(valid, "wf");
    expect(analysis.faults).toEqual([]);
    expect(analysis.ok).toBe(true);
    expect(analysis.estimate?.costMinorUnits).toBe(100 + 2 * 50 + 20);
    expect((analysis.definition as { nodes: unknown[] }).nodes).toHaveLength(4);
  });

  it("places core's faults on the words that cause them", () => {
    const text = valid.replace("terminal.compare@1", "terminal.compar@1").replace("pack@1", "pack@9");
    const analysis = analyzeSource(text, "wf");
    expect(analysis.ok).toBe(false);
    expect(placed(text, analysis.faults)).toContain("error part-unknown terminal.compar");
    expect(placed(text, analysis.faults)).toContain("error part-version 9");
    expect(analysis.faults.find((fault) => fault.code === "part-unknown")?.suggestion).toBe("terminal.compare");
  });

  it("reports a mistake once: an undeclared node, not also core's dangling edge", () => {
    const text = valid.replace("-> inbox", "-> inbx");
    const faults = analyzeSource(text, "wf").faults.filter((fault) => fault.severity === "error");
    expect(placed(text, faults)).toEqual(["error undeclared-node inbx"]);
  });

  it("gives related places a range too", () => {
    const text = 'trigger start on_demand\nnode {"id": "start", "kind": "gate", "belowFloor": "hold"}\n';
    const fault = analyzeSource(text, "wf").faults.find((candidate) => candidate.code === "duplicate-id");
    expect(fault).toBeDefined();
    expect(text.slice(fault!.span.start, fault!.span.end)).toBe('"start"');
    expect(fault!.related?.[0]?.range.start).toEqual({ line: 0, character: 8 });
  });

  it("does not check a file with syntax errors, but still reports every syntax error", () => {
    const analysis = analyzeSource("part a pack@1\npart b = = pack@1\n", "wf");
    expect(analysis.definition).toBeUndefined();
    expect(analysis.estimate).toBeUndefined();
    expect(analysis.faults.map((fault) => fault.code)).toEqual(["syntax", "syntax"]);
    expect(analysis.ast?.statements).toHaveLength(2);
  });

  it("uses the catalogue it is given", () => {
    const catalogue: Catalogue = { ...defaultCatalogue, parts: defaultCatalogue.parts.filter((part) => part.partId !== "pack") };
    const faults = analyzeSource(valid, "wf", { catalogue }).faults;
    expect(placed(valid, faults)).toContain("error part-unknown pack");
  });

  it("flags unknown fields at their names, once per place", () => {
    const text = valid.replace("-> inbox", '-> inbox with {"note": 1}');
    const warnings = analyzeSource(text, "wf").faults.filter((fault) => fault.severity === "warning");
    expect(placed(text, warnings)).toEqual(['warning unknown-field "note"']);
  });
});

describe("analyzeSource on .json", () => {
  const json = JSON.stringify(
    {
      schemaVersion: 1,
      nodes: [
        { id: "start", kind: "trigger", trigger: { kind: "on_demand" } },
        { id: "report", partId: "pack" },
        { id: "inbox", kind: "destination", destination: { kind: "standalone" }, colour: "red" },
      ],
      edges: [
        { from: "start", to: "report" },
        { from: "report", to: "inbx" },
      ],
    },
    null,
    2,
  );

  it("places faults on values, keys, and for a missing field on the object that lacks it", () => {
    const analysis = analyzeSource(json, "json");
    const lines = placed(json, analysis.faults);
    expect(lines).toContain('error edge-dangling "inbx"');
    expect(lines).toContain('warning unknown-field "colour"');
    // `partVersion` is missing from the node: the fault goes on its id.
    expect(lines).toContain('error shape "report"');
  });

  it("reports comments and trailing commas as errors, and still checks the document", () => {
    const text = '{\n  // note\n  "schemaVersion": 1,\n  "nodes": [],\n  "edges": [],\n}';
    const analysis = analyzeSource(text, "json");
    const syntax = analysis.faults.filter((fault) => fault.code === "json-syntax");
    expect(placed(text, syntax)).toEqual(["error json-syntax // note", "error json-syntax ,"]);
    expect(syntax[1]!.message).toMatch(/trailing comma/);
    expect(analysis.definition).toEqual({ schemaVersion: 1, nodes: [], edges: [] });
    expect(analysis.faults.some((fault) => fault.code !== "json-syntax")).toBe(true);
    expect(analysis.ok).toBe(false);
  });

  it("does not check broken JSON, and reports where it breaks", () => {
    const text = '{"schemaVersion": 1, "nodes": [\n  {"id": "a" "kind": "gate"}\n';
    const analysis = analyzeSource(text, "json");
    expect(analysis.definition).toBeUndefined();
    expect(analysis.faults[0]).toMatchObject({ code: "json-syntax", range: { start: { line: 1, character: 13 } } });
    expect(analysis.faults[0]!.message).toMatch(/expected `,`/);
  });

  it("warns about repeated keys, keeping the last value as JSON readers do", () => {
    const text = '{"schemaVersion": 1, "nodes": [], "edges": [], "edges": []}';
    const analysis = analyzeSource(text, "json");
    expect(placed(text, analysis.faults.filter((fault) => fault.code === "duplicate-field"))).toEqual(['warning duplicate-field "edges"']);
  });

  it("finds a repeated key when Object.prototype carries an enumerable field", () => {
    // One object, one inherited name and one repeat: were inherited names counted as keys,
    // the count of keys would match the text's colons and the repeat would go unnoticed.
    const text = '{"schemaVersion": 1, "nodes": [], "edges": [], "edges": []}';
    const prototype = Object.prototype as Record<string, unknown>;
    prototype["inherited"] = 1;
    try {
      const faults = analyzeSource(text, "json").faults.filter((fault) => fault.code === "duplicate-field");
      expect(faults.map((fault) => text.slice(fault.span.start, fault.span.end))).toEqual(['"edges"']);
    } finally {
      delete prototype["inherited"];
    }
  });

  it("reports a repeated key with the same code and severity in `.wf` and in `.json`", () => {
    const wf = 'document {"schemaVersion": 1, "nodes": [], "edges": [], "edges": []}\n';
    const json = '{"schemaVersion": 1, "nodes": [], "edges": [], "edges": []}';
    const repeats = (text: string, language: "wf" | "json") => analyzeSource(text, language).faults.filter((fault) => fault.code !== "trigger-missing" && fault.code !== "destination-missing").map((fault) => `${fault.severity} ${fault.code} ${text.slice(fault.span.start, fault.span.end)}`);
    expect(repeats(wf, "wf")).toEqual(['warning duplicate-field "edges"']);
    expect(repeats(json, "json")).toEqual(repeats(wf, "wf"));
  });

  it("keeps -0 and __proto__ keys of the JSON", () => {
    const analysis = analyzeSource('{"__proto__": -0}', "json");
    const value = analysis.definition as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.is(value["__proto__"], -0)).toBe(true);
  });

  it("reads any text without throwing, even an empty one", () => {
    expect(analyzeSource("", "json").faults.map((fault) => fault.code)).toEqual(["json-syntax"]);
    expect(analyzeSource("", "wf").faults.length).toBeGreaterThan(0); // an empty graph lacks a trigger
  });
});
