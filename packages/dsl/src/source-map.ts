/**
 * Source maps: from a JSON Pointer into a compiled (or parsed) document to the place in the
 * source text that wrote it.
 *
 * Both sources (`.wf` and `.json`) resolve pointers lazily by walking their own syntax tree
 * alongside the pointer, instead of storing a table of every pointer: a 100,000-node file has
 * millions of pointers and a table would cost hundreds of megabytes for the few faults that
 * are ever looked up.
 */
import { parsePointer } from "@wfkit/core";
import { LineIndex, type Range, type Span } from "./positions.js";

/** Which part of a field to point at: its value (the default) or its name. */
export type PointerPart = "value" | "key";

export interface SourceLocation {
  span: Span;
  /**
   * True when the pointer itself is written in the source; false when it is not (a missing
   * field, an index past the end) and `span` is the nearest ancestor that is.
   */
  exact: boolean;
}

export interface SourceMap {
  readonly text: string;
  /** Where `pointer` was written, falling back to its nearest written ancestor. Never throws. */
  locate(pointer: string, part?: PointerPart): SourceLocation;
  spanOf(pointer: string, part?: PointerPart): Span;
  rangeOf(pointer: string, part?: PointerPart): Range;
  /** True when `pointer` itself is written in the source. */
  has(pointer: string): boolean;
  /** Offsets to positions for this source's text. */
  lineIndex(): LineIndex;
}

/** The outcome of walking a pointer down a syntax tree as far as it goes. */
export interface PointerResolution {
  span: Span;
  keySpan?: Span;
  /** How many of the pointer's tokens were resolved. */
  depth: number;
}

/** Shared plumbing: subclasses only say how to resolve a pointer's tokens. */
export abstract class LazySourceMap implements SourceMap {
  private lines: LineIndex | undefined;

  constructor(
    readonly text: string,
    /** The line index of `text`, when the caller has one already. */
    lines?: LineIndex,
  ) {
    this.lines = lines;
  }

  protected abstract resolve(tokens: readonly string[], part: PointerPart): PointerResolution;

  locate(pointer: string, part: PointerPart = "value"): SourceLocation {
    let tokens: string[];
    try {
      tokens = pointer === "" ? [] : pointer.includes("~") ? parsePointer(pointer) : splitPointer(pointer);
    } catch {
      tokens = [];
    }
    // A pointer that is not a pointer at all (no leading "/") resolves to the document.
    if (pointer !== "" && !pointer.startsWith("/")) tokens = [];
    const resolution = this.resolve(tokens, part);
    const exact = resolution.depth === tokens.length && (pointer === "" || pointer.startsWith("/"));
    const span = exact && part === "key" && resolution.keySpan ? resolution.keySpan : resolution.span;
    return { span: clampSpan(span, this.text.length), exact };
  }

  spanOf(pointer: string, part: PointerPart = "value"): Span {
    return this.locate(pointer, part).span;
  }

  rangeOf(pointer: string, part: PointerPart = "value"): Range {
    return this.lineIndex().rangeOf(this.spanOf(pointer, part));
  }

  has(pointer: string): boolean {
    return this.locate(pointer).exact;
  }

  lineIndex(): LineIndex {
    this.lines ??= new LineIndex(this.text);
    return this.lines;
  }
}

/**
 * The tokens of a pointer that escapes nothing (no `~`): what parsePointer gives, without its
 * two replaces per token and a split (placing the faults of a broken large file splits tens
 * of thousands of pointers).
 */
function splitPointer(pointer: string): string[] {
  const tokens: string[] = [];
  let from = 1;
  for (;;) {
    const slash = pointer.indexOf("/", from);
    if (slash < 0) {
      tokens.push(pointer.slice(from));
      return tokens;
    }
    tokens.push(pointer.slice(from, slash));
    from = slash + 1;
  }
}

function clampSpan(span: Span, length: number): Span {
  const start = Math.min(Math.max(0, span.start), length);
  const end = Math.min(Math.max(start, span.end), length);
  return { start, end };
}

/** Reads an array index token of a JSON Pointer; undefined when it is not one (RFC 6901). */
export function arrayIndexOf(token: string): number | undefined {
  return /^(?:0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}
