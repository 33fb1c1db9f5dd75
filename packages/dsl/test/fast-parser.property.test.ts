/**
 * The fast parser (fast-parser.ts) against the reference, chevrotain (parseWithChevrotain):
 * on valid text it must build exactly the reference's tree, and it must never accept text the
 * reference reports an error in, or read any text differently.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decompile, format, KEYWORD_TEXTS, parse, syntheticSource, type WfFile } from "@wfkit/dsl";
import { fastParse } from "../src/fast-parser.js";
import { parseWithChevrotain } from "../src/parser.js";
import { anyJson, definitionLike, DSL_RUNS } from "./arbitraries.js";
import { grammarText, mutated } from "./wf-arbitraries.js";

const examplesDir = fileURLToPath(new URL("../../../examples/", import.meta.url));
const exampleNames = readdirSync(examplesDir).filter((name) => name.endsWith(".wf"));
const exampleTexts = exampleNames.map((name) => readFileSync(examplesDir + name, "utf8"));

/**
 * Where two trees differ, or undefined when they are the same: same field names in the same
 * order (fields present but undefined included), same array lengths, primitives equal by
 * `Object.is` (so -0 is not 0), and the same objects shared between nodes (the language
 * server shifts span objects in place, once each). Iterative: JSON nests thousands deep.
 */
function treeDifference(fast: unknown, reference: unknown): string | undefined {
  const pairs = new Map<object, object>();
  const reversePairs = new Map<object, object>();
  const stack: Array<[unknown, unknown, string]> = [[fast, reference, ""]];
  while (stack.length) {
    const [a, b, path] = stack.pop()!;
    if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
      if (!Object.is(a, b)) return `${path || "/"}: ${String(a)} against ${String(b)}`;
      continue;
    }
    const seenA = pairs.get(a);
    const seenB = reversePairs.get(b);
    if (seenA !== undefined || seenB !== undefined) {
      if (seenA !== b || seenB !== a) return `${path}: an object shared in one tree but not in the other`;
      continue;
    }
    pairs.set(a, b);
    reversePairs.set(b, a);
    if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array against non-array`;
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    if (keysA.join("\u0000") !== keysB.join("\u0000")) return `${path}: fields ${keysA.join(",")} against ${keysB.join(",")}`;
    for (const key of keysA) stack.push([(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}/${key}`]);
  }
  return undefined;
}

function expectSameTree(fast: WfFile, reference: WfFile, text: string): void {
  expect(treeDifference(fast, reference), JSON.stringify(text)).toBeUndefined();
}

/** Valid text: the reference reads it without a diagnostic, and the fast path reads it the same. */
function expectAcceptedAlike(text: string): void {
  const reference = parseWithChevrotain(text);
  expect(reference.faults, `the generated text is not valid: ${JSON.stringify(text)}`).toEqual([]);
  const fast = fastParse(text);
  expect(fast, `the fast path declined valid text: ${JSON.stringify(text)}`).toBeDefined();
  expectSameTree(fast!, reference.ast, text);
}

/**
 * Any text: the fast path accepts exactly what the reference reads without a diagnostic, and
 * reads it the same. (It declines no valid construct today; if it ever should, weaken the
 * second direction here and list the construct in fast-parser.ts.)
 */
function expectAgreement(text: string): void {
  const reference = parseWithChevrotain(text);
  const fast = fastParse(text);
  if (fast) {
    expect(reference.faults, `the fast path accepted text the reference rejects: ${JSON.stringify(text)}`).toEqual([]);
    expectSameTree(fast, reference.ast, text);
  } else {
    expect(reference.faults.length, `the fast path declined valid text: ${JSON.stringify(text)}`).toBeGreaterThan(0);
  }
}

