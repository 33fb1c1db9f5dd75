import { createToken, Lexer } from "chevrotain";
import { describe, expect, it, vi } from "vitest";
import { allTokens, Keywords, lex, Name, StringLiteral, wfLexer } from "../src/lexer.js";

describe("the lexer", () => {
  it("keeps chevrotain's first-character optimisation (ensureOptimizations: true)", () => {
    expect((wfLexer() as unknown as { config: { ensureOptimizations: boolean } }).config.ensureOptimizations).toBe(true);
    // Building the same token set with the check on succeeds...
    expect(() => new Lexer(allTokens, { ensureOptimizations: true, positionTracking: "onlyOffset" })).not.toThrow();
    // ...and the check has teeth: a Unicode property escape would have failed it.
    const unicodeName = createToken({ name: "UnicodeName", pattern: /[\p{L}_][\p{L}\p{N}_]*/u });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => new Lexer([unicodeName], { ensureOptimizations: true })).toThrow(/cannot be optimized/);
    quiet.mockRestore();
  });

  it("reads keywords as keywords only when they are whole words", () => {
    const types = (text: string) => lex(text).tokens.map((token) => token.tokenType);
    expect(types("part")).toEqual([Keywords.part]);
    expect(types("subjects subject")).toEqual([Keywords.subjects, Keywords.subject]);
    expect(types("partner part.v2 part-x")).toEqual([Name, Name, Name]);
  });

  it("reads `a->b` as a name, an arrow and a name, and names with inner dots and dashes", () => {
    expect(lex("a->b").tokens.map((token) => token.image)).toEqual(["a", "->", "b"]);
    expect(lex("terminal.deep_dive grocer-compare").tokens.map((token) => token.image)).toEqual(["terminal.deep_dive", "grocer-compare"]);
  });

  it("keeps comments apart from the tokens", () => {
    const lexed = lex("part a # note\n# own line");
    expect(lexed.comments.map((comment) => comment.image)).toEqual(["# note", "# own line"]);
    expect(lexed.tokens.map((token) => token.image)).toEqual(["part", "a", "\n"]);
  });

  it("turns an unclosed string into a string and a problem, so the line still reads", () => {
    const lexed = lex('subject s = company "abc\npart x');
    expect(lexed.tokens[4]?.tokenType).toBe(StringLiteral);
    expect(lexed.problems).toEqual([{ offset: 20, length: 4, message: expect.stringContaining("not closed") }]);
  });

  it("reports invalid escapes where they are", () => {
    const lexed = lex('"ok \\n bad \\q \\u12"');
    expect(lexed.problems.map((problem) => [problem.offset, problem.message.slice(0, 20)])).toEqual([
      [11, "invalid escape `\\q`:"],
      [14, "invalid escape `\\u12"],
    ]);
  });

  it("asks for quotes around a name with non-ASCII letters, underlining the whole word", () => {
    const lexed = lex("part café = pack@1");
    expect(lexed.problems).toEqual([{ offset: 5, length: 4, message: expect.stringContaining('write "café"') }]);
  });
});
