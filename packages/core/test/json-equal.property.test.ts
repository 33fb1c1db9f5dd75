import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { jsonEqual } from "@wfkit/core";
import { runs } from "./arbitraries.js";

/** JSON text with `-0` kept apart from `0`; `sortKeys` writes every object's keys in order. */
function serialise(value: unknown, sortKeys: boolean): string {
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : JSON.stringify(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((element) => serialise(element, sortKeys)).join(",")}]`;
  const keys = Object.keys(value);
  if (sortKeys) keys.sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${serialise((value as Record<string, unknown>)[key], sortKeys)}`).join(",")}}`;
}

/** A value and a copy of it with every object's keys in another order. */
function reordered(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(reordered);
  return Object.fromEntries(Object.entries(value).reverse().map(([key, field]) => [key, reordered(field)]));
}

describe("jsonEqual", () => {
  const json = fc.jsonValue({ maxDepth: 3 });

  for (const keyOrder of [false, true]) {
    it(`is true exactly when the JSON texts agree${keyOrder ? ", key order included" : " with keys sorted"}`, () => {
      fc.assert(
        fc.property(json, json, fc.boolean(), fc.boolean(), (a, b, share, shuffle) => {
          // Sharing a part between the two, as versions of a compiled definition do.
          const left = share ? { shared: a, own: b } : a;
          const right = share ? { shared: a, own: shuffle ? reordered(b) : structuredClone(b) } : shuffle ? reordered(b) : b;
          expect(jsonEqual(left, right, { keyOrder })).toBe(serialise(left, !keyOrder) === serialise(right, !keyOrder));
        }),
        runs(300),
      );
    });
  }

  it("tells apart key order only when asked, and always -0 and an array's length", () => {
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 }, { keyOrder: true })).toBe(false);
    expect(jsonEqual([0], [-0])).toBe(false);
    expect(jsonEqual([1, 2], [1, 2, 3], { keyOrder: true })).toBe(false);
    expect(jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] }, { keyOrder: true })).toBe(true);
  });
});
