import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, decompile, format, jsonEqual, parse } from "@wfkit/dsl";
import { printFile } from "../src/printer.js";
import { definitionLike, DSL_RUNS } from "./arbitraries.js";

describe("the formatter", () => {
  it("writes one canonical layout", () => {
    const input = [
      "  # leading comment",
      'workflow   "w"',
      "",
      "",
      "",
      "trigger start    on_demand",
      "part  compare =terminal.compare @1 {",
      "   job   compare.peers@1",
      '   subjects [ tesco ,"J S" ]',
      "}",
      'part   "report"   =  pack@1',
      'subject  tesco = company   "cmp_tesco"',
      'subject "J S" = company "cmp_sbry"',
      "start->compare   ->report",
    ].join("\n");
    expect(format(input).text).toBe(
      [
        "# leading comment",
        'workflow "w"',
        "",
        "trigger start on_demand",
        'part compare = terminal.compare@1 { job compare.peers@1 subjects [tesco, "J S"] }',
        "part report = pack@1",
        'subject tesco = company "cmp_tesco"',
        'subject "J S" = company "cmp_sbry"',
        "start -> compare -> report",
        "",
      ].join("\n"),
    );
  });

  it("keeps every comment, at the end of its line or before what follows it", () => {
    const input = [
      "part p = terminal.compare@1 {  # the block",
      "  job compare.peers@1  # the job",
      "  # before subjects",
      "  subjects [",
      "    a,  # first",
      "    b",
      "  ]",
      "  # at the end of the block",
      "}",
      'part q = pack@1 with {"a": 1,  # one',
      '  # before b',
      '  "b": [2]}',
      "p  # start",
      "  # between links",
      "  -> q  # last",
      "# at the end of the file",
    ].join("\n");
    const output = format(input).text;
    expect(output).toBe(
      [
        "part p = terminal.compare@1 {",
        "  # the block",
        "  job compare.peers@1  # the job",
        "  # before subjects",
        "  subjects [",
        "    a,  # first",
        "    b",
        "  ]",
        "  # at the end of the block",
        "}",
        "part q = pack@1 with {",
        '  "a": 1,  # one',
        "  # before b",
        '  "b": [2]',
        "}",
        "p  # start",
        "  # between links",
        "  -> q  # last",
        "# at the end of the file",
        "",
      ].join("\n"),
    );
    expect(jsonEqual(compile(output).definition, compile(input).definition)).toBe(true);
  });

  it("breaks a long chain into one link per line, and a long block into one property per line", () => {
    const names = Array.from({ length: 12 }, (_, i) => `step_number_${i}`);
    const output = format(names.join(" -> ") + "\n").text;
    expect(output.split("\n")[1]).toBe("  -> step_number_1");
    const block = format('part p = terminal.compare@1 { job compare.peers@1 subjects [a_rather_long_subject_name, another_rather_long_subject_name] }\n').text;
    expect(block).toBe(
      "part p = terminal.compare@1 {\n  job compare.peers@1\n  subjects [a_rather_long_subject_name, another_rather_long_subject_name]\n}\n",
    );
  });

  it("keeps a block-level `with` on its own line after `job`, where on one line it would be the job's", () => {
    const input = 'part p = t@1 {\n  job j@1\n  with {"x": 1}\n}\n';
    expect(format(input).text).toBe(input);
    expect(format(input).changed).toBe(false);
  });

  it("returns text with syntax errors unchanged, with the errors", () => {
    const input = "part a pack@1\n  gate   g\n";
    const result = format(input);
    expect(result).toMatchObject({ text: input, changed: false });
    expect(result.faults.map((diagnostic) => diagnostic.code)).toEqual(["syntax"]);
  });

  it("keeps a byte order mark and CRLF line ends", () => {
    expect(format("\ufeffpart  a\r\n\r\n\r\npart b\r\n").text).toBe("\ufeffpart a\r\n\r\npart b\r\n");
  });

  /** Decompiled text, re-indented, with comments and blank lines sprinkled in. */
  const messyText = fc
    .tuple(
      definitionLike,
      fc.array(fc.tuple(fc.nat(), fc.constantFrom("  # note", "", "\t", "   "), fc.boolean()), { maxLength: 8 }),
    )
    .map(([value, edits]) => {
      const lines = decompile(value).split("\n");
      for (const [at, piece, ownLine] of edits) {
        const index = at % lines.length;
        if (ownLine) lines.splice(index, 0, piece.trim().startsWith("#") ? "# own line" : piece);
        else if (piece.trim().startsWith("#")) lines[index] = lines[index] + piece;
        else lines[index] = piece + lines[index];
      }
      return lines.join("\n");
    });

  it("is idempotent, keeps every comment and never changes the compiled JSON", () => {
    fc.assert(
      fc.property(messyText, (text) => {
        const parsed = parse(text);
        if (parsed.faults.length) return; // only text that parses is formatted
        const once = format(text);
        // The layout was applied (the formatter did not fall back to the original text).
        expect(once.text).toBe(printFile(parsed.ast, { text }));
        expect(format(once.text).text).toBe(once.text);
        expect(jsonEqual(compile(once.text).definition, compile(text).definition)).toBe(true);
        const comments = (source: string) => parse(source).ast.comments.map((comment) => comment.text.trimEnd());
        expect(comments(once.text).sort()).toEqual(comments(text).sort());
      }),
      { numRuns: DSL_RUNS },
    );
  });
});
