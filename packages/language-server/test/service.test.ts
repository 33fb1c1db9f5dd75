/**
 * The pure language service, without any protocol: documents in, plain results out.
 * (Every feature is also tested over the real protocol in test/lsp/.)
 */
import { describe, expect, it } from "vitest";
import { analyzeSource } from "@wfkit/dsl";
import { createLanguageService, type WfkitDocument } from "../src/index.js";
import { VALID_WF, positionOf } from "./support/fixtures.js";

const service = createLanguageService({ docsBaseUrl: "https://docs.example/" });
const open = (text: string, language: "wf" | "json" = "wf"): WfkitDocument => service.createDocument({ uri: "file:///t.wf", language, version: 1, text });

describe("createLanguageService", () => {
  it("reports what analyzeSource reports, with the configured doc links", () => {
    const text = VALID_WF.replace("pack@1", "pakc@1");
    const diagnostics = service.doValidation(open(text));
    expect(diagnostics.map((d) => [d.code, d.range, d.message])).toEqual(analyzeSource(text, "wf").faults.map((f) => [f.code, f.range, f.message]));
    expect(diagnostics[0]!.codeHref).toBe("https://docs.example/part-unknown.md");
  });

  it("links every code to its page, the language's codes as well as core's", () => {
    const [syntax] = service.doValidation(open("part = \n"));
    expect(syntax!.code).toBe("syntax");
    expect(syntax!.codeHref).toBe("https://docs.example/syntax.md");
    const repeated = service.doValidation(open('{"schemaVersion": 1, "nodes": [], "nodes": [], "edges": []}', "json")).find((d) => d.code === "duplicate-field");
    expect(repeated?.codeHref).toBe("https://docs.example/duplicate-field.md");
  });

  it("carries a cycle's other nodes as related information", () => {
    const text = "trigger start on_demand\ngate a hold\ngate b hold\ndestination inbox standalone\nstart -> a -> b -> a\nb -> inbox\n";
    const cycle = service.doValidation(open(text)).find((d) => d.code === "cycle")!;
    expect(cycle.related.map((r) => r.message)).toEqual(["on the same cycle"]);
  });

  it("updates a document incrementally and stays equal to a fresh analysis", () => {
    let document = open(VALID_WF);
    service.doValidation(document);
    const at = positionOf(VALID_WF, "floor hold");
    document = service.updateDocument(document, 2, [{ range: { start: at, end: { line: at.line, character: at.character + 5 } }, text: "flor" }]);
    const fresh = open(document.text);
    expect(service.doValidation(document)).toEqual(service.doValidation(fresh));
    expect(service.doValidation(document).map((d) => d.code)).toContain("undeclared-node");
  });

  it("keeps names quoted where JSON requires it when renaming", () => {
    const text = 'trigger start on_demand\nnode { "id": "raw", "kind": "gate", "belowFloor": "hold" }\ndestination inbox standalone\nstart -> raw -> inbox\n';
    const result = service.doRename(open(text), positionOf(text, "raw ->"), "gate2");
    expect("edits" in result! && result.edits.map((e) => e.newText)).toEqual(['"gate2"', "gate2"]);
  });

  it("offers to correct a job to the one the part offers", () => {
    const text = "trigger start on_demand\npart p = terminal.profile@1 {\n  job profile.compnay@1\n  subjects [t]\n}\nsubject t = company \"cmp_tesco\" \"Tesco PLC\"\ndestination inbox standalone\nstart -> p -> inbox\n";
    const document = open(text);
    const diagnostics = service.doValidation(document);
    const actions = service.getCodeActions(document, diagnostics[0]!.range, diagnostics);
    expect(actions.map((a) => a.title)).toContain("Change to `profile.company`");
  });

  it("answers every feature on an empty document without throwing", () => {
    const document = open("");
    const origin = { line: 0, character: 0 };
    expect(service.doValidation(document).map((d) => d.code).sort()).toEqual(["destination-missing", "trigger-missing"]);
    expect(service.doHover(document, origin)).toBeUndefined();
    expect(service.findDocumentSymbols(document)).toEqual([]);
    expect(service.getSemanticTokens(document)).toEqual([]);
    expect(service.getFoldingRanges(document)).toEqual([]);
    expect(service.findReferences(document, origin, true)).toEqual([]);
    expect(service.getCodeLenses(document)[0]!.title).toMatch(/2 errors$/);
    expect(service.doComplete(document, origin).map((i) => i.label)).toContain("trigger");
  });

  it("decompiles JSON and reports JSON that does not parse", () => {
    const compiled = service.compile(open(VALID_WF));
    expect("json" in compiled).toBe(true);
    const decompiled = service.decompile((compiled as { json: string }).json);
    expect("text" in decompiled && decompiled.text).toContain("start -> compare");
    expect(service.decompile("{ nope")).toMatchObject({ error: expect.stringMatching(/does not parse/) });
  });
});

describe("completion: what the grammar expects at the cursor", () => {
  const end = (text: string) => {
    const lines = text.split("\n");
    return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
  };
  const complete = (text: string) => service.doComplete(open(text), end(text));
  const labels = (text: string) => complete(text).map((item) => item.label);

  it("offers in a block the properties its kind holds, and no statement", () => {
    expect(labels("trigger t scheduled {\n  ")).toEqual(["schedule", "timezone", "with"]);
    expect(labels("part p = pack@1 {\n  ")).toEqual(["job", "subjects", "with"]);
    expect(labels("version {\n  ").sort()).toEqual(["destination", "scope", "trigger", "with"]);
  });

  it("offers kind words wherever a kind is read, in a version block too", () => {
    expect(labels("version {\n  destination ")).toEqual(["standalone"]);
    expect(labels("subject s = ")).toEqual(["company"]);
  });

  it("replaces the whole job typed so far, version included", () => {
    const text = "part s = terminal.screen@2 {\n  job screen.im@1";
    const items = complete(text);
    expect(items.map((item) => item.label).sort()).toEqual(["screen.imports@1", "screen.signals@1"]);
    expect(items[0]!.range).toEqual({ start: { line: 1, character: 6 }, end: end(text) });
  });

  it("offers nothing in a comment, nor where no name or keyword may stand", () => {
    expect(labels("trigger start on_demand # sta")).toEqual([]);
    expect(labels("part p = pack@1 with {")).toEqual([]);
  });

  it("reads the statement at the cursor when the lines around it are broken", () => {
    const text = "part p = \ntrigger start on_demand\ngate g \nstart -> g";
    expect(service.doComplete(open(text), { line: 2, character: 7 }).map((item) => item.label)).toEqual(["hold"]);
    expect(service.doComplete(open(text), { line: 0, character: 9 }).map((item) => item.label)).toContain("terminal.compare");
  });
});
