// The lexer on pathological text, without a clock (the time-bounded backtracking property is
// test/fuzz/redos.mjs, run by the benchmark): the work it does is counted instead, through
// the problems it reports, which is what went quadratic.
import { describe, expect, it } from "vitest";
import { analyzeSource, parse } from "@wfkit/dsl";

describe("the lexer on pathological text", () => {
  it("a 30,000-character word of non-ASCII letters mixed with ASCII is one problem, not one per letter", () => {
    // Found by test/fuzz/redos.mjs: each `é` in `é1eé1e…` was described separately, and each
    // description rescanned the whole word (quadratic: 3 s for 20,000 characters).
    const text = "é1e".repeat(10_000) + "\n";
    const words = parse(text).faults.filter((diagnostic) => diagnostic.message.includes("must be quoted"));
    expect(words).toHaveLength(1);
    expect(words[0]!.span).toEqual({ start: 0, end: 30_000 });
  });

  it("separate non-ASCII words are still each reported", () => {
    const messages = analyzeSource("x = éaé ü\n", "wf").faults.map((fault) => fault.message);
    expect(messages.filter((message) => message.includes("must be quoted"))).toEqual([
      '`éaé` must be quoted: a bare name is ASCII letters, digits, `_`, `-` and `.`; write "éaé"',
      '`ü` must be quoted: a bare name is ASCII letters, digits, `_`, `-` and `.`; write "ü"',
    ]);
  });

  it("a string of 100,000 backslashes without its closing quote is one unclosed-string problem", () => {
    const faults = analyzeSource(`trigger "${"\\".repeat(100_001)}\n`, "wf").faults;
    expect(faults.map((fault) => fault.message)).toContain('this string is not closed: add `"` before the end of the line');
  });

  it("100,000 invalid escapes in one string: the first 1,000 are each placed, in order, and one fault counts the rest", () => {
    const faults = parse(`trigger "${"\\q".repeat(100_000)}" on_demand\n`).faults;
    expect(faults).toHaveLength(1_001);
    expect(faults.slice(0, 1_000).map((fault) => fault.span.start)).toEqual(Array.from({ length: 1_000 }, (_, i) => 9 + 2 * i));
    expect(faults[1_000]!.message).toBe("99,000 more syntax errors not shown (at most 1,000 are reported); fix the errors above and check again");
  });

  it("a dotted name of 100,000 segments ending in a dot is read up to the dot", () => {
    const name = "a.".repeat(100_000);
    const faults = parse(`part p = ${name}@1\n`).faults;
    expect(faults).toHaveLength(1);
    expect(faults[0]!.span.start).toBe(9 + name.length - 1);
  });
});
