/** The graph's zoom and pan (shared by the editor preview and the playground): the fit's bounds. */
import { describe, expect, it } from "vitest";
import { fitScale, MAX_FIT_SCALE, READABLE_SCALE } from "../src/pan-zoom.js";

describe("pan-zoom.ts", () => {
  it("fits between the readable scale and the largest fit", () => {
    expect(fitScale(1325, 78, 540, 800)).toBe(READABLE_SCALE);
    expect(fitScale(300, 60, 1200, 800)).toBe(MAX_FIT_SCALE);
    expect(fitScale(600, 100, 720, 800)).toBeCloseTo(1.2);
    expect(fitScale(600, 100, 0, 0)).toBe(READABLE_SCALE);
  });
});
