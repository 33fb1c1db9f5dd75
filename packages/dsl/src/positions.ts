/**
 * Offsets and line/character positions, LSP style.
 *
 * - Lines are 0-based and end at `\n`, `\r\n` or a lone `\r` (the three line endings LSP
 *   recognises; U+2028/U+2029 are ordinary characters).
 * - Characters are 0-based UTF-16 code units, so an astral character (an emoji) counts 2
 *   and a tab counts 1, exactly as JavaScript string offsets do.
 * - A byte order mark at the very start is not part of the document: editors hide it and the
 *   language server never receives it, so positions on line 0 are counted after it. Offsets
 *   still index the text as given.
 *
 * Line tables are built lazily, once per text, because most analyses never need a
 * position (a valid file produces no faults).
 */

/** A position in a text: 0-based line, 0-based UTF-16 code unit within the line. */
export interface Position {
  line: number;
  character: number;
}

/** A half-open range of a text, `end` exclusive. */
export interface Range {
  start: Position;
  end: Position;
}

/** A half-open range of a text in UTF-16 offsets, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

const BYTE_ORDER_MARK = 0xfeff;
const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;

/** Converts between offsets and positions of one text; build once per text and reuse. */
export class LineIndex {
  private lineStarts: readonly number[] | (() => readonly number[]) | undefined;
  /** Length of a leading byte order mark (0 or 1): skipped when counting line 0's characters. */
  private readonly bomLength: number;

  constructor(
    readonly text: string,
    /**
     * The offsets where the text's lines start, when the caller keeps them already (an
     * editor updates them per edit): 0, then just after each `\n`, `\r\n` and lone `\r`. Or
     * a function that gives them, called on the first use, for a caller that builds its own
     * lazily too (a valid file never needs them).
     */
    lineStarts?: readonly number[] | (() => readonly number[]),
  ) {
    this.bomLength = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
    this.lineStarts = lineStarts;
  }

  get lineCount(): number {
    return this.starts().length;
  }

  /** The position of `offset`; offsets are clamped into the text. */
  positionAt(offset: number): Position {
    const starts = this.starts();
    const clamped = offset > 0 ? Math.min(Math.floor(offset), this.text.length) : 0;
    // The last line start at or before the offset (line 0 starts at 0, so there is one).
    const low = partitionPoint(starts.length, (i) => starts[i]! <= clamped) - 1;
    const lineStart = starts[low]!;
    // An offset between the `\r` and `\n` of a CRLF is not a place in the line: report the
    // end of the line instead, as editors do.
    let column = clamped;
    if (column > lineStart && this.text.charCodeAt(column - 1) === CARRIAGE_RETURN && this.text.charCodeAt(column) === LINE_FEED) column -= 1;
    const skip = low === 0 ? this.bomLength : 0;
    return { line: low, character: Math.max(0, column - lineStart - skip) };
  }

  /** The offset of `position`; a character past the end of its line means the end of the line. */
  offsetAt(position: Position): number {
    const starts = this.starts();
    if (position.line < 0) return 0;
    if (position.line >= starts.length) return this.text.length;
    const lineStart = starts[position.line]!;
    const lineEnd = this.lineContentEnd(position.line);
    const skip = position.line === 0 ? this.bomLength : 0;
    return Math.min(lineStart + skip + Math.max(0, position.character), lineEnd);
  }

  rangeOf(span: Span): Range {
    return { start: this.positionAt(span.start), end: this.positionAt(span.end) };
  }

  /** Offset just after the last character of `line`, before its line break. */
  lineContentEnd(line: number): number {
    const starts = this.starts();
    const next = starts[line + 1];
    if (next === undefined) return this.text.length;
    let end = next - 1;
    if (this.text.charCodeAt(end) === LINE_FEED && end > 0 && this.text.charCodeAt(end - 1) === CARRIAGE_RETURN) end -= 1;
    return end;
  }

  private starts(): readonly number[] {
    if (typeof this.lineStarts === "function") this.lineStarts = this.lineStarts();
    if (this.lineStarts) return this.lineStarts;
    const text = this.text;
    const starts = [0];
    // Most texts end lines with `\n` alone: then the native search finds them, several times
    // faster than a loop over every character.
    if (text.indexOf("\r") < 0) {
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    } else {
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code === CARRIAGE_RETURN) {
          if (text.charCodeAt(i + 1) === LINE_FEED) i++;
          starts.push(i + 1);
        } else if (code === LINE_FEED) {
          starts.push(i + 1);
        }
      }
    }
    this.lineStarts = starts;
    return starts;
  }
}

// A one-entry cache: callers usually convert many offsets of the same text in a row.
let cachedIndex: LineIndex | undefined;

/** The LineIndex of `text`, reused while the same text is asked about. */
export function lineIndexOf(text: string): LineIndex {
  if (cachedIndex?.text !== text) cachedIndex = new LineIndex(text);
  return cachedIndex;
}

/** The position of `offset` in `text` (see the module comment for the conventions). */
export function positionAt(text: string, offset: number): Position {
  return lineIndexOf(text).positionAt(offset);
}

/** The offset of `position` in `text`; clamped into the text and to the end of the line. */
export function offsetAt(text: string, position: Position): number {
  return lineIndexOf(text).offsetAt(position);
}

/**
 * A syntax element's offsets as a Span object of their own. Syntax elements carry `start` and
 * `end` themselves (see ast.ts); a span that outlives the element (in a fault, a location)
 * is copied out, so results never hold a piece of the tree.
 */
export function spanOf(element: Span): Span {
  return { start: element.start, end: element.end };
}

/**
 * Binary search over indices 0..length: the first index for which `isBefore` is false, given
 * that it is true for every index before that one and false for every index after (the list
 * is partitioned). `length` when it is true everywhere. Positions, tokens, chunks and line
 * tables are all long sorted lists, searched this one way.
 */
export function partitionPoint(length: number, isBefore: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (isBefore(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}
