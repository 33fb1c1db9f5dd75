/**
 * Text utilities of the service: applying editor changes and converting offsets and
 * positions (0-based lines, UTF-16 characters; lines end at \n, \r\n or \r, as in the LSP).
 */
import { partitionPoint } from "@wfkit/dsl";
import type { Position, Range, TextChange } from "./types.js";

/**
 * Line starts of a text, built once per text, on first use; converts offsets and positions
 * both ways. Checking a valid document needs no position, so on opening a large file neither
 * thread scans it for line starts before the first diagnostics: the checker thread's read
 * begins at once, and the connection's thread, which asks for that check only once it has
 * made its own copy of the document, asks sooner.
 */
export class LineMap {
  private known: number[] | undefined;

  constructor(
    readonly text: string,
    /** @internal Line starts already known (from `edited`). */
    starts?: number[],
  ) {
    this.known = starts;
  }

  private get starts(): number[] {
    return (this.known ??= scanLineStarts(this.text, 0, this.text.length, [0]));
  }

  /**
   * The line map of `text` after one edit of this map's text (`start`..`oldEnd` became
   * `start`..`newEnd`): line starts before the edit are kept, those after it shifted, and
   * only the edited stretch is scanned, so a keystroke in a 30,000-line file costs microseconds.
   */
  edited(text: string, edit: TextEditRegion): LineMap {
    const { start, oldEnd, newEnd } = edit;
    const delta = newEnd - oldEnd;
    const old = this.starts;
    // A line start p is decided by the characters at p - 1 and p; keep those wholly before the
    // edit (found by binary search and copied in one go: a large file has tens of thousands),
    // and the first line's start, 0, whatever the edit.
    const keepBelow = Math.max(start, 1);
    let i = partitionPoint(old.length, (k) => old[k]! < keepBelow);
    const starts = old.slice(0, i);
    for (let p = Math.max(1, start); p <= Math.min(newEnd + 1, text.length); p++) {
      const previous = text.charCodeAt(p - 1);
      if (previous === 10 || (previous === 13 && text.charCodeAt(p) !== 10)) starts.push(p);
    }
    while (i < old.length && old[i]! < oldEnd + 2) i++;
    if (i === old.length) return new LineMap(text, starts);
    // The starts after the edit, copied in one go and shifted in place (no growing array).
    const after = old.slice(i);
    if (delta !== 0) for (let k = 0; k < after.length; k++) after[k]! += delta;
    return new LineMap(text, starts.concat(after));
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** @internal The offsets where lines start (for the DSL's LineIndex of the same text): never mutated. */
  get lineStarts(): readonly number[] {
    return this.starts;
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
    const starts = this.starts;
    // The last line start at or before the offset (line 0 starts at 0, so there is one).
    const line = partitionPoint(starts.length, (i) => starts[i]! <= clamped) - 1;
    return { line, character: clamped - starts[line]! };
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

function scanLineStarts(text: string, from: number, to: number, starts: number[]): number[] {
  // Without a `\r`, every line break is a `\n`, found by `indexOf`: native code at any tier,
  // where the loop below runs a document's first pass (30,000 lines on opening a 10k-node
  // file) mostly in the interpreter.
  const carriageReturn = text.indexOf("\r", from);
  if (carriageReturn === -1 || carriageReturn >= to) {
    for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (code === 10) starts.push(i + 1);
  }
  return starts;
}

/** Where a text changed: `start`..`oldEnd` of the old text became `start`..`newEnd` of the new one. */
export interface TextEditRegion {
  start: number;
  oldEnd: number;
  newEnd: number;
}

export interface AppliedChanges {
  text: string;
  lines: LineMap;
  /** One region covering every change (the text outside it is unchanged). */
  region: TextEditRegion;
}

/**
 * Applies editor changes in order (each change's range refers to the text the previous one
 * left) and reports the one region of the text they touched, for incremental reparsing.
 */
export function applyChanges(lines: LineMap, changes: readonly TextChange[]): AppliedChanges {
  let current = lines;
  const originalLength = lines.text.length;
  let region: TextEditRegion | undefined;
  for (const change of changes) {
    const text = current.text;
    let start = change.range ? current.offsetAt(change.range.start) : 0;
    let end = change.range ? current.offsetAt(change.range.end) : text.length;
    if (end < start) [start, end] = [end, start];
    const next = text.slice(0, start) + change.text + text.slice(end);
    const edit = { start, oldEnd: end, newEnd: start + change.text.length };
    current = change.range ? current.edited(next, edit) : new LineMap(next);
    region = region ? composeRegions(region, edit) : edit;
  }
  return { text: current.text, lines: current, region: region ?? { start: 0, oldEnd: originalLength, newEnd: originalLength } };
}

/**
 * One region for two edits in a row: `first` took text A to B, `second` B to C; the result
 * takes A to C (covering both, and possibly some unchanged text between them).
 */
export function composeRegions(first: TextEditRegion, second: TextEditRegion): TextEditRegion {
  const secondDelta = second.newEnd - second.oldEnd;
  // Where the end of the first edit lies in C: before the second edit it stays, after it it
  // shifts, inside the text the second edit replaced it moves to that edit's end.
  const firstEnd = first.newEnd <= second.start ? first.newEnd : first.newEnd >= second.oldEnd ? first.newEnd + secondDelta : second.newEnd;
  const start = Math.min(first.start, second.start);
  const newEnd = Math.max(firstEnd, second.newEnd);
  const totalDelta = first.newEnd - first.oldEnd + secondDelta;
  return { start, oldEnd: newEnd - totalDelta, newEnd };
}
