import { describe, expect, it } from "vitest";
import { parse } from "@wfkit/dsl";
import type { SourceFault } from "@wfkit/dsl";
import { applySuppressions, parseSuppressions as parseWith, placeComments, suppressionWorkSteps } from "../src/suppress.js";

/** A fault at the start of a line; its span is not read by suppressions (they go by line). */
const fault = (code: string, line: number, severity: "error" | "warning" = "warning"): SourceFault => ({
  code,
  severity,
  message: code,
  nodeId: null,
  pointer: "",
  range: { start: { line, character: 0 }, end: { line, character: 1 } },
  span: { start: 0, end: 1 },
});

/** Suppressions of a `.wf` text, with its comments found by the DSL's lexer as in `check`. */
const parseSuppressions = (text: string) => parseWith(text, parse(text).ast.comments);
const comments = (text: string) => placeComments(text, parse(text).ast.comments);

describe("placeComments", () => {
  it("places own-line and trailing comments; a # inside a string is not one", () => {
    expect(comments('# top\nnode a = "x # not" # tail\n').map((c) => [c.line, c.character, c.trailing, c.text])).toEqual([
      [0, 0, false, "# top"],
      [1, 19, true, "# tail"],
    ]);
  });

  it("handles escaped quotes inside strings, and a byte order mark", () => {
    expect(comments('x "a \\" # b" # c').map((c) => c.text)).toEqual(["# c"]);
    expect(comments("\ufeff# first").map((c) => [c.line, c.character, c.trailing])).toEqual([[0, 0, false]]);
  });
});

describe("parseSuppressions", () => {
  it("makes an own-line comment cover the next line of code, skipping blanks and comments", () => {
    const { suppressions, faults } = parseSuppressions("# wfkit-ignore dead-end: later\n\n# other\nnode a\n");
    expect(faults).toEqual([]);
    expect(suppressions).toHaveLength(1);
    expect(suppressions[0]!.targetLine).toBe(3);
    expect(suppressions[0]!.reason).toBe("later");
    expect(suppressions[0]!.codes.map((c) => c.code)).toEqual(["dead-end"]);
  });

  it("makes a trailing comment cover its own line, and reads several codes", () => {
    const { suppressions } = parseSuppressions("node a  # wfkit-ignore dead-end, unknown-field: migrating\n");
    expect(suppressions[0]!.targetLine).toBe(0);
    expect(suppressions[0]!.codes.map((c) => [c.code, c.range.start.character, c.range.end.character])).toEqual([
      ["dead-end", 23, 31],
      ["unknown-field", 33, 46],
    ]);
  });

  it("reports a suppression without a reason, and one without codes", () => {
    const { suppressions, faults } = parseSuppressions("# wfkit-ignore dead-end\nnode a\n# wfkit-ignore: because\nnode b\n");
    expect(suppressions).toHaveLength(1);
    expect(faults.map((f) => [f.code, f.range.start.line])).toEqual([
      ["suppression-without-reason", 0],
      ["malformed-suppression", 2],
    ]);
  });

  it("ignores comments that are not directives", () => {
    expect(parseSuppressions("# wfkit-ignored is a word\n# just a note\n").suppressions).toEqual([]);
  });
});

