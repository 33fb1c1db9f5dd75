import { describe, expect, it } from "vitest";
import { codeFrame, MAX_LINE_WIDTH, splitLines } from "../src/codeframe.js";
import { painter } from "../src/colors.js";
import { toDisplayLine } from "../src/text-width.js";

const plain = painter(false);
const range = (sl: number, sc: number, el: number, ec: number) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });

describe("codeFrame", () => {
  it("underlines exactly the range, with a line of context either side", () => {
    const lines = splitLines("a\npart terminal.compar @1\nc\nd");
    expect(codeFrame(lines, range(1, 5, 1, 20), plain, "")).toBe(
      ["  1 | a", "> 2 | part terminal.compar @1", "    |      ^^^^^^^^^^^^^^^", "  3 | c"].join("\n"),
    );
  });

  it("expands tabs so the carets stay under the text", () => {
    const lines = splitLines("\tnode\tx");
    const frame = codeFrame(lines, range(0, 6, 0, 7), plain, "");
    // The tab at 0 fills to column 4, `node` takes 4-7, the tab fills 8-11, `x` is at 12.
    expect(frame.split("\n")).toEqual(["> 1 |     node    x", "    |             ^"]);
  });

  it("counts East Asian wide characters as two columns", () => {
    const lines = splitLines('label "沃尔玛" x');
    const frame = codeFrame(lines, range(0, 11, 0, 12), plain, "");
    expect(frame.split("\n")[1]).toBe("    | " + " ".repeat(14) + "^");
  });

  it("counts an astral character (two UTF-16 units) once, by its width", () => {
    const lines = splitLines("a 😀 b");
    // `b` is at UTF-16 character 5; the emoji is wide, so it is at display column 5.
    const frame = codeFrame(lines, range(0, 5, 0, 6), plain, "");
    expect(frame.split("\n")[1]).toBe("    | " + " ".repeat(5) + "^");
  });

  it("draws one caret for an empty range, including at the end of a line", () => {
    const frame = codeFrame(splitLines("abc"), range(0, 3, 0, 3), plain, "");
    expect(frame.split("\n")[1]).toBe("    |    ^");
  });

  it("marks every line of a short multi-line range from its first text", () => {
    const frame = codeFrame(splitLines("x {\n  a\n}\n"), range(0, 2, 2, 1), plain, "");
    expect(frame.split("\n")).toEqual(["> 1 | x {", "    |   ^", "> 2 |   a", "    |   ^", "> 3 | }", "    | ^"]);
  });

  it("elides the middle of a long range", () => {
    const text = Array.from({ length: 10 }, (_, i) => `line${i}`).join("\n");
    const frame = codeFrame(splitLines(text), range(1, 0, 8, 5), plain, "");
    expect(frame).toContain("...");
    // Line numbers are right-aligned to the widest shown (10).
    expect(frame).toContain(">  2 | line1");
    expect(frame).toContain(">  9 | line8");
    expect(frame).not.toContain("line5");
  });

  it("skips a byte order mark, as positions do", () => {
    const frame = codeFrame(splitLines("\ufeffab"), range(0, 1, 0, 2), plain, "");
    expect(frame.split("\n")).toEqual(["> 1 | ab", "    |  ^"]);
  });

  it("handles CRLF and lone CR line ends", () => {
    expect(splitLines("a\r\nb\rc\nd")).toEqual(["a", "b", "c", "d"]);
  });

  it("shows a window of a very long line, cut with … and the carets still under the range", () => {
    const line = `{${'"x": 1, '.repeat(60)}"partId": "terminal.compar", ${'"y": 2, '.repeat(60)}}`;
    const start = line.indexOf('"terminal.compar"');
    const [source, carets] = codeFrame([line], range(0, start, 0, start + 17), plain, "").split("\n");
    expect(source!.startsWith("> 1 | …")).toBe(true);
    expect(source!.endsWith("…")).toBe(true);
    expect(source!.length).toBe("> 1 | ".length + MAX_LINE_WIDTH);
    const caretAt = carets!.indexOf("^");
    expect(source!.slice(caretAt, caretAt + 17)).toBe('"terminal.compar"');
    expect(carets!.slice(caretAt)).toBe("^".repeat(17));
  });

  it("does not cut a line that fits", () => {
    const line = "x".repeat(MAX_LINE_WIDTH);
    expect(codeFrame([line], range(0, 100, 0, 101), plain, "")).not.toContain("…");
  });

  it("adds colour only when enabled", () => {
    const coloured = codeFrame(splitLines("abc"), range(0, 0, 0, 1), painter(true), "");
    expect(coloured).toContain("\u001b[");
    expect(codeFrame(splitLines("abc"), range(0, 0, 0, 1), plain, "")).not.toContain("\u001b[");
  });
});

describe("toDisplayLine", () => {
  it("maps every UTF-16 offset to its display column", () => {
    const display = toDisplayLine("a\t字b");
    expect(display.text).toBe("a   字b");
    expect(display.columns).toEqual([0, 1, 4, 6, 7]);
  });

  it("gives combining marks no width and drops control characters", () => {
    const display = toDisplayLine("e\u0301\u0007x");
    expect(display.text).toBe("e\u0301x");
    expect(display.columns).toEqual([0, 1, 1, 1, 2]);
  });
});
