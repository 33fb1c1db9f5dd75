/**
 * A code frame: the lines around a range with the range underlined by carets, as babel,
 * rustc and eslint's codeframe formatter draw them. Tabs become spaces and wide characters
 * take two columns (see text-width.ts) so the carets sit exactly under the marked text.
 * Control characters and line separators show as U+FFFD (see printable.ts): a file's text
 * never reaches the terminal raw.
 */
import type { Painter, Style } from "./colors.js";
import { printable } from "./printable.js";
import type { Range } from "./report.js";
import { sliceColumns, toDisplayLine, type DisplayLine } from "./text-width.js";

/** Lines shown before and after the range. */
const CONTEXT_LINES = 1;
/** A range longer than this many lines shows its first lines and its last, with a gap mark. */
const MAX_RANGE_LINES = 4;
/**
 * Lines wider than this many columns (minified JSON can be one line of megabytes) are shown
 * through a window that starts a little before the range, with `…` where text is cut.
 */
export const MAX_LINE_WIDTH = 120;
const WINDOW_LEAD = 30;

export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  // Positions on line 0 are counted after a byte order mark (see @wfkit/dsl positions.ts).
  if (lines[0]?.charCodeAt(0) === 0xfeff) lines[0] = lines[0].slice(1);
  return lines;
}

/** `mark` colours the `>` and the carets: red for errors, yellow for warnings. */
export function codeFrame(lines: readonly string[], range: Range, paint: Painter, indent = "  ", mark: Style = "red"): string {
  const last = lines.length - 1;
  const startLine = clamp(range.start.line, 0, last);
  const endLine = clamp(Math.max(range.end.line, startLine), startLine, last);
  // A range ending at column 0 of a later line ends, for the eye, on the line before.
  const shownEnd = endLine > startLine && range.end.character === 0 ? endLine - 1 : endLine;

  const rows: (number | "gap")[] = [];
  for (let line = Math.max(0, startLine - CONTEXT_LINES); line < startLine; line++) rows.push(line);
  if (shownEnd - startLine + 1 <= MAX_RANGE_LINES) {
    for (let line = startLine; line <= shownEnd; line++) rows.push(line);
  } else {
    rows.push(startLine, startLine + 1, "gap", shownEnd);
  }
  for (let line = shownEnd + 1; line <= Math.min(last, shownEnd + CONTEXT_LINES); line++) rows.push(line);
  // Trailing context that is an empty last line (the file's final newline) says nothing.
  while (rows.length && rows[rows.length - 1] !== shownEnd && rows[rows.length - 1] === last && lines[last] === "") rows.pop();

  const gutter = String(Math.max(...rows.map((row) => (row === "gap" ? 0 : row + 1)))).length;
  const displays = new Map<number, DisplayLine>();
  // Masked one for one, so that offsets into the line still point at the same characters.
  const shownLine = (row: number) => printable(lines[row] ?? "", "mask");
  for (const row of rows) if (row !== "gap") displays.set(row, toDisplayLine(shownLine(row)));
  // One window for every row, so that the rows stay aligned with each other.
  const widest = Math.max(...[...displays.values()].map((display) => display.columns[display.columns.length - 1]!));
  // The window moves right only when the start of the range would not be visible otherwise.
  const [markFrom, markTo] = underline(displays.get(startLine)!, shownLine(startLine), startLine, startLine, shownEnd, range);
  const windowStart = widest > MAX_LINE_WIDTH && Math.min(markTo, markFrom + 20) > MAX_LINE_WIDTH - 1 ? Math.max(0, markFrom - WINDOW_LEAD) : 0;
  const windowEnd = windowStart + MAX_LINE_WIDTH;

  const out: string[] = [];
  for (const row of rows) {
    if (row === "gap") {
      out.push(`${indent}${" ".repeat(gutter + 2)}${paint.paint("dim", "...")}`);
      continue;
    }
    const display = displays.get(row)!;
    const width = display.columns[display.columns.length - 1]!;
    const cutLeft = windowStart > 0;
    const cutRight = width > windowEnd;
    // `…` takes the first or last column of the window where text is cut.
    const shown = (cutLeft ? "…" : "") + sliceColumns(display.text, windowStart + (cutLeft ? 1 : 0), windowEnd - (cutRight ? 1 : 0)) + (cutRight ? "…" : "");
    const marked = row >= startLine && row <= shownEnd;
    const number = String(row + 1).padStart(gutter);
    out.push(`${indent}${marked ? paint.paint(["bold", mark], ">") : " "} ${paint.paint("dim", `${number} |`)}${shown ? " " + shown.trimEnd() : ""}`);
    if (!marked) continue;
    const [from, to] = underline(display, shownLine(row), row, startLine, shownEnd, range);
    const visibleFrom = Math.min(Math.max(from - windowStart, 0), MAX_LINE_WIDTH - 1);
    const visibleTo = Math.min(Math.max(to - windowStart, visibleFrom + 1), MAX_LINE_WIDTH);
    out.push(`${indent}  ${" ".repeat(gutter)} ${paint.paint("dim", "|")} ${" ".repeat(visibleFrom)}${paint.paint(["bold", mark], "^".repeat(visibleTo - visibleFrom))}`);
  }
  return out.join("\n");
}

/** Display columns [from, to) to underline on `row`. */
function underline(display: DisplayLine, line: string, row: number, startLine: number, endLine: number, range: Range): [number, number] {
  const columnOf = (character: number) => display.columns[clamp(character, 0, line.length)]!;
  const firstText = columnOf(line.length - line.trimStart().length);
  const from = row === startLine ? columnOf(range.start.character) : firstText;
  const to = row === endLine && range.end.line === endLine ? columnOf(range.end.character) : columnOf(line.trimEnd().length);
  return [from, Math.max(to, from + 1)];
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}
