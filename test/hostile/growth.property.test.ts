// Hostile text that used to take superlinear time, each shape at two sizes 4x apart. No clock:
// each test counts the work that grew (edit distances worked out, syntax errors copied,
// statements read after the error cap) or compares the answer of a bounded path with the full
// one. Timings of the same shapes are in the benchmark (`npm run bench`, bench/hostile.mjs).
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { numRuns } from "../support/num-runs.js";

const work = vi.hoisted(() => ({ distances: 0, comparedChars: 0 }));

vi.mock("fastest-levenshtein", async (importOriginal) => {
  const original = await importOriginal<typeof import("fastest-levenshtein")>();
  return {
    ...original,
    distance: (a: string, b: string) => {
      work.distances++;
      work.comparedChars += a.length + b.length;
      return original.distance(a, b);
    },
  };
});

const { analyzeSource, parse, parseJsonSource } = await import("@wfkit/dsl");
const { parseWithChevrotain, sharedParser } = await import("../../packages/dsl/src/parser.js");
const { MAX_SYNTAX_ERRORS } = await import("../../packages/dsl/src/diagnostics.js");
const { Suggester } = await import("@wfkit/core");

/** The edit-distance work done by `run`. */
function counted(run: () => void): { distances: number; comparedChars: number } {
  work.distances = 0;
  work.comparedChars = 0;
  run();
  return { ...work };
}

describe("text with a syntax error on every line", () => {
  const errorDense = (lines: number) => "x ->\n".repeat(lines);

  it("copies chevrotain's error list once per parse, not once per statement", () => {
    // Chevrotain's `errors` getter returns a copy; reading it per statement was quadratic.
    // Measured on chevrotain's parse of the whole text, which error-dense text comes to past
    // half the cap (`parse` reads fewer errors a chunk at a time).
    let prototype: object | null = sharedParser();
    while (prototype && !Object.getOwnPropertyDescriptor(prototype, "errors")) prototype = Object.getPrototypeOf(prototype);
    const getter = Object.getOwnPropertyDescriptor(prototype!, "errors")!.get!;
    let copied = 0;
    const spy = vi.spyOn(prototype as { errors: unknown[] }, "errors", "get").mockImplementation(function (this: unknown) {
      const errors = getter.call(this) as unknown[];
      copied += errors.length;
      return errors;
    });
    try {
      const copiedFor = (lines: number) => {
        copied = 0;
        expect(parseWithChevrotain(errorDense(lines)).faults.length).toBeGreaterThanOrEqual(lines);
        return copied;
      };
      const small = copiedFor(150);
      const large = copiedFor(600);
      expect(small).toBeGreaterThan(0);
      expect(large / small).toBeLessThanOrEqual(4.5);
    } finally {
      spy.mockRestore();
    }
  });

  for (const [shape, text] of [
    ["`x ->` lines", errorDense],
    ["lines of unmatched braces", (lines: number) => "a{\n".repeat(lines)],
    ["lines of stray punctuation", (lines: number) => ", ] : @\n".repeat(lines)],
    ["a block whose lines are all broken", (lines: number) => `trigger t on_demand {\n${"  x -> {\n".repeat(lines)}}\n`],
  ] as const) {
    it(`stops at ${MAX_SYNTAX_ERRORS} syntax errors with one fault saying where (${shape})`, () => {
      const at = (lines: number) => parse(text(lines));
      const small = at(MAX_SYNTAX_ERRORS * 2);
      const large = at(MAX_SYNTAX_ERRORS * 8);
      for (const result of [small, large]) {
        expect(result.faults).toHaveLength(MAX_SYNTAX_ERRORS + 1);
        const summary = result.faults.at(-1)!;
        expect(summary.code).toBe("syntax");
        expect(summary.message).toMatch(/^too many syntax errors: stopped after 1,000, and the text from line \d+ on was not checked; fix the errors above and check again$/);
        expect(summary.range.start.line).toBeGreaterThan(result.faults.at(-2)!.range.start.line - 1);
      }
      // The work done (statements read) does not grow with the text past the cap.
      expect(large.ast.statements.length).toBe(small.ast.statements.length);
      expect(large.faults.map((d) => d.message)).toEqual(small.faults.map((d) => d.message));
    });
  }

  it("reports every error of a text below the cap, and no summary", () => {
    const result = parse(errorDense(MAX_SYNTAX_ERRORS - 10));
    expect(result.faults).toHaveLength(MAX_SYNTAX_ERRORS - 10);
    expect(result.faults.some((d) => d.message.startsWith("too many syntax errors"))).toBe(false);
  });

  it("the CLI-facing analysis says the file is not ok and keeps the summary last", () => {
    const analysis = analyzeSource(errorDense(MAX_SYNTAX_ERRORS * 3), "wf");
    expect(analysis.ok).toBe(false);
    expect(analysis.definition).toBeUndefined();
    const syntax = analysis.faults.filter((fault) => fault.code === "syntax");
    expect(syntax).toHaveLength(MAX_SYNTAX_ERRORS + 1);
    expect(syntax.at(-1)!.message).toMatch(/^too many syntax errors/);
  });
});

