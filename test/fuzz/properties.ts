/**
 * The cross-package hostile-input properties, by name. Each is an arbitrary and a check that
 * throws (through `expect`) when the property does not hold; `properties.property.test.ts` runs them
 * (briefly in the unit suite, long under `npm run fuzz`), and `regressions.property.test.ts` replays
 * their saved counterexamples by calling `check` directly.
 *
 * They complement the packages' own property tests (which `npm run fuzz` also runs):
 * those check what the language means; these check that no input crashes, hangs, loses
 * text or pollutes a prototype.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { expect } from "vitest";
import { defaultCatalogue, loadCatalogue, validateDefinition } from "@wfkit/core";
import { analyzeSource, compile, decompile, format, jsonEqual, parse, type Span } from "@wfkit/dsl";
import { anyJson, definitionLike } from "../../packages/dsl/test/arbitraries.js";
import { validGraph } from "../../packages/core/test/arbitraries.js";
import { expectPrototypesUnchanged, prototypeSnapshot } from "../hostile/prototype.js";

export interface NamedProperty<T> {
  name: string;
  arbitrary: fc.Arbitrary<T>;
  check: (value: T) => void;
  /** Runs in the unit suite (FC_NUM_RUNS overrides it). */
  unitRuns: number;
}

const examplesDir = fileURLToPath(new URL("../../examples/", import.meta.url));
const exampleTexts = readdirSync(examplesDir)
  .filter((name) => name.endsWith(".wf") || name.endsWith(".json"))
  .map((name) => readFileSync(examplesDir + name, "utf8"));

/** Line-ending and encoding variants a file picks up on its way through editors and tools. */
const transport = fc.constantFrom(
  (text: string) => text,
  (text: string) => text.replace(/\n/g, "\r\n"),
  (text: string) => text.replace(/\n/g, "\r"),
  (text: string) => "\ufeff" + text,
  (text: string) => text.replace(/ /g, "\t"),
  (text: string) => text.replace(/\n/g, "\u2028"),
);

/** Examples, with edits of hostile pieces at random places, then a transport variant. */
const editedExample = fc
  .tuple(
    fc.constantFrom(...exampleTexts),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat({ max: 8 }),
        fc.oneof(
          fc.constantFrom("", "{", "}", "[", "]", '"', "\\", "\\u", "->", "@", ",", ":", "\u0000", "\ufffd", "\ud800", "\udc00", "__proto__", '"__proto__":', "constructor", "#", "/*", "//", "\r", "1e999", "-0"),
          fc.string({ unit: "binary", maxLength: 6 }),
        ),
      ),
      { minLength: 1, maxLength: 5 },
    ),
    transport,
  )
  .map(([text, edits, variant]) => {
    let out = text;
    for (const [at, remove, insert] of edits) {
      const position = at % (out.length + 1);
      out = out.slice(0, position) + insert + out.slice(position + remove);
    }
    return variant(out);
  });

