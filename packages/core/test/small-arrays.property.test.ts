/**
 * The checker's small typed arrays are cut from shared chunks: each must start zeroed and own
 * its memory, as a new typed array does, whatever was cut and written before it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { int32Array, uint8Array } from "../src/checker/small-arrays.js";

describe("int32Array and uint8Array", () => {
  it("give zeroed arrays of the length asked for that share no memory, across chunks and sizes", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.oneof(fc.nat(80), fc.nat(5000))), { minLength: 1, maxLength: 120 }), (requests) => {
        const made: (Int32Array | Uint8Array)[] = [];
        for (const [wide, length] of requests) {
          const array = wide ? int32Array(length) : uint8Array(length);
          expect(array).toBeInstanceOf(wide ? Int32Array : Uint8Array);
          expect(array.length).toBe(length);
          expect(array.every((item) => item === 0)).toBe(true);
          // Each array is filled with its own number: a later one overlapping it would change it.
          array.fill((made.length % 100) + 1);
          made.push(array);
        }
        made.forEach((array, i) => expect(array.every((item) => item === (i % 100) + 1)).toBe(true));
      }),
      { numRuns: 200 },
    );
  });
});