describe("did-you-mean searches in .wf have a work budget", () => {
  const longName = (length: number) => `trigger start on_demand\ndestination ${"a".repeat(length)} standalone\nstart -> ${"a".repeat(length - 1)}b\n`;

  it("one long misspelt name costs no edit distance, at any length", () => {
    for (const length of [2_000, 8_000]) {
      let analysis!: ReturnType<typeof analyzeSource>;
      const spent = counted(() => (analysis = analyzeSource(longName(length), "wf")));
      expect(spent.comparedChars).toBeLessThan(1_000);
      const undeclared = analysis.faults.find((fault) => fault.code === "undeclared-node")!;
      expect(undeclared.message).toContain("no node named");
      expect(undeclared.suggestion).toBeUndefined();
    }
  });

  it("a short misspelt name still gets its suggestion", () => {
    const analysis = analyzeSource("trigger start on_demand\ndestination inbox standalone\nstart -> inbx\n", "wf");
    const undeclared = analysis.faults.find((fault) => fault.code === "undeclared-node")!;
    expect(undeclared.suggestion).toBe("inbox");
    expect(undeclared.message).toContain("did you mean `inbox`?");
  });

  const manyMisspelt = (count: number) => {
    let text = "trigger start on_demand\ndestination inbox standalone\n";
    for (let i = 0; i < count; i++) text += `part p${i} = pack@1\n`;
    for (let i = 0; i < count; i++) text += `start -> q${i}x\n`;
    return text;
  };

  it("many misspelt names: the edit distances of a file stop growing at the budget", () => {
    const budget = 2_000_000; // Suggester's default, one for the DSL and one for the checker
    const small = counted(() => analyzeSource(manyMisspelt(800), "wf"));
    const large = counted(() => analyzeSource(manyMisspelt(3_200), "wf"));
    expect(small.distances).toBeGreaterThan(0);
    expect(large.distances).toBeLessThanOrEqual(2 * budget);
    expect(large.distances / small.distances).toBeLessThan(6);
  });

  it("long candidates are charged by their size: a search among long names stops early", () => {
    const pad = "n".repeat(150);
    const names = Array.from({ length: 4_000 }, (_, i) => `${pad}${i}`);
    const suggester = new Suggester();
    const spent = counted(() => {
      for (let i = 0; i < 4_000; i++) suggester.closest(`${pad}${i}xy`, names);
    });
    // Without the charge: 16 million comparisons of 300 characters.
    expect(spent.comparedChars).toBeLessThan(20_000_000);
  });
});