/** Any text: random code units (lone surrogates included), edited examples, JSON of odd values. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  editedExample,
  fc.tuple(definitionLike, transport).map(([value, variant]) => variant(JSON.stringify(value, null, 1) ?? "")),
);

function expectInside(spans: Span[], text: string): void {
  for (const span of spans) {
    expect(span.start).toBeGreaterThanOrEqual(0);
    expect(span.end).toBeGreaterThanOrEqual(span.start);
    expect(span.end).toBeLessThanOrEqual(text.length);
  }
}

const analyseAnyText: NamedProperty<string> = {
  name: "dsl: every tool reads any text without throwing, placing faults in it and keeping prototypes clean",
  arbitrary: hostileText,
  unitRuns: 60,
  check: (text) => {
    const before = prototypeSnapshot();
    for (const language of ["wf", "json"] as const) {
      const analysis = analyzeSource(text, language);
      expectInside(
        analysis.faults.flatMap((fault) => [fault.span, ...(fault.related ?? []).map((related) => related.span)]),
        text,
      );
      // `ok` is never claimed over an error.
      if (analysis.ok) expect(analysis.faults.filter((fault) => fault.severity === "error")).toEqual([]);
      for (const fault of analysis.faults) {
        expect(fault.message.length).toBeGreaterThan(0);
        expect(fault.range.start.line).toBeGreaterThanOrEqual(0);
      }
    }
    parse(text);
    compile(text);
    const formatted = format(text);
    // Nothing lost: a text the formatter cannot read comes back exactly as it was.
    if (formatted.faults.some((diagnostic) => diagnostic.severity === "error")) expect(formatted.text).toBe(text);
    expectPrototypesUnchanged(before);
  },
};

const jsonTextKeepsItsValue: NamedProperty<{ value: unknown; indent: number; crlf: boolean; bom: boolean }> = {
  name: "dsl: a JSON text of any value reads back as exactly that value, __proto__ keys and all",
  arbitrary: fc.record({ value: fc.oneof(anyJson, definitionLike), indent: fc.nat(4), crlf: fc.boolean(), bom: fc.boolean() }),
  unitRuns: 60,
  check: ({ value, indent, crlf, bom }) => {
    const before = prototypeSnapshot();
    let text = JSON.stringify(value, null, indent) ?? "null";
    if (crlf) text = text.replace(/\n/g, "\r\n");
    if (bom) text = "\ufeff" + text;
    const analysis = analyzeSource(text, "json");
    expect(analysis.faults.filter((fault) => fault.code === "json-syntax")).toEqual([]);
    // JSON.parse keeps `__proto__` as an own key; so must wfkit, and -0 is written as 0.
    expect(jsonEqual(analysis.definition, JSON.parse(bom ? text.slice(1) : text))).toBe(true);
    expectPrototypesUnchanged(before);
  },
};

const validateAnything: NamedProperty<unknown> = {
  name: "core: validateDefinition answers any value, in the documented shape, deterministically",
  arbitrary: fc.oneof(
    fc.anything({ withNullPrototype: true, withSparseArray: true, withObjectString: true, withBoxedValues: true, withBigInt: true, withDate: true }),
    definitionLike,
    validGraph().map((graph) => graph.definition),
  ),
  unitRuns: 100,
  check: (input) => {
    const before = prototypeSnapshot();
    const result = validateDefinition(input);
    expect(Array.isArray(result.faults)).toBe(true);
    expect(result.ok).toBe(!result.faults.some((fault) => fault.severity === "error"));
    expect(Number.isInteger(result.estimate.costMinorUnits)).toBe(true);
    for (const fault of result.faults) expect(typeof fault.pointer).toBe("string");
    expect(validateDefinition(input)).toEqual(result);
    expectPrototypesUnchanged(before);
  },
};

/** The sample catalogue with one field somewhere replaced by an arbitrary value. */
const damagedCatalogue: fc.Arbitrary<unknown> = fc.tuple(fc.nat(), fc.constantFrom("partId", "versions", "requires", "produces", "unattendedSafe", "terminal", "cost", "__proto__", "jobs"), anyJson).map(([pick, field, value]) => {
  const catalogue = structuredClone(defaultCatalogue) as unknown as { parts: Record<string, unknown>[] };
  const part = catalogue.parts[pick % catalogue.parts.length]!;
  Object.defineProperty(part, field, { value, enumerable: true, configurable: true, writable: true });
  return catalogue;
});

const catalogueAnything: NamedProperty<{ catalogue: unknown; definition: unknown }> = {
  name: "core: any catalogue is loaded or refused with problems, and checking against it never blames the definition",
  arbitrary: fc.record({ catalogue: fc.oneof(anyJson, damagedCatalogue), definition: fc.oneof(definitionLike, validGraph().map((graph) => graph.definition)) }),
  unitRuns: 100,
  check: ({ catalogue, definition }) => {
    const before = prototypeSnapshot();
    const loaded = loadCatalogue(catalogue);
    if (!loaded.ok) expect(loaded.problems.length).toBeGreaterThan(0);
    const result = validateDefinition(definition, { catalogue: catalogue as never });
    // The catch-all fault ("could not be read as JSON data") would blame the definition for
    // the catalogue's mistake: a lie.
    expect(result.faults.map((fault) => fault.message).filter((message) => message.includes("could not be read"))).toEqual([]);
    if (!loaded.ok) expect(result.faults.map((fault) => fault.message)).toEqual([expect.stringContaining("not a valid catalogue")]);
    expectPrototypesUnchanged(before);
  },
};

const decompileAnyJson: NamedProperty<unknown> = {
  name: "dsl: decompile writes any JSON value as text that compiles back to it",
  arbitrary: fc.oneof(anyJson, definitionLike),
  unitRuns: 60,
  check: (value) => {
    const before = prototypeSnapshot();
    const text = decompile(value);
    const compiled = compile(text);
    expect(compiled.faults.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    expect(jsonEqual(compiled.definition, value)).toBe(true);
    expectPrototypesUnchanged(before);
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const namedProperties: NamedProperty<any>[] = [analyseAnyText, jsonTextKeepsItsValue, validateAnything, catalogueAnything, decompileAnyJson];

export function propertyNamed(name: string): NamedProperty<unknown> | undefined {
  return namedProperties.find((property) => property.name === name);
}
