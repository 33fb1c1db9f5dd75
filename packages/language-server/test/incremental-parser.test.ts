/**
 * The incremental parser must give exactly what parsing the whole text gives, whatever the
 * edit: thousands of random edits (many of them breaking the syntax), compared after each.
 */
import { describe, expect, it } from "vitest";
import { parse } from "@wfkit/dsl";
import { IncrementalParser } from "../src/service/wf/incremental-parser.js";
import { LineMap, applyChanges, composeRegions, type TextEditRegion } from "../src/service/text.js";
import { applyEdit, prng, randomEdit, SAMPLE_WF } from "./support/random-edits.js";

const EDITS = Number(process.env.WFKIT_EQUIVALENCE_EDITS ?? 600);
const SEED = Number(process.env.WFKIT_EQUIVALENCE_SEED ?? 20261121);

describe("IncrementalParser", () => {
  it("reparses only the statements around an edit", () => {
    const parser = new IncrementalParser();
    parser.reset(SAMPLE_WF, new LineMap(SAMPLE_WF));
    const at = SAMPLE_WF.indexOf("pack@1") + 5;
    const edited = SAMPLE_WF.slice(0, at) + "2" + SAMPLE_WF.slice(at + 1);
    const result = parser.update(edited, new LineMap(edited), { start: at, oldEnd: at + 1, newEnd: at + 1 });
    // The edited statement and the one before it (a restart point that cannot move).
    expect(result.parsedChunks).toBe(2);
    expect(result.totalChunks).toBeGreaterThanOrEqual(10);
    expect(result.ast).toEqual(parse(edited).ast);
  });

  it(`matches a full parse after each of ${EDITS} random edits`, () => {
    const random = prng(SEED);
    const parser = new IncrementalParser();
    let text = SAMPLE_WF;
    parser.reset(text, new LineMap(text));
    let compared = 0;
    for (let i = 0; i < EDITS; i++) {
      // One to three edits, their regions composed, as a burst that is parsed once.
      let region: TextEditRegion | undefined;
      for (let k = random() < 0.3 ? 3 : 1; k > 0; k--) {
        const edit = randomEdit(text, random);
        text = applyEdit(text, edit);
        const step = { start: edit.start, oldEnd: edit.end, newEnd: edit.start + edit.text.length };
        region = region ? composeRegions(region, step) : step;
      }
      // Keep the document from growing without bound: restart from the sample now and then.
      let incremental;
      if (text.length > 2_500) {
        text = SAMPLE_WF;
        incremental = parser.reset(text, new LineMap(text));
      } else {
        // Readied in idle time, wholly or in part, or not at all (then the edit splits the parse).
        if (random() < 0.4) for (let steps = 1 + Math.floor(random() * 4); steps > 0 && !parser.prepare(3); steps--);
        incremental = parser.update(text, new LineMap(text), region!);
      }
      const full = parse(text);
      // Serialised comparison first (fast); the structural diff only when they differ.
      const same = JSON.stringify([incremental.ast, incremental.faults]) === JSON.stringify([full.ast, full.faults]);
      if (!same) expect({ ast: incremental.ast, diagnostics: incremental.faults }, `edit ${i}: ${JSON.stringify(text)}`).toEqual({ ast: full.ast, diagnostics: full.faults });
      compared++;
    }
    expect(compared).toBe(EDITS);
  });
});

describe("LineMap and applyChanges", () => {
  it("keeps line starts right through random edits, \\r\\n and lone \\r included", () => {
    const random = prng(99);
    let lines = new LineMap(SAMPLE_WF);
    for (let i = 0; i < 500; i++) {
      const edit = randomEdit(lines.text, random);
      const text = applyEdit(lines.text, edit);
      lines = lines.edited(text, { start: edit.start, oldEnd: edit.end, newEnd: edit.start + edit.text.length });
      const fresh = new LineMap(text);
      expect(lines.lineCount).toBe(fresh.lineCount);
      for (let line = 0; line < fresh.lineCount; line++) expect(lines.lineStart(line)).toBe(fresh.lineStart(line));
    }
  });

  it("finds a fresh text's line starts after \\n, \\r\\n and lone \\r, with and without any \\r in the text", () => {
    const random = prng(7);
    const pieces = ["a", "bc", " ", "\n", "\n", "\r\n", "\r", "\n\r", "\r\r\n"];
    for (let i = 0; i < 400; i++) {
      const withReturns = i % 2 === 0;
      let text = "";
      const length = Math.floor(random() * 40);
      for (let k = 0; k < length; k++) {
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        text += withReturns ? piece : piece.replaceAll("\r", "x");
      }
      const expected = [0];
      for (const match of text.matchAll(/\r\n|\r|\n/g)) expected.push(match.index + match[0].length);
      const lines = new LineMap(text);
      expect(Array.from({ length: lines.lineCount }, (_, line) => lines.lineStart(line)), JSON.stringify(text)).toEqual(expected);
    }
  });

  it("keeps the first line's start through an edit at the very start of the text", () => {
    const original = "ab\ncd\n";
    for (const [end, insert] of [[0, "x\n"], [0, "x"], [1, ""], [3, "\n\n"], [3, ""]] as const) {
      const text = insert + original.slice(end);
      const lines = new LineMap(original).edited(text, { start: 0, oldEnd: end, newEnd: insert.length });
      const fresh = new LineMap(text);
      expect(lines.lineCount, JSON.stringify(text)).toBe(fresh.lineCount);
      for (let line = 0; line < fresh.lineCount; line++) expect(lines.lineStart(line)).toBe(fresh.lineStart(line));
    }
  });

  it("composes the regions of edits in a row into one that covers them all", () => {
    const random = prng(5);
    for (let i = 0; i < 300; i++) {
      const original = SAMPLE_WF;
      let text = original;
      let region: TextEditRegion | undefined;
      for (let k = 0; k < 3; k++) {
        const edit = randomEdit(text, random);
        text = applyEdit(text, edit);
        const step = { start: edit.start, oldEnd: edit.end, newEnd: edit.start + edit.text.length };
        region = region ? composeRegions(region, step) : step;
      }
      expect(text.slice(0, region!.start)).toBe(original.slice(0, region!.start));
      expect(text.slice(region!.newEnd)).toBe(original.slice(region!.oldEnd));
    }
  });

  it("reports one region covering several changes of one notification", () => {
    const lines = new LineMap("abcdef\nghij\n");
    const result = applyChanges(lines, [
      { range: { start: { line: 1, character: 1 }, end: { line: 1, character: 2 } }, text: "XY" },
      { range: { start: { line: 0, character: 1 }, end: { line: 0, character: 1 } }, text: "Z" },
    ]);
    expect(result.text).toBe("aZbcdef\ngXYij\n");
    const { start, oldEnd, newEnd } = result.region;
    expect(result.text.slice(0, start)).toBe("abcdef\nghij\n".slice(0, start));
    expect(result.text.slice(newEnd)).toBe("abcdef\nghij\n".slice(oldEnd));
    expect([start, oldEnd, newEnd]).toEqual([1, 9, 11]);
  });
});
