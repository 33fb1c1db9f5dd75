import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, compile, decompile, format, jsonEqual, parse, syntheticSource } from "@wfkit/dsl";

// Sizes that would overflow the stack if anything recursed per node, edge or link. No clock:
// timings belong to the benchmark (bench/), which uses syntheticSource too.
describe("large files", () => {
  it("compile 100,000 nodes", () => {
    const result = compile(syntheticSource(100_000));
    expect(result.faults).toEqual([]);
    const definition = result.definition as { nodes: unknown[]; edges: unknown[] };
    expect(definition.nodes).toHaveLength(100_002);
    expect(definition.edges).toHaveLength(100_001);
  });

  it("compile, format and decompile a chain of 10,000 links in one statement", () => {
    const text = syntheticSource(10_000, { edges: "chain" });
    const result = compile(text);
    expect(result.faults).toEqual([]);
    expect((result.definition as { edges: unknown[] }).edges).toHaveLength(10_001);
    const formatted = format(text);
    expect(formatted.changed).toBe(true); // too long for one line: one link per line
    expect(jsonEqual(compile(formatted.text).definition, result.definition)).toBe(true);
    const back = decompile(result.definition);
    expect(back.match(/->/g)).toHaveLength(10_001);
    expect(jsonEqual(compile(back).definition, result.definition)).toBe(true);
  });

  it("read and write JSON nested as deep as wfkit reads (MAX_JSON_DEPTH levels)", () => {
    const depth = MAX_JSON_DEPTH;
    const text = `node ${"[".repeat(depth)}${"]".repeat(depth)}\n`;
    expect(parse(text).faults).toEqual([]);
    const value = compile(text).definition as { nodes: unknown[] };
    let inner: unknown = value.nodes[0];
    let levels = 0;
    while (Array.isArray(inner) && inner.length) {
      inner = inner[0];
      levels++;
    }
    expect(levels).toBe(depth - 1);
    const back = compile(decompile(value)).definition;
    expect(jsonEqual(back, value)).toBe(true);
  });

  it("refuses a literal one level deeper, or far deeper, with one syntax error at the first bracket too deep", () => {
    const cases = [
      { text: `node ${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}\n`, at: 5 + MAX_JSON_DEPTH },
      { text: `node ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`, at: 5 + MAX_JSON_DEPTH },
      { text: `trigger t on_demand with {"ui": ${'{"a": '.repeat(10_000)}1${"}".repeat(10_000)}}\n`, at: 32 + 6 * (MAX_JSON_DEPTH - 1) },
      { text: `subject s = {"x": ${"[".repeat(5_000)}\n`, at: 18 + MAX_JSON_DEPTH - 1 },
    ];
    for (const { text, at } of cases) {
      for (const faults of [parse(text).faults, compile(text).faults.filter((d) => d.code === "syntax"), format(text).faults]) {
        expect(faults.map((d) => [d.code, d.span.start])).toEqual([["syntax", at]]);
        expect(faults[0]!.message).toMatch(/more than 2,000 levels deep/);
      }
      // What compile does give (a partial definition) can be written as JSON text.
      expect(() => JSON.stringify(compile(text).definition)).not.toThrow();
    }
  });
});
