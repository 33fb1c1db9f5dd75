import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, decompile, format, jsonEqual } from "@wfkit/dsl";
import { anyJson, definitionLike, DSL_RUNS } from "./arbitraries.js";

/** compile(decompile(value)), failing loudly if the decompiled text has any diagnostic. */
function roundTrip(value: unknown): unknown {
  const text = decompile(value);
  const compiled = compile(text);
  expect(compiled.faults, text).toEqual([]);
  return compiled.definition;
}

describe("decompile then compile", () => {
  it("gives back any Definition, body or JSON value, valid or not", () => {
    fc.assert(
      fc.property(definitionLike, (value) => {
        const back = roundTrip(value);
        expect(jsonEqual(back, value), `${decompile(value)}\n${JSON.stringify(back)}`).toBe(true);
      }),
      { numRuns: DSL_RUNS },
    );
  });

  it("gives back arbitrary JSON, including -0 and __proto__ keys", () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        expect(jsonEqual(roundTrip(value), value)).toBe(true);
      }),
      { numRuns: DSL_RUNS },
    );
  });

  it("writes canonical text: formatting it changes nothing", () => {
    fc.assert(
      fc.property(definitionLike, (value) => {
        const text = decompile(value);
        expect(format(text).text).toBe(text);
      }),
      { numRuns: DSL_RUNS },
    );
  });
});
