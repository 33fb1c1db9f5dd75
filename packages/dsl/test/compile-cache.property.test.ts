/**
 * Compiling with a `CompileCache` gives exactly what compiling without one gives, whatever
 * the edits between two compiles; and the pieces of analysis the language server shares with
 * the CLI (dropping repeated faults) keep their meaning.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MAX_JSON_DEPTH, compileAst, CompileCache, OFFSET_FIELDS, OFFSET_LIST_FIELDS, parse, type CompiledAst, type SourceFault, type Statement, type WfFile } from "@wfkit/dsl";
import { withoutRepeats } from "../src/analyze.js";
import { compareFaults } from "../src/diagnostics.js";
import { DSL_RUNS } from "./arbitraries.js";
import { pointersOf } from "../../../test/support/pointers.js";

/** Statements (one per line) of every kind the cache keeps, checks across statements, or refuses. */
const LINES = [
  'workflow "w" with {"note": 1}',
  'subject s = company "cmp_s" "S" identifiers [1]',
  'subject s = company "cmp_t" "T"',
  'subject bad = company "cmp_b" "B" with {"kind": 1}',
  "trigger start on_demand",
  "trigger start on_demand",
  "part p = terminal.profile@1 { job profile.company@1 subjects [s] }",
  "part q = terminal.profile@1 { subjects [s, bad, none] }",
  "part r = pack@1 with {\"x\": 1}",
  "part r = pack@1 with {\"partId\": 2}",
  'node { "id": "p", "kind": "gate", "belowFloor": "hold" }',
  'node { "id": "n", "kind": "gate", "belowFloor": "hold" }',
  "gate g hold",
  "destination inbox standalone",
  "start -> p -> r -> inbox",
  "start -> q, n -> g with {\"w\": 1, \"w\": 2}",
  "p -> missing",
  'edge { "from": "start", "to": "n" }',
  'document { "a": 1 }',
  'version { trigger scheduled { schedule "x" } destination standalone }',
  "part = pack@1",
  "# a comment",
  "",
];

/** Every object of a value that holds offsets, once each. */
function offsetHoldersOf(value: unknown, into = new Set<Record<string, unknown>>()): Set<Record<string, unknown>> {
  if (value === null || typeof value !== "object") return into;
  if (Array.isArray(value)) {
    for (const element of value) offsetHoldersOf(element, into);
    return into;
  }
  const record = value as Record<string, unknown>;
  if (OFFSET_KEYS.some((key) => typeof record[key] === "number") || OFFSET_LIST_FIELDS.some((key) => Array.isArray(record[key]))) into.add(record);
  for (const key of Object.keys(record)) offsetHoldersOf(record[key], into);
  return into;
}

/** Syntax elements carry `start` and `end`; some also a bracket's or an arrow's offset (OFFSET_FIELDS). */
const OFFSET_KEYS: readonly string[] = ["start", "end", ...OFFSET_FIELDS];
const isOffsetList = (key: string) => (OFFSET_LIST_FIELDS as readonly string[]).includes(key);

/** Moves every offset in `statement` by `delta`. */
function moveBy(statement: Statement, delta: number): void {
  for (const holder of offsetHoldersOf(statement)) {
    for (const key of OFFSET_KEYS) if (typeof holder[key] === "number") (holder[key] as number) += delta;
    for (const key of OFFSET_LIST_FIELDS) {
      const list = holder[key];
      if (Array.isArray(list)) for (let i = 0; i < list.length; i++) list[i] += delta;
    }
  }
}

/** A statement's tree with its offsets counted from the statement's start: equal when only its place differs. */
function shape(statement: Statement): string {
  const origin = statement.start;
  return JSON.stringify(statement, (key, value: unknown) =>
    OFFSET_KEYS.includes(key) && typeof value === "number" ? value - origin : isOffsetList(key) && Array.isArray(value) ? value.map((offset: number) => offset - origin) : value,
  );
}

/**
 * The tree of `text` as an incremental parser would give it after an edit of the text of
 * `previous`: the statements at the start and at the end that did not change are the previous
 * tree's objects, their spans moved to their new place.
 */
function reuseStatements(previous: WfFile, text: string): WfFile {
  const fresh = parse(text).ast;
  const statements = [...fresh.statements];
  const old = previous.statements;
  let prefix = 0;
  while (prefix < Math.min(old.length, statements.length) && shape(old[prefix]!) === shape(statements[prefix]!)) prefix++;
  let suffix = 0;
  while (suffix < Math.min(old.length, statements.length) - prefix && shape(old[old.length - 1 - suffix]!) === shape(statements[statements.length - 1 - suffix]!)) suffix++;
  const reuse = (from: number, to: number) => {
    moveBy(old[from]!, statements[to]!.start - old[from]!.start);
    statements[to] = old[from]!;
  };
  for (let i = 0; i < prefix; i++) reuse(i, i);
  for (let i = 1; i <= suffix; i++) reuse(old.length - i, statements.length - i);
  return { ...fresh, statements };
}