describe("a large .json definition is placed through a lazily read tree", () => {
  /** Every pointer of a JSON value (and one missing field below each object), in document order. */
  function pointersOf(value: unknown, base = ""): string[] {
    const pointers = [base];
    if (Array.isArray(value)) value.forEach((item, i) => pointers.push(...pointersOf(item, `${base}/${i}`)));
    else if (value && typeof value === "object") {
      pointers.push(`${base}/missing`);
      for (const [key, item] of Object.entries(value)) pointers.push(...pointersOf(item, `${base}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`));
    }
    return pointers;
  }

  const definitions = [
    `{"schemaVersion": 1, "nodes": [{"id": "a", "kind": "trigger", "trigger": {"kind": "on_demand"}}], "edges": []}`,
    `{\n  "schemaVersion": 1,\n  "nodes": [\n    {\n      "id": "p",\n      "partId": "pak",\n      "partVersion": "1"\n    }\n  ],\n  "edges": [{"from": "a", "to": "p"}],\n  "x~/y": [1, -0, 2.5e3, true, false, null, "s\\"\\u00e9"]\n}`,
    `\ufeff{"a": {"b": {"c": [[], {}, [{"d": "e"}]]}}, "a": 2, "__proto__": {"k": 1}}`,
    `  [1, {"k": "v", "k": "w"}, "x"]  `,
    `{"many": {${Array.from({ length: 40 }, (_, i) => `"k${i}": ${i}`).join(", ")}, "k3": "last"}}`,
  ];

  for (const text of definitions) {
    it(`places every pointer as the full tree does: ${JSON.stringify(text.slice(0, 40))}`, () => {
      const full = parseJsonSource(text, false);
      const lazy = parseJsonSource(text, true);
      expect(lazy.complete).toBe(true);
      expect(lazy.value).toEqual(full.value);
      expect(lazy.faults).toEqual(full.faults);
      for (const pointer of pointersOf(full.value)) {
        for (const part of ["value", "key"] as const) expect([pointer, part, lazy.sourceMap.locate(pointer, part)]).toEqual([pointer, part, full.sourceMap.locate(pointer, part)]);
      }
    });
  }

  /** JSON text built as written, so that keys repeat, colons sit in strings and `\u` escapes write them. */
  type Written = { leaf: string } | { object: [string, Written][] } | { array: Written[] };
  const writtenJson = fc.letrec<{ value: Written; object: Written; array: Written }>((tie) => ({
    value: fc.oneof({ depthSize: "small", withCrossShrink: true }, fc.constantFrom("1", "-0", "2.5e3", "true", "false", "null", '"s"', '"t:u"', '"\\u003a"', '"q\\"r"', '"::"').map((leaf) => ({ leaf })), tie("object"), tie("array")),
    object: fc.array(fc.tuple(fc.constantFrom("id", "kind", "a", "a:b", "__proto__", "x~/y", "\\u003a", "\\u0061", ":", "é"), tie("value")), { maxLength: 5 }).map((object) => ({ object })),
    array: fc.array(tie("value"), { maxLength: 4 }).map((array) => ({ array })),
  }));
  function write(value: Written, indent: string, colon: string, depth = 0): string {
    const inner = indent ? "\n" + indent.repeat(depth + 1) : "";
    const outer = indent ? "\n" + indent.repeat(depth) : "";
    if ("leaf" in value) return value.leaf;
    const items = "object" in value ? value.object.map(([key, item]) => `"${key}"${colon}${write(item, indent, colon, depth + 1)}`) : value.array.map((item) => write(item, indent, colon, depth + 1));
    const [open, close] = "object" in value ? ["{", "}"] : ["[", "]"];
    return items.length ? open + items.map((item) => inner + item).join(",") + outer + close : open + close;
  }
  const bySpan = (faults: { span: { start: number }; message: string }[]) => [...faults].sort((a, b) => a.span.start - b.span.start || a.message.localeCompare(b.message));

  it("places the faults and pointers of random strict JSON as the full tree does", () => {
    fc.assert(
      fc.property(writtenJson.value, fc.constantFrom("", "  ", "\t"), fc.constantFrom(":", ": ", " : "), fc.boolean(), (root, indent, colon, bom) => {
        const text = (bom ? "\ufeff" : "") + write(root, indent, colon) + (indent ? "\n" : "");
        const full = parseJsonSource(text, false);
        const strict = parseJsonSource(text, true);
        expect(strict.complete).toBe(full.complete);
        expect(strict.value).toEqual(full.value);
        expect(bySpan(strict.faults)).toEqual(bySpan(full.faults));
        for (const pointer of pointersOf(full.value)) {
          for (const part of ["value", "key"] as const) expect([pointer, part, strict.sourceMap.locate(pointer, part)]).toEqual([pointer, part, full.sourceMap.locate(pointer, part)]);
        }
      }),
      { numRuns: numRuns(300) },
    );
  });

  it("text that is not strict JSON keeps the full tree and its syntax errors", () => {
    const text = `{"schemaVersion": 1, // a comment\n "nodes": [], "edges": [],}`;
    expect(parseJsonSource(text, true).faults).toEqual(parseJsonSource(text, false).faults);
    expect(parseJsonSource(text, true).faults.length).toBeGreaterThan(0);
  });
});