describe("applySuppressions", () => {
  const text = "# wfkit-ignore dead-end: later\nnode a\n";

  it("removes a covered warning and reports nothing else", () => {
    expect(applySuppressions([fault("dead-end", 1)], parseSuppressions(text))).toEqual([]);
  });

  it("keeps faults on other lines or with other codes", () => {
    const kept = [fault("dead-end", 2), fault("unknown-field", 1)];
    const result = applySuppressions(kept, parseSuppressions(text));
    expect(result.slice(0, 2)).toEqual(kept);
    expect(result.slice(2).map((f) => f.code)).toEqual(["unused-suppression"]);
  });

  it("refuses to suppress an error and does not call that suppression unused", () => {
    const result = applySuppressions([fault("cycle", 1, "error")], parseSuppressions("# wfkit-ignore cycle: no\nnode a\n"));
    expect(result.map((f) => [f.code, f.severity])).toEqual([
      ["cycle", "error"],
      ["suppression-of-error", "warning"],
    ]);
  });

  it("reports one suppression-of-error however many errors it names on the line", () => {
    const result = applySuppressions([fault("cycle", 1, "error"), fault("cycle", 1, "error")], parseSuppressions("# wfkit-ignore cycle: no\nnode a\n"));
    expect(result.filter((f) => f.code === "suppression-of-error")).toHaveLength(1);
  });

  it("refuses an error code even when nothing matches it, and never calls it unused", () => {
    const result = applySuppressions([], parseSuppressions("# wfkit-ignore cycle: no\nnode a\n"));
    expect(result.map((f) => f.code)).toEqual(["suppression-of-error"]);
  });

  it("says when a code is not a wfkit code at all", () => {
    const result = applySuppressions([], parseSuppressions("# wfkit-ignore dead-ends: typo\nnode a\n"));
    expect(result.map((f) => [f.code, f.message])).toEqual([["unused-suppression", "`dead-ends` is not a wfkit fault code, so this suppression does nothing; correct or remove it"]]);
  });

  it("suppresses every warning of the code on the covered line", () => {
    expect(applySuppressions([fault("unknown-field", 1), fault("unknown-field", 1)], parseSuppressions(text.replace("dead-end", "unknown-field")))).toEqual([]);
  });

  it("refuses the error instances of a code that can be either", () => {
    const result = applySuppressions([fault("number-precision", 1, "error")], parseSuppressions("# wfkit-ignore number-precision: big\nnode a\n"));
    expect(result.map((f) => f.code)).toEqual(["number-precision", "suppression-of-error"]);
  });

  it("reports each unused code of a suppression, at the code", () => {
    const result = applySuppressions([fault("dead-end", 0)], parseSuppressions("node a # wfkit-ignore dead-end, unknown-field: x\n"));
    expect(result.map((f) => [f.code, f.range.start.character])).toEqual([["unused-suppression", 32]]);
    expect(result[0]!.message).toContain("unknown-field");
  });
});

describe("work", () => {
  /**
   * The shapes that were quadratic: a run of own-line suppressions (each looked ahead over the
   * rest of the run for its line of code) and many faults against many suppressions (each
   * fault scanned every suppression). Steps are counted, not timed.
   */
  function stepsFor(n: number): number {
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`# wfkit-ignore dead-end, unknown-field: kept ${i}`);
    for (let i = 0; i < n; i++) lines.push(`node n${i} # wfkit-ignore dead-end: trailing ${i}`);
    const text = lines.join("\n") + "\n";
    const faults = [] as SourceFault[];
    for (let i = 0; i < n; i++) faults.push(fault("dead-end", n + i), fault("unknown-field", n + i), fault("cycle", n + i, "error"));
    const comments = parse(text).ast.comments;
    const before = suppressionWorkSteps();
    const result = applySuppressions(faults, parseWith(text, comments));
    const steps = suppressionWorkSteps() - before;
    // Every dead end is covered and the errors stay; the run's `unknown-field` covers line n only.
    expect(result.filter((f) => f.code === "cycle")).toHaveLength(n);
    expect(result.filter((f) => f.code === "dead-end")).toHaveLength(0);
    expect(result.filter((f) => f.code === "unknown-field").map((f) => f.range.start.line)).toEqual(faults.filter((f) => f.code === "unknown-field").slice(1).map((f) => f.range.start.line));
    return steps;
  }

  it("grows linearly with comments and faults (4x the input, at most 4.5x the steps)", () => {
    const small = stepsFor(500);
    const large = stepsFor(2_000);
    expect(small).toBeGreaterThan(0);
    expect(large / small).toBeLessThan(4.5);
  });
});
