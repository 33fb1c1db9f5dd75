/**
 * `parseJsonSource` from the last version's parse (`previous`): an edit inside a value reads
 * that value again, not the whole text. Held to a whole read of the same text, edit after
 * edit: the same value (key order and -0 included), faults, tree and place of every pointer;
 * the last version's value left untouched, and every object outside the edit shared with it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseJsonSource, type JsonSource } from "@wfkit/dsl";
import { definitionLike } from "./arbitraries.js";
import { numRuns } from "../../../test/support/num-runs.js";

type Node = NonNullable<JsonSource["tree"]>;

/** The tree as a flat list (a deep one must not overflow the stack): each node's type, place, scalar value and child count, read in full, in order. */
function treeOf(root: Node | undefined): unknown[] {
  const flat: unknown[] = [];
  const stack: { node: Node; parent: Node | undefined }[] = root ? [{ node: root, parent: undefined }] : [];
  while (stack.length) {
    const { node, parent } = stack.pop()!;
    if (node.parent !== parent) throw new Error(`node at ${node.offset}: wrong parent`);
    const scalar = node.type === "string" || node.type === "number" || node.type === "boolean" || node.type === "null";
    flat.push([node.type, node.offset, node.length, scalar ? node.value : undefined, node.children?.length]);
    for (const child of [...(node.children ?? [])].reverse()) stack.push({ node: child, parent: node });
  }
  return flat;
}

function pointersOf(value: unknown, base = ""): string[] {
  const pointers = [base];
  if (Array.isArray(value)) {
    pointers.push(`${base}/${value.length}`);
    value.forEach((item, i) => pointers.push(...pointersOf(item, `${base}/${i}`)));
  } else if (value && typeof value === "object") {
    pointers.push(`${base}/missing`);
    for (const [key, item] of Object.entries(value)) pointers.push(...pointersOf(item, `${base}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`));
  }
  return pointers;
}

/** Key order, which toEqual does not see. */
function keyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keyOrder);
  if (value && typeof value === "object") return Object.entries(value).map(([key, item]) => [key, keyOrder(item)]);
  return typeof value;
}

function deepFreeze(value: unknown): void {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
}

/** Every object of `next` is `previous`'s own except those that hold the edit (copies on its path). */
function sharedOutside(previous: unknown, next: unknown, path: unknown[] = []): number {
  if (previous === next || !previous || !next || typeof previous !== "object" || typeof next !== "object") return previous === next && previous && typeof previous === "object" ? 1 : 0;
  let shared = 0;
  for (const [key, item] of Object.entries(next)) shared += sharedOutside((previous as Record<string, unknown>)[key], item, [...path, key]);
  return shared;
}

function expectSameAsWhole(edited: JsonSource, text: string, deep = false): JsonSource {
  const whole = parseJsonSource(text);
  expect(edited.complete).toBe(whole.complete);
  if (deep) {
    // Thousands of levels: compared as text (no -0 nor repeated keys there).
    expect(JSON.stringify(edited.value)).toBe(JSON.stringify(whole.value));
  } else {
    expect(edited.value).toEqual(whole.value);
    expect(keyOrder(edited.value)).toEqual(keyOrder(whole.value));
  }
  expect(edited.faults).toEqual(whole.faults);
  expect(treeOf(edited.tree)).toEqual(treeOf(whole.tree));
  for (const pointer of deep ? ["", "/a", "/a/0/0/0"] : pointersOf(whole.value).slice(0, 400))
    for (const part of ["value", "key"] as const) expect([pointer, part, edited.sourceMap.locate(pointer, part)]).toEqual([pointer, part, whole.sourceMap.locate(pointer, part)]);
  return whole;
}

const strict = (source: JsonSource) => source.complete && !source.faults.some((fault) => fault.code === "json-syntax");

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

/** An edit somewhere, or (more often) inside a string: where a keystroke in a definition lands. */
const edit = fc.record({
  at: fc.nat(),
  inString: fc.boolean(),
  remove: fc.constantFrom(0, 0, 1, 1, 2, 3),
  insert: fc.constantFrom("", "x", "1", "é", '"', "\\", "{", "}", "[", "]", ",", ":", " ", "\n", "-", "e", "null", '"k": 1, ', "ab", '{"a": [1]}'),
});

function place(text: string, choice: { at: number; inString: boolean; remove: number; insert: string }): Edit {
  let at = choice.at % (text.length + 1);
  if (choice.inString) {
    const quote = text.indexOf('"', at);
    if (quote >= 0) at = quote + 1;
  }
  return { at, remove: Math.min(choice.remove, text.length - at), insert: choice.insert };
}

function apply(text: string, { at, remove, insert }: Edit): { text: string; edit: { start: number; oldEnd: number; newEnd: number } } {
  return { text: text.slice(0, at) + insert + text.slice(at + remove), edit: { start: at, oldEnd: at + remove, newEnd: at + insert.length } };
}

