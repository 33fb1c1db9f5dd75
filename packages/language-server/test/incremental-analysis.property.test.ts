/**
 * The language server's per-keystroke pipeline is incremental at every step: the parse
 * (reusing unchanged statements), the compile (reusing their compiled nodes and edges through
 * a `CompileCache`, counting names incrementally) and the check (reused while the definition
 * is the same). After every edit of random sequences, including edits that break the syntax,
 * declare names twice, drop declarations and mix in `document` and `version`, each step must
 * give exactly what the whole-text path gives: the compiled definition, its faults, its
 * source map's answers, and the analysis the CLI reports.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { analyzeSource, compileAst, CompileCache, parse, spanOf, type CompiledAst } from "@wfkit/dsl";
import { createLanguageService, type WfkitDocument } from "../src/index.js";
import { IncrementalParser } from "../src/service/wf/incremental-parser.js";
import { LineMap } from "../src/service/text.js";
import { SAMPLE_WF } from "./support/random-edits.js";
import { pointersOf } from "../../../test/support/pointers.js";
import { numRuns } from "../../../test/support/num-runs.js";

const NUM_RUNS = numRuns(60);

/** A document with something of every kind the compiler caches or checks across statements. */
const RICH_WF = `workflow "rich" with {"note": 1}
subject tesco = company "cmp_tesco" "Tesco PLC" identifiers [1, 2]
subject odd = company "cmp_odd" "Odd" with {"kind": "x", "n": 12345678901234567890}
trigger start on_demand
trigger nightly scheduled { schedule "0 6 * * 1" timezone "UTC" }
part compare = terminal.compare@1 {
  job compare.peers@1 with {"q": 1}
  subjects [tesco, odd, missing]
}
part report = pack@1 with {"partId": "dup", "extra": true}
part again = pack@1
node { "id": "raw", "kind": "gate", "belowFloor": "hold" }
gate floor hold
destination inbox standalone
start -> compare -> report -> floor -> inbox
nightly -> again, raw -> inbox with {"note": 2, "note": 3}
edge { "from": "start", "to": "raw" }
`;

/** Text an edit puts in: whole statements (some faulty), and pieces that break the syntax. */
const SNIPPETS = [
  "part report = pack@1\n",
  "part extra = terminal.profile@1 { job profile.company@1 subjects [tesco] }\n",
  "part extra = pack@2\n",
  "gate floor hold\n",
  'subject tesco = company "cmp_other" "Other"\n',
  'subject fresh = company "cmp_fresh" "Fresh" identifiers [1e400]\n',
  "start -> extra -> inbox\n",
  "report -> nowhere\n",
  "a -> b, c -> d with {\"w\": 1}\n",
  'node { "id": "report", "kind": "gate", "belowFloor": "hold" }\n',
  'edge { "from": "raw", "to": "inbox", "from": 2 }\n',
  'workflow "second"\n',
  'document { "a": 1 }\n',
  'version { trigger scheduled { schedule "x" } destination standalone scope with {"b": 1} }\n',
  "# a comment\n",
  "\n",
  "\r\n",
  "\r",
  "{",
  "}",
  "[",
  '"',
  "->",
  "@",
  "=",
  ",",
  " ",
  "x",
  "part",
  "é",
];

interface Edit {
  at: number;
  length: number;
  snippet: number;
  kind: "insert" | "delete" | "replace";
}

const editArbitrary: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  length: fc.integer({ min: 1, max: 60 }),
  snippet: fc.nat(),
  kind: fc.constantFrom("insert", "delete", "replace"),
});