/** Layout changes that keep any valid text valid (no line ends inside strings, comments end at line ends). */
const relayout = fc.constantFrom(
  (text: string) => text,
  (text: string) => text.replace(/\n/g, "\r\n"),
  (text: string) => text.replace(/\n/g, "\r"),
  (text: string) => "\ufeff" + text,
  (text: string) => text.replace(/\n/g, " # end of line\n"),
  (text: string) => text.replace(/\n/g, "\n\n  # a comment line\n\t"),
  (text: string) => text.replace(/\n/g, "\n   "),
);

const decompiledText = fc.oneof(definitionLike, anyJson).map((value) => decompile(value));

/** Valid texts: decompiled values, examples and grammar-written text, relaid out, and formatted. */
const validText = fc
  .tuple(fc.oneof(decompiledText, fc.constantFrom(...exampleTexts), grammarText), relayout, fc.boolean())
  .map(([text, variant, formatted]) => {
    const laidOut = variant(text);
    return formatted ? format(laidOut).text : laidOut;
  });

describe("the fast parser", () => {
  it("reads every example (it must not become dead code)", () => {
    expect(exampleNames.length).toBeGreaterThanOrEqual(8);
    for (const text of exampleTexts) expectAcceptedAlike(text);
  });

  it("is compared with the reference by a comparison that sees spans, field order, undefined fields, -0 and sharing", () => {
    const text = 'part p = pack@1 with {"a": -0}\n';
    const tree = () => fastParse(text)!;
    expect(treeDifference(tree(), tree())).toBeUndefined();
    const moved = tree();
    moved.statements[0]!.end += 1;
    expect(treeDifference(moved, tree())).toContain("/statements/0/end");
    const reordered = tree();
    const { type, ...rest } = reordered.statements[0]!;
    reordered.statements[0] = { ...rest, type } as typeof reordered.statements[0];
    expect(treeDifference(reordered, tree())).toContain("fields");
    const dropped = tree();
    delete (dropped.statements[0] as { block?: unknown }).block;
    expect(treeDifference(dropped, tree())).toContain("fields");
    const zero = tree();
    const literal = (zero.statements[0] as { with: { value: { members: Array<{ value: { value: number } }> } } }).with.value;
    literal.members[0]!.value.value = 0;
    expect(treeDifference(zero, tree())).toContain("0 against 0");
    // One object in two places against two equal objects.
    const twice = tree();
    twice.statements.push(twice.statements[0]!);
    const equalPair = tree();
    equalPair.statements.push(tree().statements[0]!);
    expect(treeDifference(equalPair, equalPair)).toBeUndefined();
    expect(treeDifference(twice, equalPair)).toContain("shared");
  });

  it("is what parse() uses on valid text, and parse() still explains broken text", () => {
    const text = exampleTexts[0]!;
    expect(parse(text)).toStrictEqual({ ast: fastParse(text), faults: [] });
    const broken = parse("part p = pack@1 extra\n");
    expect(broken.faults.map((diagnostic) => diagnostic.message)).toEqual(["expected `{`, `with` or a new line after `@1`, found `extra`"]);
    expect(fastParse("part p = pack@1 extra\n")).toBeUndefined();
  });

  it("reads large and deeply nested files, as the reference does", () => {
    for (const text of [syntheticSource(2_000), syntheticSource(2_000, { edges: "chain" }), `node ${"[".repeat(2_000)}${"]".repeat(2_000)}\n`]) expectAcceptedAlike(text);
  });

  it("reads constructs at the edges of the grammar as the reference does", () => {
    const texts = [
      "workflow",
      "workflow with",
      "workflow with {}",
      "workflow identifiers",
      "gate g with",
      "gate g identifiers",
      "subject s = company c identifiers",
      "subject s = company c identifiers [1]",
      "subject s = company c with",
      "subject s = company with",
      'subject s = "a" b',
      "subject s = true b",
      'subject s = {"a": 1}',
      "part\n-> x",
      "a\n# c\n\n  -> b",
      "part p { trigger x }",
      "trigger t with {}",
      "version { scope with {} }",
      "a -> b with 1",
      "document 1",
      "a -> with",
      "with -> a",
      'part p = x @ "v"',
      "part p = x@1.0+b",
      'node {"a": [1,\n2]}',
      "x, y -> z, w",
      "part p { subjects [\n a,\n b\n] }",
      'node {"a":{"b":[{},[],{"c":-0}]},"d":1e400, "e": "\\u00e9\\/\\n"}',
      "\ufeffa -> b # c",
      "version {\n trigger x\n}",
      "a->b,c->d",
      "part p=x@\"1\"{job j@2 with{}subjects[a]}with[]",
      "\f\v\u00a0a\u00a0->\ufeffb",
      // Declined (each is an error to the reference).
      "workflow with x",
      "workflow identifiers [1]",
      "subject s = company c identifiers x",
      "subject s = [1]",
      "part p { job x\n trigger y }",
      "part p {\n trigger x\n}",
      "document 1e",
      "a, b",
      "document [1,]",
      "document {,}",
      "document {\"a\" 1}",
      "node\n{}",
      "part p = x@",
      "part p = x@\n\"v\"",
      'a -> "b',
      'a -> "b\\q"',
      'a -> "b\\u12"',
      "a -> café",
      "a -> b\u2028",
      "a -> b -",
      "a -> 1b",
      "a -> b c",
      "part p { subjects [a,] }",
      "part p { subjects [a\n, b] }",
      "part p { subjects\n[a] }",
      "node {\n\"a\": x}",
      // Words, numbers and strings near a token's edge.
      "part p { subjectsxxxxxxx [a] }",
      "part p { jobs x }",
      "a -> b withx {}",
      "version { scopes with {} }",
      "documents 1",
      "document 1.",
      "node [1.]",
      "document 1.e5",
      "document -",
      "document 01",
      "document 1e+",
      "document .5",
      "document +1",
      "a -> b- c",
      "a -> b-.c",
      "a -> b.-c",
      "part p = x@1.",
      "part p = x@1+",
    ];
    for (const text of texts) expectAgreement(text);
  });

  it("builds the reference's tree for any generated valid text", () => {
    fc.assert(fc.property(validText, expectAcceptedAlike), { numRuns: DSL_RUNS });
  });

  it("builds the reference's tree for text written from the grammar, in any layout", () => {
    fc.assert(fc.property(grammarText, expectAcceptedAlike), { numRuns: DSL_RUNS * 2 });
  });

  it("splits words, numbers, versions and strings into tokens exactly as the chevrotain lexer does", () => {
    // Near-misses of each token, in the places the grammar reads them.
    const lexeme = fc.oneof(
      fc.stringMatching(/^[-+0-9.eE]{1,7}$/),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.>-]{0,7}$/),
      fc.tuple(fc.constantFrom(...KEYWORD_TEXTS), fc.stringMatching(/^[A-Za-z0-9_.>-]{0,4}$/)).map(([word, tail]) => word + tail),
      fc.stringMatching(/^@[A-Za-z0-9_.+" -]{0,7}$/),
      fc
        .array(fc.constantFrom("a", "\\", '"', "u", "0", "F", "g", "n", "/", "b", "\n", "\r", "\t", "é", "\u2028", "\ud800"), { maxLength: 9 })
        .map((parts) => '"' + parts.join("") + (parts.length % 3 ? '"' : "")),
    );
    const contexts = ["document %", "a -> %", "% -> b", "part p = x%", "part p = x %", "part p { % x }", "part p { job j% }", "node [%]", "node {%: 1}", "subject s = % c", "gate g %", "version { % }", "a -> b with %"];
    fc.assert(
      fc.property(fc.constantFrom(...contexts), lexeme, (context, piece) => expectAgreement(context.replace("%", piece))),
      { numRuns: DSL_RUNS * 4 },
    );
  });

  it("never accepts text the reference rejects, nor reads any text differently", () => {
    const pool = fc.oneof(decompiledText, fc.constantFrom(...exampleTexts), grammarText);
    fc.assert(fc.property(mutated(pool), expectAgreement), { numRuns: DSL_RUNS * 4 });
  });
});
