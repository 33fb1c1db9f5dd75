/**
 * `parse` reads text the fast path declines a statement chunk at a time, sending only the
 * chunks it cannot read to chevrotain. Its result must be what chevrotain gives for the whole
 * text (the reference): the same tree and the same syntax errors, whatever the text. And the
 * work must follow the broken chunks, not the file: counted here as the characters chevrotain's
 * lexer is given (the benchmark times it: bench/dsl.mjs).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { DSL_RUNS } from "./arbitraries.js";
import { grammarText, mutated } from "./wf-arbitraries.js";

const lexed = vi.hoisted(() => ({ characters: 0 }));

vi.mock("chevrotain", async (importOriginal) => {
  const chevrotain = await importOriginal<typeof import("chevrotain")>();
  class CountingLexer extends chevrotain.Lexer {
    override tokenize(text: string, initialMode?: string): ReturnType<typeof chevrotain.Lexer.prototype.tokenize> {
      lexed.characters += text.length;
      return super.tokenize(text, initialMode);
    }
  }
  return { ...chevrotain, Lexer: CountingLexer };
});

const { chunkEnd, parse } = await import("@wfkit/dsl");

/** A whole text's chunks, each from where the one before it ends. */
function splitChunks(text: string): { start: number; text: string }[] {
  const chunks: { start: number; text: string }[] = [];
  let start = 0;
  do {
    const end = chunkEnd(text, start);
    chunks.push({ start, text: text.slice(start, end) });
    start = end;
  } while (start < text.length);
  return chunks;
}
const { parseWithChevrotain } = await import("../src/parser.js");
const { MAX_SYNTAX_ERRORS } = await import("../src/diagnostics.js");

const examplesDir = fileURLToPath(new URL("../../../examples/", import.meta.url));
const exampleTexts = readdirSync(examplesDir)
  .filter((name) => name.endsWith(".wf"))
  .map((name) => readFileSync(examplesDir + name, "utf8"));

function expectSameAsWholeText(text: string): void {
  const chunked = parse(text);
  const whole = parseWithChevrotain(text);
  // Serialised first (fast); the structural comparison, which also sees -0 and undefined fields, always.
  expect(JSON.stringify(chunked), JSON.stringify(text)).toBe(JSON.stringify(whole));
  expect(chunked, JSON.stringify(text)).toStrictEqual(whole);
}

/** Valid statements around one broken one (a mutated valid text), or a mutated example. */
const oneBrokenAmongValid = fc
  .tuple(fc.array(grammarText, { maxLength: 3 }), mutated(grammarText), fc.array(grammarText, { maxLength: 3 }), fc.constantFrom("\n", "\r\n", "\n\n# between\n"))
  .map(([before, broken, after, lineBreak]) => [...before, broken, ...after].join(lineBreak));

const mutatedExample = mutated(fc.constantFrom(...exampleTexts));

describe("parsing broken text a chunk at a time", () => {
  it("gives chevrotain's tree and syntax errors for the whole text: one broken statement among valid ones", () => {
    fc.assert(fc.property(oneBrokenAmongValid, expectSameAsWholeText), { numRuns: DSL_RUNS });
  });

  it("gives chevrotain's tree and syntax errors for the whole text: mutated examples", () => {
    fc.assert(fc.property(mutatedExample, expectSameAsWholeText), { numRuns: DSL_RUNS });
  });

  it("gives the same result near the error cap, and past it the whole text's (which says where it stopped)", () => {
    for (const lines of [300, 400, MAX_SYNTAX_ERRORS + 10]) expectSameAsWholeText("a -> b\nx ->\n".repeat(lines));
    const past = parse("x ->\n".repeat(MAX_SYNTAX_ERRORS + 10)).faults;
    expect(past[past.length - 1]!.message).toMatch(/^too many syntax errors: stopped after 1,000, and the text from line \d+ on was not checked/);
  });

  it("keeps a chain continued past a character no token matches with the line it continues", () => {
    // The fast path ends `a -> b` at its line break, but the lexer skips `§` and joins the lines.
    expectSameAsWholeText("x -> y\na -> b\n§ -> c\nd -> e\n");
    expect(parse("a -> b\n§ -> c\n").ast.statements).toHaveLength(1);
  });

  it("gives chevrotain only the chunks the fast path declines", () => {
    const valid = Array.from({ length: 2_000 }, (_, i) => `part p${i} = pack@1\np${i} -> floor`);
    const brokenLine = "part broken = = pack@1";
    valid.splice(1_000, 0, brokenLine);
    valid.splice(1_500, 0, "a -> -> b");
    const text = valid.join("\n") + "\n";
    lexed.characters = 0;
    const { faults } = parse(text);
    const lines = text.split("\n");
    expect(faults.map((diagnostic) => diagnostic.range.start.line)).toEqual([lines.indexOf(brokenLine), lines.indexOf("a -> -> b")]);
    // Each broken chunk (its line and a line break), and the two characters that mark "more follows".
    expect(lexed.characters).toBe(brokenLine.length + 1 + 2 + "a -> -> b".length + 1 + 2);
    expect(text.length).toBeGreaterThan(50_000);
  });
});

