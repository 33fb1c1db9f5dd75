/**
 * Text utilities of the service: applying editor changes and converting offsets and
 * positions (0-based lines, UTF-16 characters; lines end at \n, \r\n or \r, as in the LSP).
 */
import type { Position, Range, TextChange } from "./types.js";

/** Line starts of a text, built once per text; converts offsets and positions both ways. */
export class LineMap {
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (code === 10) starts.push(i + 1);
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))]!;
  }

  /** Offset just past the line's last character, before its line break. */
  lineEnd(line: number): number {
    const next = this.starts[line + 1];
    if (next === undefined) return this.text.length;
    let end = next - 1;
    if (this.text.charCodeAt(end) === 10 && end > 0 && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= clamped) low = middle;
      else high = middle - 1;
    }
    return { line: low, character: clamped - this.starts[low]! };
  }

  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.starts.length) return this.text.length;
    const start = this.starts[position.line]!;
    return Math.min(start + Math.max(0, position.character), this.lineEnd(position.line));
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }
}

/** Applies editor changes in order (each change's range refers to the text left by the previous one). */
export function applyChanges(text: string, changes: readonly TextChange[]): string {
  let current = text;
  for (const change of changes) {
    if (!change.range) {
      current = change.text;
      continue;
    }
    const lines = new LineMap(current);
    let start = lines.offsetAt(change.range.start);
    let end = lines.offsetAt(change.range.end);
    if (end < start) [start, end] = [end, start];
    current = current.slice(0, start) + change.text + current.slice(end);
  }
  return current;
}

const WORD = /[A-Za-z0-9_.\-]/;

/** The identifier-like word around `offset` (letters, digits, `_`, `-`, `.`), as offsets. */
export function wordAt(text: string, offset: number): { start: number; end: number } {
  let start = offset;
  while (start > 0 && WORD.test(text[start - 1]!)) start--;
  let end = offset;
  while (end < text.length && WORD.test(text[end]!)) end++;
  return { start, end };
}
