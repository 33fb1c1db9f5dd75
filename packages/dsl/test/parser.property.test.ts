import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeSource, compile, format, parse, type Span } from "@wfkit/dsl";
import { DSL_RUNS } from "./arbitraries.js";

const examplesDir = fileURLToPath(new URL("../../../examples/", import.meta.url));
const exampleTexts = readdirSync(examplesDir)
  .filter((name) => name.endsWith(".wf"))
  .map((name) => readFileSync(examplesDir + name, "utf8"));

/** Pieces of `.wf` (and of broken `.wf`), joined at random: realistic token soup. */
const tokenSoup = fc
  .array(
    fc.constantFrom(
      "part", "trigger", "gate", "destination", "subject", "workflow", "version", "node", "edge", "document", "with", "job", "subjects",
      "schedule", "timezone", "scope", "identifiers", "true", "null", "compare", "terminal.compare", "pack", "@1", "@", '"x y"', '"unclosed',
      '"bad \\q"', "->", "-", ">", ",", "=", "{", "}", "[", "]", ":", "1", "-0", "1e400", "#c", "\n", "\r\n", "\r", " ", "\t", "é", "📦", "'", "\ufeff",
    ),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(" "));

/** An example with a few random edits: characters removed, pieces inserted, lines swapped. */
const mutatedExample = fc
  .tuple(
    fc.constantFrom(...exampleTexts),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 }), fc.constantFrom("", "{", "}", "->", '"', "\n", "@", "[", ",", "with {", "part")), { minLength: 1, maxLength: 4 }),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [at, remove, insert] of edits) {
      const position = at % (out.length + 1);
      out = out.slice(0, position) + insert + out.slice(position + remove);
    }
    return out;
  });

const anyText = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: "grapheme", maxLength: 30 }), tokenSoup, mutatedExample);

/** Every {start, end} span found anywhere in a value (iteratively). */
function spansIn(root: unknown): Span[] {
  const spans: Span[] = [];
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    const record = value as Record<string, unknown>;
    if (typeof record["start"] === "number" && typeof record["end"] === "number") spans.push(record as unknown as Span);
    else for (const key of Object.keys(record)) stack.push(record[key]);
  }
  return spans;
}

function expectInside(spans: Span[], text: string): void {
  for (const span of spans) {
    expect(span.start).toBeGreaterThanOrEqual(0);
    expect(span.end).toBeGreaterThanOrEqual(span.start);
    expect(span.end).toBeLessThanOrEqual(text.length);
  }
}

describe("the parser on any text", () => {
  it("never throws, and returns a tree and diagnostics whose spans and ranges lie in the text", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const { ast, faults } = parse(text);
        expect(ast.type).toBe("file");
        expect(Array.isArray(faults)).toBe(true);
        expectInside(spansIn(ast), text);
        expectInside(
          faults.map((diagnostic) => diagnostic.span),
          text,
        );
        const lineCount = text.split(/\r\n|\r|\n/).length;
        for (const diagnostic of faults) {
          expect(diagnostic.code).toBe("syntax");
          expect(diagnostic.range.end.line).toBeLessThan(lineCount);
          // Messages speak the language's words, never chevrotain's token names.
          expect(diagnostic.message).not.toMatch(/Keyword_|StringLiteral|NonNewline|JsonToken|VersionLiteral|-->/);
        }
      }),
      { numRuns: DSL_RUNS },
    );
  });

  it("compiles, formats and analyses any text without throwing; every fault and source-map span lies in the text", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const compiled = compile(text);
        expectInside(
          compiled.faults.map((diagnostic) => diagnostic.span),
          text,
        );
        for (const pointer of ["", "/nodes/0", "/nodes/0/terminal/subjectRefs/0/kind", "/edges/0/to", "/scope/graph/nodes/1/partId", "/trigger/kind", "/x~1y"]) {
          expectInside([compiled.sourceMap.spanOf(pointer), compiled.sourceMap.spanOf(pointer, "key")], text);
        }
        const formatted = format(text);
        if (formatted.faults.length) expect(formatted.text).toBe(text);
        for (const language of ["wf", "json"] as const) {
          const analysis = analyzeSource(text, language);
          expectInside(
            analysis.faults.flatMap((fault) => [fault.span, ...(fault.related ?? []).map((related) => related.span)]),
            text,
          );
        }
      }),
      { numRuns: DSL_RUNS },
    );
  });

  it("reports each of several independent typos, keeping the statements around them", () => {
    const text = ["trigger start on_demand", "part a = pack@1 extra", "part b = = pack@1", "gate g", "part c pack@1", "destination d standalone", "start -> a -> b -> g -> d"].join("\n");
    const { ast, faults } = parse(text);
    expect(faults.map((diagnostic) => diagnostic.range.start.line)).toEqual([1, 2, 4]);
    expect(ast.statements.map((statement) => statement.type)).toEqual(["trigger", "part", "part", "gate", "part", "destination", "chain"]);
  });
});
