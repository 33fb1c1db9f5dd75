/**
 * A keystroke in a JSON definition: the text is read once per edit (the value the edit is
 * inside, or the whole text when that cannot be), the check re-judges only the node that
 * changed (core's CheckSession, as for `.wf`), and every step gives what a fresh document of
 * the same text gives: the diagnostics (the CLI's verdict), the estimate, the value and the
 * tree the hovers read.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { createLanguageService, type WfkitDocument } from "../src/index.js";
import { numRuns } from "../../../test/support/num-runs.js";

const service = createLanguageService();
const URI = "file:///t.workflow.json";

/** A definition of `pairs` profile/pack pairs, pretty-printed as editors write it. */
function definitionText(pairs: number): string {
  const subject = { canonicalId: "cmp_tesco", kind: "company", label: "Tesco PLC", identifiers: [{ type: "ticker", value: "TSCO.L" }] };
  const nodes: unknown[] = [{ id: "start", kind: "trigger", trigger: { kind: "on_demand" } }];
  const edges: unknown[] = [];
  for (let i = 0; i < pairs; i++) {
    nodes.push({ id: `p${i}`, partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [subject] } });
    nodes.push({ id: `k${i}`, partId: "pack", partVersion: "1" });
    edges.push({ from: "start", to: `p${i}` }, { from: `p${i}`, to: `k${i}` }, { from: `k${i}`, to: "inbox" });
  }
  nodes.push({ id: "inbox", kind: "destination", destination: { kind: "standalone" } });
  return JSON.stringify({ schemaVersion: 1, nodes, edges }, null, 2) + "\n";
}

const open = (text: string): WfkitDocument => service.createDocument({ uri: URI, language: "json", version: 1, text });

/** Types `insert` over `remove` characters at `offset`. */
function type(document: WfkitDocument, offset: number, insert: string, remove = 0): WfkitDocument {
  const start = document.lines.positionAt(offset);
  const end = document.lines.positionAt(offset + remove);
  return service.updateDocument(document, document.version + 1, [{ range: { start, end }, text: insert }]);
}

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * How many times the text was parsed where the edit is: calls of JSON.parse whose input is an
 * object or array of the new text holding the edit (the whole text, or the value the edit is
 * in). Reading one key or one string, as the tree does to place a fault, is not parsing.
 */
function readsOfEdit(parse: { mock: { calls: unknown[][] } }, text: string, start: number, newEnd: number): number {
  let reads = 0;
  for (const [input] of parse.mock.calls) {
    if (typeof input !== "string" || input.length < newEnd - start || !/^\s*[{[]/.test(input)) continue;
    for (let at = Math.max(0, newEnd - input.length); at <= start; at++)
      if (text.startsWith(input, at)) {
        reads++;
        break;
      }
  }
  return reads;
}

describe("a JSON keystroke", () => {
  it("reads the text once per edit, whatever the edit", () => {
    const text = definitionText(30);
    let document = open(text);
    service.doValidation(document);
    const middle = text.indexOf('"pack"', text.indexOf('"k15"'));
    const edits: [string, number, string, number][] = [
      ["inside a string", middle + 5, "x", 0],
      ["the same string back", middle + 5, "", 1],
      ["a key of a node", text.indexOf('"partVersion"', middle) + 1, "z", 0],
      ["blanks between two nodes", text.indexOf("},", middle) + 2, " ", 0],
      ["blanks after the last field of the document", text.lastIndexOf("]") + 1, "\n", 0],
      ["a new field at the top level", text.indexOf("{") + 1, '"note": 1, ', 0],
    ];
    for (const [what, offset, insert, remove] of edits) {
      const parse = vi.spyOn(JSON, "parse");
      document = type(document, offset, insert, remove);
      const diagnostics = service.doValidation(document);
      expect([what, readsOfEdit(parse, document.text, offset, offset + insert.length)]).toEqual([what, 1]);
      parse.mockRestore();
      const fresh = open(document.text);
      expect(diagnostics).toEqual(service.doValidation(fresh));
    }
  });

  it("re-judges only the node that changed", () => {
    const text = definitionText(30);
    let document = open(text);
    service.doValidation(document);
    const at = text.indexOf('"pack"', text.indexOf('"k15"')) + 5;
    document = type(document, at, "x");
    const diagnostics = service.doValidation(document);
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["part-unknown"]);
    expect(document.history?.checkSession.lastMode).toBe("patched");
    document = type(document, at, "", 1);
    expect(service.doValidation(document)).toEqual([]);
    expect(document.history?.checkSession.lastMode).toBe("patched");
  });

  it("answers hovers from the edited document's tree", () => {
    const text = definitionText(5);
    let document = open(text);
    service.doValidation(document);
    const at = text.indexOf('"pack"', text.indexOf('"k2"')) + 2;
    document = type(document, at - 1, " ", 0);
    document = type(document, at - 1, "", 1);
    const hover = service.doHover(document, document.lines.positionAt(at));
    expect(hover?.contents).toEqual(service.doHover(open(document.text), document.lines.positionAt(at))?.contents);
    expect(String(hover?.contents)).toContain("pack");
  });

  it("gives what a fresh document gives, edit after edit, the text broken and mended on the way", () => {
    const text = definitionText(3);
    const edit = fc.record({
      at: fc.nat(),
      inString: fc.boolean(),
      remove: fc.constantFrom(0, 0, 1, 2),
      insert: fc.constantFrom("", "x", "1", '"', "{", "}", ",", " ", "\n", '"k": 1, ', "pack", "terminal.screen", "-"),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 8 }), (edits) => {
        let document = open(text);
        service.doValidation(document);
        for (const choice of edits) {
          let at = choice.at % (document.text.length + 1);
          if (choice.inString) at = document.text.indexOf('"', at) + 1 || at;
          document = type(document, at, choice.insert, Math.min(choice.remove, document.text.length - at));
          const fresh = open(document.text);
          expect(service.doValidation(document)).toEqual(service.doValidation(fresh));
          expect(document.analysis.estimate).toEqual(fresh.analysis.estimate);
          expect(document.analysis.compiled).toEqual(fresh.analysis.compiled);
          expect(document.analysis.jsonTree?.length).toBe(fresh.analysis.jsonTree?.length);
        }
      }),
      { numRuns: numRuns(60) },
    );
  });
});