const layouts = fc.constantFrom<[string | number, string]>([2, ""], [0, ""], ["\t", "\n"], [4, "\n"]);
const document = fc.tuple(definitionLike, layouts, fc.boolean()).map(([value, [indent, end], bom]) => (bom ? "\ufeff" : "") + JSON.stringify(value, null, indent) + end);
/** A key written twice somewhere: an object that repeats a key is read whole. */
const repeating = document.map((text) => text.replace(/"id": ("[^"\\]*")/, '"id": $1, "id": "again"'));

describe("parseJsonSource after an edit (previous)", () => {
  it("gives what reading the whole text gives, edit after edit", () => {
    let edits = 0;
    let incremental = 0;
    fc.assert(
      // readWhole 0: each edit followed down to the smallest value holding it (the default reads a small document's values whole).
      fc.property(fc.oneof(document, repeating), fc.array(edit, { minLength: 1, maxLength: 6 }), fc.constantFrom(0, 0, 0, undefined), (start, choices, readWhole) => {
        let text = start;
        let source = parseJsonSource(text);
        for (const choice of choices) {
          deepFreeze(source.value);
          const next = apply(text, place(text, choice));
          const edited = parseJsonSource(next.text, true, { previous: { source, edit: next.edit }, readWhole });
          const whole = expectSameAsWhole(edited, next.text);
          // Edits that leave strict JSON strict, of which those read alone.
          if (strict(source) && strict(whole)) {
            edits++;
            if (sharedOutside(source.value, edited.value) > 0) incremental++;
          }
          text = next.text;
          source = edited;
        }
      }),
      { numRuns: numRuns(150) },
    );
    // Most edits that leave the text strict JSON are read alone (the property alone would pass on whole reads too).
    expect(incremental / edits).toBeGreaterThan(0.5);
  });

  it("reads only the value an edit is in, and copies only the containers above it", () => {
    const nodes = Array.from({ length: 50 }, (_, i) => ({ id: `n${i}`, partId: "pack", partVersion: "1" }));
    const text = JSON.stringify({ schemaVersion: 1, nodes, edges: [{ from: "n0", to: "n1" }] }, null, 2);
    const source = parseJsonSource(text);
    deepFreeze(source.value);
    const at = text.indexOf('"pack"', text.indexOf('"n25"')) + 5;
    const next = apply(text, { at, remove: 0, insert: "x" });
    const parsed: string[] = [];
    const parse = JSON.parse;
    JSON.parse = ((input: string, ...rest: []) => (parsed.push(input), parse(input, ...rest))) as typeof JSON.parse;
    let edited: JsonSource;
    try {
      edited = parseJsonSource(next.text, true, { previous: { source, edit: next.edit } });
    } finally {
      JSON.parse = parse;
    }
    // The value `"packx"` is read (its node is short enough to read whole); the rest are keys on
    // the way to it: no reading of the text as a whole.
    expect(parsed.some((input) => input.includes('"packx"'))).toBe(true);
    expect(parsed.every((input) => input.length < 300)).toBe(true);
    const before = source.value as { nodes: unknown[]; edges: unknown[] };
    const after = edited.value as { nodes: { partId: string }[]; edges: unknown[] };
    expect(after.nodes[25]!.partId).toBe("packx");
    expect(after.edges).toBe(before.edges);
    expect(after.nodes.filter((node, i) => node === before.nodes[i]).length).toBe(49);
    expectSameAsWhole(edited, next.text);
  });

  it("reads the whole text when the value an edit is in nests past the limit, or the text is no longer strict JSON", () => {
    const deep = "[".repeat(MAX_JSON_DEPTH - 2) + "0" + "]".repeat(MAX_JSON_DEPTH - 2);
    const text = `{"a": ${deep}}`;
    const source = parseJsonSource(text);
    expect(source.faults).toEqual([]);
    const at = text.indexOf("0");
    for (const insert of ["[[1]]", "[1]", "1,", "// x"]) {
      const next = apply(text, { at, remove: 1, insert });
      expectSameAsWhole(parseJsonSource(next.text, true, { previous: { source, edit: next.edit } }), next.text, true);
    }
  });

  it("places a value with blanks typed at either end of it as a whole read does", () => {
    const text = '{\n  "constructor": [\n    null,\n    null\n  ],\n  "b": {"c": "d"}\n}';
    const source = parseJsonSource(text);
    for (const at of [text.indexOf("]") + 1, text.indexOf("["), text.indexOf('"d"'), text.indexOf('"d"') + 3, text.indexOf("null") + 4])
      for (const insert of [" ", "\n  ", "\t"])
        for (const readWhole of [0, undefined]) {
          const next = apply(text, { at, remove: 0, insert });
          expectSameAsWhole(parseJsonSource(next.text, true, { previous: { source, edit: next.edit }, readWhole }), next.text);
        }
  });

  it("moves the repeated keys after the edit, and finds those the edit makes", () => {
    const text = '{\n  "a": {"k": 1, "k": 2},\n  "b": "text",\n  "c": {"m": 1, "m": 2}\n}\n';
    const source = parseJsonSource(text);
    expect(source.faults).toHaveLength(2);
    for (const [at, insert] of [
      [text.indexOf("text") + 2, "more\\nlines"],
      [text.indexOf('"m": 2') + 5, "20"],
      [text.indexOf('"k": 2') + 1, "x"],
      // Inside the value of a key written twice: JSON.parse keeps the last, whatever the first becomes.
      [text.indexOf('"k": 1') + 6, "0"],
      [text.indexOf('"k": 2') + 6, "0"],
    ] as const) {
      const next = apply(text, { at, remove: 0, insert });
      for (const readWhole of [0, undefined]) expectSameAsWhole(parseJsonSource(next.text, true, { previous: { source, edit: next.edit }, readWhole }), next.text);
    }
  });
});
