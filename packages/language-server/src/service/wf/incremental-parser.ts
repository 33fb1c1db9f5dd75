/**
 * Incremental `.wf` parsing: only the statements an edit touches are parsed again.
 *
 * The text is kept as a list of statement chunks (the DSL's chunks.ts), each with its syntax
 * trees and syntax faults. After an edit, chunking restarts at the last statement before the
 * edit and runs forward until it meets an old chunk boundary past the edit; only the chunks
 * in between are parsed (the DSL's `parseChunk`), and the chunks after them are reused,
 * their offsets shifted in place. Cost: the edited statements plus one pass over the spans after the edit,
 * instead of lexing and parsing the whole file.
 *
 * Shifting in place means a parser belongs to one document's history: once a newer version
 * is parsed, the trees of older versions are no longer valid.
 *
 * The result is exactly what `parse(text)` gives for the whole text (trees and syntax faults);
 * a test compares the two after thousands of random edits.
 */
import { chunkEnd, LineIndex, moveOffsets, offsetHolders, parse, parseChunk, partitionPoint, type SourceFault, type Span, type Statement, type WfFile } from "@wfkit/dsl";
import type { LineMap, TextEditRegion } from "../text.js";

type Comment = WfFile["comments"][number];

interface ParsedChunk {
  start: number;
  end: number;
  readonly statements: Statement[];
  readonly comments: Comment[];
  /** Syntax faults, spans in document offsets (ranges are recomputed when placed). */
  readonly faults: SourceFault[];
  /**
   * Every object of the chunk that holds offsets, once each, and which offsets each one holds
   * (`holds[i]`, from the DSL's offsetHolders): shifting walks these lists rather than the
   * tree, and touches only the fields an object has. Found when the chunk is first shifted:
   * a document that is opened and never edited (or edited only near its end) never pays it.
   */
  holders?: Record<string, unknown>[];
  holds?: Int32Array;
}

export interface ParseResult {
  ast: WfFile;
  /** Syntax faults with ranges in the whole text. */
  faults: SourceFault[];
  /** How many chunks were parsed for this version (the rest were reused; all after `reset`): for tests and benchmarks. */
  parsedChunks: number;
  /** How many chunks the text has (0 after `reset`: a whole parse is split into chunks when first edited). */
  totalChunks: number;
}

/** How many chunks `prepare` readies per call: a few milliseconds of work. */
const PREPARE_STEP = 2_000;

export class IncrementalParser {
  private chunks: ParsedChunk[] = [];
  /**
   * A whole parse not yet split into chunks: opening a document costs its parse alone, and
   * the split (and each chunk's offset holders) is made by `prepare` when the thread is idle,
   * or by the first edit.
   */
  private unsplit: { text: string; ast: WfFile; faults: SourceFault[] } | undefined;
  /** Chunks before this one have their offset holders (see `prepare`). */
  private preparedTo = 0;
  private parsedChunks = 0;
  /** How many chunks have syntax faults (none, usually: then no chunk is visited to place them). */
  private faultyChunks = 0;
  /** The result of the last parse: the state the next `update` starts from. */
  current: ParseResult | undefined;

  /** Parses a whole text (on open, or when the whole text is replaced). */
  reset(text: string, lines: LineMap): ParseResult {
    const full = parse(text);
    this.chunks = [];
    this.unsplit = { text, ast: full.ast, faults: full.faults };
    this.preparedTo = 0;
    this.faultyChunks = 0;
    // Copies, as `result` gives: the chunks will move the originals on later edits.
    const faults = full.faults.map((fault) => placeAt(fault, lines));
    this.current = { ast: { type: "file", statements: full.ast.statements, comments: full.ast.comments, start: 0, end: text.length }, faults, parsedChunks: 0, totalChunks: 0 };
    return this.current;
  }

  /**
   * Readies the next edit ahead of time, a step at a time: splits a whole parse into chunks,
   * then finds each chunk's offset holders. True when nothing is left to do.
   */
  prepare(step = PREPARE_STEP): boolean {
    this.split();
    const chunks = this.chunks;
    const stop = Math.min(chunks.length, this.preparedTo + step);
    for (let i = this.preparedTo; i < stop; i++) findHolders(chunks[i]!);
    this.preparedTo = stop;
    return stop >= chunks.length;
  }