function serialise(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => (typeof field === "number" && Object.is(field, -0) ? "<-0>" : field)) ?? "undefined";
}

function describeCompile(compiled: CompiledAst): string {
  const map = compiled.sourceMap;
  const places = pointersOf(compiled.definition).map((pointer) => [pointer, map.locate(pointer), map.locate(pointer, "key")]);
  return serialise({ definition: compiled.definition, diagnostics: compiled.faults, name: compiled.workflowName, places });
}

describe("CompileCache", () => {
  it("compiles what a compile without it gives, through random line edits", () => {
    const edit = fc.record({ at: fc.nat(), line: fc.constantFrom(...LINES), kind: fc.constantFrom("insert", "delete", "replace") });
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 12 }), fc.array(edit, { minLength: 1, maxLength: 15 }), (initial, edits) => {
        const cache = new CompileCache();
        let lines = initial;
        let text = lines.join("\n");
        let ast = parse(text).ast;
        compileAst(ast, text, { cache });
        for (const { at, line, kind } of edits) {
          const index = at % (lines.length + 1);
          lines = kind === "insert" ? [...lines.slice(0, index), line, ...lines.slice(index)] : [...lines.slice(0, index), ...(kind === "replace" ? [line] : []), ...lines.slice(index + 1)];
          text = lines.join("\n");
          ast = reuseStatements(ast, text);
          expect(describeCompile(compileAst(ast, text, { cache })), JSON.stringify(text)).toBe(describeCompile(compileAst(parse(text).ast, text)));
        }
      }),
      { numRuns: DSL_RUNS },
    );
  });

  it("copies a deeply nested subject for each reference without running out of stack", () => {
    // The subject's object is one level: the arrays take the rest of MAX_JSON_DEPTH.
    const depth = MAX_JSON_DEPTH - 1;
    const text = `subject deep = { "kind": "company", "x": ${"[".repeat(depth)}${"]".repeat(depth)} }\npart a = terminal.profile@1 { subjects [deep, deep] }\n`;
    const ast = parse(text).ast;
    const cache = new CompileCache();
    const compiled = compileAst(ast, text, { cache });
    const refs = (compiled.definition as { nodes: { terminal: { subjectRefs: unknown[] } }[] }).nodes[0]!.terminal.subjectRefs;
    // Plain comparisons: the matchers themselves recurse into values this deep.
    let a: unknown = (refs[0] as { x: unknown }).x;
    let b: unknown = (refs[1] as { x: unknown }).x;
    let levels = 0;
    let shared = refs[0] === refs[1];
    while (Array.isArray(a) && Array.isArray(b) && a.length === 1) {
      shared ||= a === b;
      a = a[0];
      b = b[0];
      levels++;
    }
    expect(shared).toBe(false);
    expect(levels).toBe(depth - 1);
    expect(compileAst(ast, text, { cache }).faults).toEqual(compiled.faults);
  });
});

describe("withoutRepeats", () => {
  const fault = fc.record({
    code: fc.constantFrom("a", "b", "c", "d"),
    message: fc.integer({ min: 0, max: 15 }).map(String),
    severity: fc.constantFrom("error" as const, "warning" as const),
    start: fc.integer({ min: 0, max: 1 }),
    length: fc.integer({ min: 0, max: 1 }),
  });

  it("drops exactly the faults whose code, span and message an earlier one has", () => {
    fc.assert(
      // Up to 300 faults on four spans: runs at one span longer than the pairwise limit too.
      fc.property(fc.array(fault, { maxLength: 300 }), (drawn) => {
        const faults: SourceFault[] = drawn.map(({ code, message, severity, start, length }) => ({
          code,
          message,
          severity,
          nodeId: null,
          pointer: "",
          span: { start, end: start + length },
          range: { start: { line: 0, character: start }, end: { line: 0, character: start + length } },
        }));
        const sorted = [...faults].sort(compareFaults);
        const seen = new Set<string>();
        const expected = sorted.filter((f) => {
          const key = `${f.code}\u0000${f.span.start}:${f.span.end}\u0000${f.message}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
        expect(withoutRepeats(sorted).map((f) => sorted.indexOf(f))).toEqual(expected.map((f) => sorted.indexOf(f)));
      }),
      { numRuns: DSL_RUNS },
    );
  });
});
