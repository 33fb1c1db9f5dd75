/**
 * Incremental `.wf` parsing: only the statements an edit touched are parsed again.
 *
 * The text is split into statement chunks (chunks.ts) and each chunk's parse is kept, keyed
 * by the chunk's text. After an edit the new text is split again (a scan at memory speed),
 * chunks whose text is unchanged reuse their parse, and only new texts go through the
 * chevrotain parser. The reused syntax trees are moved to their new place by shifting their
 * offsets in place, which is why a parser instance belongs to one document's history: once
 * a newer version is parsed, the trees of older versions are no longer valid.
 *
 * The result is the same `WfFile` and syntax diagnostics that parsing the whole text gives
 * (the soak test checks exactly that), at a cost that grows with the edit, not the file.
 */
import { parse, type SourceFault, type WfFile } from "@wfkit/dsl";
import type { Statement } from "@wfkit/dsl";
import { splitChunks } from "./chunks.js";
import { LineMap } from "../text.js";

type Comment = WfFile["comments"][number];

interface ParsedChunk {
  readonly text: string;
  /** Where the chunk's spans currently point: the offset of its first character. */
  offset: number;
  readonly statements: Statement[];
  readonly comments: Comment[];
  /** Syntax faults, with spans at `offset` (ranges are recomputed for the whole text). */
  readonly faults: SourceFault[];
}

export interface ParseResult {
  ast: WfFile;
  /** Syntax faults with ranges in the whole text. */
  diagnostics: SourceFault[];
  /** How many chunks had to be parsed (the rest were reused): for tests and the benchmark. */
  parsedChunks: number;
  totalChunks: number;
}

export class IncrementalParser {
  /** The chunks of the last parse, by text; a text can occur several times (blank lines). */
  private pool = new Map<string, ParsedChunk[]>();

  parse(text: string, lines: LineMap): ParseResult {
    const chunks = splitChunks(text);
    const nextPool = new Map<string, ParsedChunk[]>();
    const statements: Statement[] = [];
    const comments: Comment[] = [];
    const diagnostics: SourceFault[] = [];
    let parsedChunks = 0;
    for (const chunk of chunks) {
      let parsed = this.pool.get(chunk.text)?.pop();
      if (!parsed) {
        parsed = parseChunk(chunk.text);
        parsedChunks++;
      }
      if (parsed.offset !== chunk.start) {
        shiftSpans(parsed.statements, chunk.start - parsed.offset);
        shiftSpans(parsed.comments, chunk.start - parsed.offset);
        for (const fault of parsed.faults) {
          shiftSpans(fault.span, chunk.start - parsed.offset);
          for (const entry of fault.related ?? []) shiftSpans(entry.span, chunk.start - parsed.offset);
        }
        parsed.offset = chunk.start;
      }
      let list = nextPool.get(chunk.text);
      if (!list) nextPool.set(chunk.text, (list = []));
      list.push(parsed);
      for (const statement of parsed.statements) statements.push(statement);
      for (const comment of parsed.comments) comments.push(comment);
      for (const fault of parsed.faults) diagnostics.push(placeAt(fault, lines));
    }
    this.pool = nextPool;
    const ast: WfFile = { type: "file", span: { start: 0, end: text.length }, statements, comments };
    return { ast, diagnostics, parsedChunks, totalChunks: chunks.length };
  }
}

function parseChunk(text: string): ParsedChunk {
  const result = parse(text);
  return { text, offset: 0, statements: result.ast.statements, comments: result.ast.comments, faults: result.diagnostics };
}

/** A copy of a chunk's fault with its range computed in the whole text. */
function placeAt(fault: SourceFault, lines: LineMap): SourceFault {
  const placed: SourceFault = { ...fault, span: { ...fault.span }, range: lines.rangeOf(fault.span.start, fault.span.end) };
  if (fault.related) placed.related = fault.related.map((entry) => ({ ...entry, range: lines.rangeOf(entry.span.start, entry.span.end) }));
  return placed;
}

/**
 * Adds `delta` to every span in a syntax tree, in place. A span is any object whose only
 * fields are the numbers `start` and `end`; the tree is walked generically so that new
 * syntax in the DSL needs no change here.
 */
export function shiftSpans(value: unknown, delta: number): void {
  if (delta === 0 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const element of value) shiftSpans(element, delta);
    return;
  }
  const record = value as Record<string, unknown>;
  if (isSpan(record)) {
    (record as { start: number }).start += delta;
    (record as { end: number }).end += delta;
    return;
  }
  for (const key in record) {
    const field = record[key];
    if (field !== null && typeof field === "object") shiftSpans(field, delta);
  }
}

function isSpan(record: Record<string, unknown>): boolean {
  if (typeof record.start !== "number" || typeof record.end !== "number") return false;
  let keys = 0;
  for (const _ in record) keys++;
  return keys === 2;
}
