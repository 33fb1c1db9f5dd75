/** The terminal charts: exact pictures of small inputs, and properties of any input (width, range, order). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockChart, resample, sparkline } from "../src/terminal-chart.js";

describe("sparkline", () => {
  it("draws lowest to highest with the ramp of each style", () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8], true)).toBe("▁▂▃▄▅▆▇█");
    expect(sparkline([1, 2, 3, 4], false)).toBe("_.-^");
    expect(sparkline([3, 3, 3], false)).toBe("...");
    // Two columns of mean 5: a flat line, drawn in the middle.
    expect(sparkline([0, 10, 0, 10], false, 2)).toBe("..");
  });

  it("is as long as the values or the width, whichever is less", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 100 }), fc.boolean(), (values, width, unicode) => {
        const line = sparkline(values, unicode, width);
        expect([...line]).toHaveLength(Math.min(values.length, width));
        expect(line).toMatch(unicode ? /^[▁▂▃▄▅▆▇█]+$/u : /^[_.\-^]+$/);
      }),
    );
  });
});

describe("resample", () => {
  it("keeps values that fit, and otherwise averages each column's share in order", () => {
    expect(resample([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(resample([1, 3, 5, 7], 2)).toEqual([2, 6]);
    expect(resample([1, 2, 3, 4, 5, 6], 4)).toEqual([1, 2.5, 4, 5.5]);
  });

  it("every column lies within the range of the values", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 500 }), fc.integer({ min: 1, max: 120 }), (values, columns) => {
        const out = resample(values, columns);
        expect(out).toHaveLength(Math.min(values.length, columns));
        for (const value of out) {
          expect(value).toBeGreaterThanOrEqual(Math.min(...values));
          expect(value).toBeLessThanOrEqual(Math.max(...values));
        }
      }),
    );
  });
});

describe("blockChart", () => {
  it("ASCII: halves of a row, the extremes labelled, the ends under it", () => {
    const lines = blockChart([0, 1, 2, 3], { width: 20, height: 2, unicode: false, format: (v) => v.toFixed(0), ends: ["a", "b"] });
    // Levels 1..4 halves over 2 rows: 1 -> ".", 2 -> "#", 3 -> "#" + ".", 4 -> "#" + "#".
    expect(lines).toEqual(["3 +  .#", "0 +.###", "   a  b"]);
  });

  it("Unicode: eighths of a row, box-drawing axis", () => {
    const lines = blockChart([0, 7, 15], { width: 10, height: 2, unicode: true, format: (v) => String(v) });
    // Levels 1, 8 and 16 eighths over 2 rows.
    expect(lines).toEqual(["15 ┤  █", " 0 ┤▁██"]);
  });

  it("never draws wider than asked, and has one line per row (plus the ends where they fit)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 12, max: 160 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        (values, width, height, unicode) => {
          const lines = blockChart(values, { width, height, unicode, format: (v) => v.toFixed(1), ends: ["2020-01-01", "2024-12-31"] });
          const labelWidth = Math.max(...[Math.max(...values), Math.min(...values)].map((v) => v.toFixed(1).length));
          const bars = Math.min(values.length, Math.max(1, width - labelWidth - 2));
          // The ends line is there when at least the first date fits under the bars.
          expect(lines).toHaveLength(bars >= "2020-01-01".length ? height + 1 : height);
          for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
          if (!unicode) for (const line of lines) expect(line).toMatch(/^[\x20-\x7e]*$/);
        },
      ),
    );
  });
});