/** The edit's span of `text` and its new text; never splitting a surrogate pair. */
function locate(text: string, edit: Edit): { start: number; end: number; insert: string } {
  let start = edit.at % (text.length + 1);
  if (start > 0 && start < text.length && isLowSurrogate(text.charCodeAt(start))) start--;
  let end = edit.kind === "insert" ? start : Math.min(text.length, start + edit.length);
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++;
  const insert = edit.kind === "delete" ? "" : SNIPPETS[edit.snippet % SNIPPETS.length]!;
  return { start, end, insert };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** JSON text of a value as JSON.stringify writes it (key order kept), but -0 written `-0`. */
function serialise(value: unknown): string {
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : JSON.stringify(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  if (Array.isArray(value)) return `[${value.map((element) => (element === undefined ? "null" : serialise(element))).join(",")}]`;
  const fields = Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined);
  return `{${fields.map((key) => `${JSON.stringify(key)}:${serialise((value as Record<string, unknown>)[key])}`).join(",")}}`;
}

/** What a compile says: its output, its faults, and where its source map puts every pointer. */
function describeCompile(compiled: CompiledAst): string {
  const map = compiled.sourceMap;
  const places = pointersOf(compiled.definition).map((pointer) => [pointer, map.locate(pointer), map.locate(pointer, "key")]);
  const origins: unknown[] = [];
  for (let i = 0; i < 40; i++) {
    const edge = map.edgeOrigin(i);
    const node = map.nodeOrigin(i);
    origins.push(node && spanOf(node), edge && (edge.type === "raw" ? spanOf(edge.statement) : [spanOf(edge.from), spanOf(edge.to), edge.arrow]));
  }
  return serialise({ definition: compiled.definition, diagnostics: compiled.faults, name: compiled.workflowName, places, origins });
}

describe("incremental compile", () => {
  it("compiles what a whole parse and compile give, after every edit", () => {
    fc.assert(
      fc.property(fc.constantFrom(SAMPLE_WF, RICH_WF), fc.array(editArbitrary, { minLength: 1, maxLength: 25 }), (initial, edits) => {
        const parser = new IncrementalParser();
        const cache = new CompileCache();
        let lines = new LineMap(initial);
        let parsed = parser.reset(initial, lines);
        compileAst(parsed.ast, initial, { cache });
        for (const edit of edits) {
          const { start, end, insert } = locate(lines.text, edit);
          const text = lines.text.slice(0, start) + insert + lines.text.slice(end);
          const region = { start, oldEnd: end, newEnd: start + insert.length };
          lines = lines.edited(text, region);
          parsed = parser.update(text, lines, region);
          const incremental = compileAst(parsed.ast, text, { cache });
          const whole = compileAst(parse(text).ast, text);
          expect(describeCompile(incremental), JSON.stringify(text)).toBe(describeCompile(whole));
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("reuses the nodes and edges of the statements the parser reused, and only those", () => {
    const parser = new IncrementalParser();
    const cache = new CompileCache();
    const lines = new LineMap(SAMPLE_WF);
    const before = compileAst(parser.reset(SAMPLE_WF, lines).ast, SAMPLE_WF, { cache });
    const at = SAMPLE_WF.indexOf("pack@1");
    const text = SAMPLE_WF.slice(0, at) + "packx@1" + SAMPLE_WF.slice(at + "pack@1".length);
    const region = { start: at, oldEnd: at + 4, newEnd: at + 5 };
    const after = compileAst(parser.update(text, lines.edited(text, region), region).ast, text, { cache });
    const nodesBefore = (before.definition as { nodes: unknown[] }).nodes;
    const nodesAfter = (after.definition as { nodes: { id: string }[] }).nodes;
    const reused = nodesAfter.map((node, index) => node === nodesBefore[index]);
    nodesAfter.forEach((node, index) => {
      const sameStatement = after.sourceMap.nodeOrigin(index) === before.sourceMap.nodeOrigin(index);
      expect(reused[index], `node ${node.id}`).toBe(sameStatement);
    });
    // The edited statement (and the one before it, where the parser restarts) are new; the rest are not.
    expect(nodesAfter.filter((_, index) => !reused[index]).map((node) => node.id)).toEqual(["compare", "report"]);
    (after.definition as { edges: unknown[] }).edges.forEach((edge, index) => expect(edge).toBe((before.definition as { edges: unknown[] }).edges[index]));
  });
});

describe("incremental compile across a `document` file", () => {
  // A `document` file compiles no graph, so its compile checks no chain and no part: the
  // compile after it must check them all against the names and subjects of its own text.
  it("checks names and subjects again after a compile that skipped the graph", () => {
    const texts = [
      'subject s = company "cmp_s" "S"\ngate a hold\ngate b hold\npart p = terminal.profile@1 { subjects [s] }\na -> b\n',
      'document { "x": 1 }\ngate a hold\npart p = terminal.profile@1 { subjects [s] }\na -> b\n',
      "gate a hold\npart p = terminal.profile@1 { subjects [s] }\na -> b\n",
    ];
    const parser = new IncrementalParser();
    const cache = new CompileCache();
    let lines = new LineMap(texts[0]!);
    compileAst(parser.reset(texts[0]!, lines).ast, texts[0]!, { cache });
    for (const text of texts.slice(1)) {
      // One edit: the common start and end of the two texts are kept.
      const previous = lines.text;
      let start = 0;
      while (start < Math.min(previous.length, text.length) && previous[start] === text[start]) start++;
      let tail = 0;
      while (tail < Math.min(previous.length, text.length) - start && previous[previous.length - 1 - tail] === text[text.length - 1 - tail]) tail++;
      const region = { start, oldEnd: previous.length - tail, newEnd: text.length - tail };
      lines = lines.edited(text, region);
      const parsed = parser.update(text, lines, region);
      expect(parsed.parsedChunks).toBeLessThan(parsed.totalChunks);
      expect(describeCompile(compileAst(parsed.ast, text, { cache }))).toBe(describeCompile(compileAst(parse(text).ast, text)));
    }
    const codes = compileAst(parse(texts[2]!).ast, texts[2]!).faults.map((fault) => fault.code);
    expect(codes).toEqual(["undeclared-subject", "undeclared-node"]);
  });
});

describe("incremental analysis in the language service", () => {
  const service = createLanguageService();

  it("ends every edit with the faults, verdict and estimate the CLI gives", () => {
    fc.assert(
      fc.property(fc.constantFrom(SAMPLE_WF, RICH_WF), fc.array(editArbitrary, { minLength: 1, maxLength: 20 }), (initial, edits) => {
        let document: WfkitDocument = service.createDocument({ uri: "file:///p.wf", language: "wf", version: 1, text: initial });
        document.analysis;
        for (const edit of edits) {
          const { start, end, insert } = locate(document.text, edit);
          document = service.updateDocument(document, document.version + 1, [{ range: document.lines.rangeOf(start, end), text: insert }]);
          const expected = analyzeSource(document.text, "wf");
          const actual = document.analysis;
          expect(serialise([actual.faults, actual.ok, actual.estimate, actual.definition]), JSON.stringify(document.text)).toBe(
            serialise([expected.faults, expected.ok, expected.estimate, expected.definition]),
          );
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("reuses the last check when an edit leaves the definition as it was, and patches it after an edit inside a node", () => {
    let document = service.createDocument({ uri: "file:///c.wf", language: "wf", version: 1, text: RICH_WF });
    document.analysis;
    const session = document.history!.checkSession;
    expect(session.lastMode).toBe("built");
    document = service.updateDocument(document, 2, [{ range: document.lines.rangeOf(0, 0), text: "# a new first line\n" }]);
    expect(serialise(document.analysis.faults)).toBe(serialise(analyzeSource(document.text, "wf").faults));
    expect(session.lastMode).toBe("same");
    const at = document.text.indexOf("pack@1");
    document = service.updateDocument(document, 3, [{ range: document.lines.rangeOf(at, at + 4), text: "packx" }]);
    expect(serialise(document.analysis.faults)).toBe(serialise(analyzeSource(document.text, "wf").faults));
    expect(session.lastMode).toBe("patched");
  });
});