  private split(): void {
    const unsplit = this.unsplit;
    if (!unsplit) return;
    this.unsplit = undefined;
    this.chunks = distribute(unsplit.text, unsplit.ast, unsplit.faults);
    this.faultyChunks = this.chunks.filter((chunk) => chunk.faults.length > 0).length;
  }

  /** Parses the text after one edit of the text last parsed. */
  update(text: string, lines: LineMap, region: TextEditRegion): ParseResult {
    // An edit over most of the text (a paste over everything): one whole parse is cheaper
    // than many chunk parses.
    if (region.newEnd - region.start > text.length / 2) return this.reset(text, lines);
    this.split();
    const chunks = this.chunks;
    if (chunks.length === 0) return this.reset(text, lines);
    const delta = region.newEnd - region.oldEnd;

    // Restart at the last chunk before the edit that holds a statement: a boundary there
    // cannot move (the depth before it is 0 and its line's first token is untouched).
    let first = Math.max(0, indexAt(chunks, region.start) - 1);
    while (first > 0 && chunks[first]!.statements.length === 0 && chunks[first]!.faults.length === 0) first--;

    // Chunk forward until a boundary lines up with an old one past the edit.
    const fresh: ParsedChunk[] = [];
    let start = chunks[first]!.start;
    let old = first;
    let reuseFrom = chunks.length;
    for (;;) {
      const end = chunkEnd(text, start);
      fresh.push(parseChunkAt(text, start, end, lines));
      start = end;
      if (start >= text.length) break;
      if (start < region.newEnd) continue;
      while (old < chunks.length && chunks[old]!.start < start - delta) old++;
      if (old < chunks.length && chunks[old]!.start === start - delta) {
        reuseFrom = old;
        break;
      }
    }
    for (let i = reuseFrom; i < chunks.length; i++) shift(chunks[i]!, delta);

    // The new tree's lists are the last ones with the replaced chunks' part swapped: copied
    // in bulk, not rebuilt chunk by chunk (a large file has tens of thousands of chunks).
    // What precedes chunk `first` lies before its start, and nothing after does (the chunks
    // past the edit moved, but not to before the edit): a binary search, not a visit to every
    // chunk before the edit.
    const { statements, comments } = this.current!.ast;
    const statementsBefore = countBefore(statements, chunks[first]!.start);
    const commentsBefore = countBefore(comments, chunks[first]!.start);
    let statementsAfter = statementsBefore;
    let commentsAfter = commentsBefore;
    for (let i = first; i < reuseFrom; i++) {
      statementsAfter += chunks[i]!.statements.length;
      commentsAfter += chunks[i]!.comments.length;
      this.faultyChunks -= chunks[i]!.faults.length > 0 ? 1 : 0;
    }
    const freshStatements: Statement[] = [];
    const freshComments: Comment[] = [];
    for (const chunk of fresh) {
      for (const statement of chunk.statements) freshStatements.push(statement);
      for (const comment of chunk.comments) freshComments.push(comment);
      this.faultyChunks += chunk.faults.length > 0 ? 1 : 0;
    }
    // In place when few chunks change (no copy of the list); a splice's arguments are bounded.
    if (fresh.length <= 1_000) chunks.splice(first, reuseFrom - first, ...fresh);
    else this.chunks = chunks.slice(0, first).concat(fresh, chunks.slice(reuseFrom));
    // Fresh chunks get their holders when first moved (they are few); the chunks after them
    // keep theirs, so readiness is only renumbered.
    if (this.preparedTo >= reuseFrom) this.preparedTo += fresh.length - (reuseFrom - first);
    else this.preparedTo = Math.min(this.preparedTo, first);
    this.parsedChunks = fresh.length;
    return this.result(
      text,
      lines,
      statements.slice(0, statementsBefore).concat(freshStatements, statements.slice(statementsAfter)),
      comments.slice(0, commentsBefore).concat(freshComments, comments.slice(commentsAfter)),
    );
  }