describe("chunkEnd", () => {
  it("cuts at line ends outside brackets, strings and comments", () => {
    const text = 'a -> b\npart p = x@1 {\n  job j@1\n}\n# { not a brace\nsubject s = company "{" "x"\nc -> d';
    expect(splitChunks(text).map((chunk) => chunk.text)).toEqual(["a -> b\n", "part p = x@1 {\n  job j@1\n}\n# { not a brace\n", 'subject s = company "{" "x"\n', "c -> d"]);
  });

  it("keeps blank and comment lines with the statement before them, and in linear time", () => {
    expect(splitChunks("# head\n\na -> b\n# c\n\n  # d\n§ x -> y\n# tail\n").map((chunk) => chunk.text)).toEqual(["# head\n\n", "a -> b\n# c\n\n  # d\n", "§ x -> y\n# tail\n"]);
    // A chain continued below many comment lines, and a statement below many more. Scanned
    // from each comment line to the next token, as it once was, this would take about 10^11
    // steps and never finish within the test's time.
    const comments = "# c\n".repeat(200_000);
    const text = `a -> b\n${comments}-> c\n${comments}d -> e\n`;
    expect(splitChunks(text).map((chunk) => chunk.start)).toEqual([0, text.lastIndexOf("d -> e")]);
    expect(parse(`${comments}a -> -> b\n`).faults).toHaveLength(1);
  });

  it("keeps a chain continued on a line starting with -> in one chunk, even across comments", () => {
    expect(splitChunks("a -> b\n  # more\n  -> c\nd -> e\n").map((chunk) => chunk.text)).toEqual(["a -> b\n  # more\n  -> c\n", "d -> e\n"]);
  });

  it("runs an unclosed brace to the end of the text, as the parser reads it", () => {
    expect(splitChunks("part p = x@1 {\na -> b\n").map((chunk) => chunk.text)).toEqual(["part p = x@1 {\na -> b\n"]);
  });

  it("treats \\r\\n and \\r as line ends and keeps the text whole", () => {
    const text = "a -> b\r\nc -> d\re -> f";
    const chunks = splitChunks(text);
    expect(chunks.map((chunk) => chunk.text)).toEqual(["a -> b\r\n", "c -> d\r", "e -> f"]);
    expect(chunks.map((chunk) => chunk.text).join("")).toBe(text);
    expect(chunks.map((chunk) => chunk.start)).toEqual([0, 8, 15]);
  });
});

describe("the parser's one-time set-up", () => {
  it("is timed apart, once per process, on the first text the fast path declines", () => {
    // A fresh process: nothing has built the chevrotain parser yet.
    const script = `
      import { parse, parserSetupMs } from "@wfkit/dsl";
      const before = parserSetupMs();
      parse("part p = pack@1\\n");
      const afterValid = parserSetupMs();
      parse("part = \\n");
      const afterBroken = parserSetupMs();
      parse("gate = = \\n");
      console.log(JSON.stringify({ before, afterValid, afterBroken, again: parserSetupMs() }));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: fileURLToPath(new URL("../../..", import.meta.url)), encoding: "utf8" });
    const { before, afterValid, afterBroken, again } = JSON.parse(output);
    expect(before).toBe(0);
    expect(afterValid).toBe(0);
    expect(afterBroken).toBeGreaterThan(0);
    expect(again).toBe(afterBroken);
  });
});
