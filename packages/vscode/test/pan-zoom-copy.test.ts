/**
 * The graph's zoom and pan is one file in two packages that may not import each other: the
 * editor preview's page (webview/pan-zoom.ts) and the playground's graph pane
 * (packages/playground/src/pan-zoom.ts). They must stay the same, word for word.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fitScale, MAX_FIT_SCALE, READABLE_SCALE } from "../webview/pan-zoom.js";

describe("pan-zoom.ts", () => {
  it("is the same file in the preview and the playground", () => {
    const preview = readFileSync(new URL("../webview/pan-zoom.ts", import.meta.url), "utf8");
    const playground = readFileSync(new URL("../../playground/src/pan-zoom.ts", import.meta.url), "utf8");
    expect(playground, "copy packages/vscode/webview/pan-zoom.ts over packages/playground/src/pan-zoom.ts").toBe(preview);
  });

  it("fits between the readable scale and the largest fit", () => {
    expect(fitScale(1325, 78, 540, 800)).toBe(READABLE_SCALE);
    expect(fitScale(300, 60, 1200, 800)).toBe(MAX_FIT_SCALE);
    expect(fitScale(600, 100, 720, 800)).toBeCloseTo(1.2);
    expect(fitScale(600, 100, 0, 0)).toBe(READABLE_SCALE);
  });
});
