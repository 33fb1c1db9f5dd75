/**
 * How many terminal columns text takes, so that carets line up under the text they mark.
 * East Asian wide and fullwidth characters (and emoji presented as such) take two columns,
 * combining marks and zero-width characters none, a tab up to the next tab stop. Widths
 * come from `get-east-asian-width` (Unicode's East Asian Width data, kept current by its
 * authors) rather than a hand-copied table; ambiguous characters count as narrow, as Unicode
 * advises when the context is unknown.
 */
import { eastAsianWidth } from "get-east-asian-width";

export const TAB_WIDTH = 4;

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u200b\u200c\u200d\ufe00-\ufe0f]$/u;

/** Columns one code point takes when it starts at `column` (tabs depend on where they are). */
export function codePointWidth(char: string, column: number): number {
  if (char === "\t") return TAB_WIDTH - (column % TAB_WIDTH);
  const codePoint = char.codePointAt(0)!;
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  if (ZERO_WIDTH.test(char)) return 0;
  return eastAsianWidth(codePoint, { ambiguousAsWide: false });
}

/**
 * A line made ready to print: tabs expanded to spaces and control characters dropped, with
 * the display column of every UTF-16 offset so that ranges can be drawn under it.
 */
export interface DisplayLine {
  text: string;
  /** `columns[i]` is the display column where UTF-16 offset `i` of the line starts; one extra entry for the end. */
  columns: number[];
}

export function toDisplayLine(line: string): DisplayLine {
  let text = "";
  const columns: number[] = new Array(line.length + 1);
  let column = 0;
  let offset = 0;
  for (const char of line) {
    const width = codePointWidth(char, column);
    for (let i = 0; i < char.length; i++) columns[offset + i] = column;
    if (char === "\t") text += " ".repeat(width);
    else if (width > 0 || ZERO_WIDTH.test(char)) text += char;
    column += width;
    offset += char.length;
  }
  columns[line.length] = column;
  return { text, columns };
}

/**
 * The part of a display line (tabs already expanded) between display columns `from` and
 * `to`; a wide character cut by either edge is left out, so the result is never wider.
 */
export function sliceColumns(text: string, from: number, to: number): string {
  let out = "";
  let column = 0;
  for (const char of text) {
    const width = codePointWidth(char, column);
    if (column >= from && column + width <= to) out += char;
    column += width;
    if (column >= to) break;
  }
  return out;
}