  /** The result for the current chunks; their statements and comments when the caller has them already. */
  private result(text: string, lines: LineMap, statements?: Statement[], comments?: Comment[]): ParseResult {
    const collect = statements === undefined || comments === undefined;
    const allStatements: Statement[] = statements ?? [];
    const allComments: Comment[] = comments ?? [];
    const faults: SourceFault[] = [];
    if (collect || this.faultyChunks > 0) {
      for (const chunk of this.chunks) {
        if (collect) {
          for (const statement of chunk.statements) allStatements.push(statement);
          for (const comment of chunk.comments) allComments.push(comment);
        }
        // Faults are placed afresh: their ranges are lines and characters in the new text.
        for (const fault of chunk.faults) faults.push(placeAt(fault, lines));
      }
    }
    // Fields in the order `parse` gives them, so the two serialise identically.
    const ast: WfFile = { type: "file", statements: allStatements, comments: allComments, start: 0, end: text.length };
    this.current = { ast, faults, parsedChunks: this.parsedChunks, totalChunks: this.chunks.length };
    return this.current;
  }
}

/** How many of `items` start before `offset`; they are the first ones (the list is partitioned at `offset`). */
function countBefore(items: readonly Span[], offset: number): number {
  return partitionPoint(items.length, (i) => items[i]!.start < offset);
}

/** The chunk holding `offset` (the last one starting at or before it). */
function indexAt(chunks: readonly ParsedChunk[], offset: number): number {
  return Math.max(0, partitionPoint(chunks.length, (i) => chunks[i]!.start <= offset) - 1);
}

function parseChunkAt(text: string, start: number, end: number, lines: LineMap): ParsedChunk {
  const { statements, comments, faults } = parseChunk(text, start, end, new LineIndex(text, () => lines.lineStarts));
  return { start, end, statements, comments, faults: faults };
}

/**
 * Moves a chunk by `delta`. This runs on every keystroke for every chunk after the edit
 * (half of a large file, on average), over objects of a dozen shapes spread over the heap:
 * each visit costs tens of nanoseconds, so each object is visited once, and only the fields
 * it holds are touched (asked once, when the chunk is first moved; see moveOffsets).
 */
function shift(chunk: ParsedChunk, delta: number): void {
  if (delta === 0) return;
  const { holders, holds } = findHolders(chunk);
  for (let i = 0; i < holders.length; i++) moveOffsets(holders[i]!, holds[i]!, delta);
  chunk.start += delta;
  chunk.end += delta;
}

function findHolders(chunk: ParsedChunk): { holders: Record<string, unknown>[]; holds: Int32Array } {
  if (!chunk.holders || !chunk.holds) {
    const found = offsetHolders([chunk.statements, chunk.comments, chunk.faults]);
    chunk.holders = [...found.keys()];
    chunk.holds = Int32Array.from(found.values());
  }
  return { holders: chunk.holders, holds: chunk.holds };
}

/** Splits a whole-text parse into chunks, by the chunk boundaries of the text. */
function distribute(text: string, ast: WfFile, faults: SourceFault[]): ParsedChunk[] {
  const chunks: ParsedChunk[] = [];
  let s = 0;
  let c = 0;
  let f = 0;
  let start = 0;
  do {
    const end = chunkEnd(text, start);
    const isLast = end >= text.length;
    const inChunk = (span: Span) => isLast || span.start < end;
    const statements: Statement[] = [];
    const comments: Comment[] = [];
    const chunkFaults: SourceFault[] = [];
    while (s < ast.statements.length && inChunk(ast.statements[s]!)) statements.push(ast.statements[s++]!);
    while (c < ast.comments.length && inChunk(ast.comments[c]!)) comments.push(ast.comments[c++]!);
    while (f < faults.length && inChunk(faults[f]!.span)) chunkFaults.push(faults[f++]!);
    chunks.push({ start, end, statements, comments, faults: chunkFaults });
    start = end;
  } while (start < text.length);
  return chunks;
}

/** A copy of a chunk's fault with its range computed in the whole text. */
function placeAt(fault: SourceFault, lines: LineMap): SourceFault {
  const placed: SourceFault = { ...fault, span: { ...fault.span }, range: lines.rangeOf(fault.span.start, fault.span.end) };
  if (fault.related) placed.related = fault.related.map((entry) => ({ ...entry, span: { ...entry.span }, range: lines.rangeOf(entry.span.start, entry.span.end) }));
  return placed;
}

