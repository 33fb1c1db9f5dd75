/**
 * Statement chunks, and `parse`: `.wf` text cut where no statement can run across, so that
 * each piece parses on its own exactly as inside the whole text. `parse` reads broken text a
 * chunk at a time (only the chunks the fast path declines go to chevrotain, through
 * parser-loader.ts), and the language server reparses only the chunks an edit touches.
 *
 * A `.wf` statement ends at the end of its line unless a `{` or `[` is still open (blocks,
 * lists and JSON literals run over lines). So a line break with no bracket open is a boundary
 * the parser cannot see across, and the text between two such boundaries parses the same on
 * its own as inside the whole file. The scan mimics the lexer just enough to count brackets
 * correctly: strings (which end at a line break) and comments are skipped. Its characters
 * come from the DSL's lexical table.
 *
 * An unclosed `{` keeps the depth above 0 to the end of the text, so everything after it is
 * one chunk, exactly as the full parser would read it. And a line starting with `->`
 * continues the chain above it (blank and comment lines between do not matter), so no
 * boundary falls before such a line either. Blank and comment lines after a statement belong
 * to its chunk: a chunk ends where the line of the next token begins.
 */
import { BLANKS, COMMENT_START, NAME_CHAR, PUNCTUATION } from "./syntax-table.js";
import { moveAllOffsets, type Comment, type Statement, type WfFile } from "./ast.js";
import { MAX_SYNTAX_ERRORS, type SourceFault } from "./diagnostics.js";
import { fastParse, fastStatementReader, type FastStatements } from "./fast-parser.js";
import { chevrotainPath } from "./parser-loader.js";
import { lineIndexOf, type LineIndex } from "./positions.js";

const LF = 10;
const CR = 13;
const QUOTE = PUNCTUATION.quote.charCodeAt(0);
const HASH = COMMENT_START.charCodeAt(0);
const BACKSLASH = PUNCTUATION.escape.charCodeAt(0);
const LBRACE = PUNCTUATION.openBlock.charCodeAt(0);
const LBRACKET = PUNCTUATION.openList.charCodeAt(0);
const RBRACE = PUNCTUATION.closeBlock.charCodeAt(0);
const RBRACKET = PUNCTUATION.closeList.charCodeAt(0);

/**
 * The end of the chunk that starts at `start` (a boundary: bracket depth 0): just after the
 * first line break at depth 0 that no `->` line continues, or the end of the text.
 */
export function chunkEnd(text: string, start: number): number {
  // Open brackets, innermost last. A closer that does not match the innermost opener is
  // skipped by the parser with the rest of its line (it closes nothing), so it is ignored here too.
  const open: number[] = [];
  const length = text.length;
  let i = start;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i++;
      while (i < length) {
        const c = text.charCodeAt(i);
        if (c === LF || c === CR) break;
        if (c === BACKSLASH) {
          // An escape never spans a line break: `"\` at the end of a line ends the string.
          const next = text.charCodeAt(i + 1);
          i += next === LF || next === CR ? 1 : 2;
          continue;
        }
        i++;
        if (c === QUOTE) break;
      }
      continue;
    }
    if (code === HASH) {
      while (i < length && text.charCodeAt(i) !== LF && text.charCodeAt(i) !== CR) i++;
      continue;
    }
    if (code === LBRACE || code === LBRACKET) open.push(code);
    else if ((code === RBRACE && open[open.length - 1] === LBRACE) || (code === RBRACKET && open[open.length - 1] === LBRACKET)) open.pop();
    else if (code === LF || code === CR) {
      if (code === CR && text.charCodeAt(i + 1) === LF) i++;
      i++;
      if (open.length > 0) continue;
      // What follows up to the next token is blanks, comments and characters no token
      // matches: no bracket, no string. A chain continued there goes on from its arrow;
      // else the chunk ends at the line of that token, keeping the lines before it (so
      // the next chunk is never scanned from each of many comment lines: linear).
      const token = nextTokenAt(text, i);
      if (token >= length) return length;
      if (isArrowAt(text, token)) {
        i = token;
        continue;
      }
      return lineStartOf(text, token, i);
    }
    i++;
  }
  return length;
}

const BLANK_CODES = new Set([...BLANKS].map((blank) => blank.charCodeAt(0)));

/**
 * True when the next token from `offset` is `->`, as the lexer would find it (see nextTokenAt).
 */
export function continuesChain(text: string, offset: number): boolean {
  return isArrowAt(text, nextTokenAt(text, offset));
}

function isArrowAt(text: string, offset: number): boolean {
  return text.charCodeAt(offset) === MINUS && text.charCodeAt(offset + 1) === GREATER;
}

/**
 * Where the lexer's next token from `offset` begins (the text's length if none does): blanks,
 * line breaks and comments are skipped, and so are characters no token matches (the lexer
 * reports and skips them, so `> -> b` on a line still continues the chain above).
 */
function nextTokenAt(text: string, offset: number): number {
  let i = offset;
  const length = text.length;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === LF || code === CR || BLANK_CODES.has(code)) i++;
    else if (code === HASH) while (i < length && text.charCodeAt(i) !== LF && text.charCodeAt(i) !== CR) i++;
    else if (code === MINUS) {
      const next = text.charCodeAt(i + 1);
      // An arrow, or a negative number; a lone `-` matches no token.
      if (next === GREATER || (next >= 48 && next <= 57)) return i;
      i++;
    } else if (startsToken(code)) return i;
    else i++;
  }
  return length;
}

/** The start of the line holding `offset`, at `floor` or after it (a line start itself). */
function lineStartOf(text: string, offset: number, floor: number): number {
  for (let i = offset; i > floor; i--) {
    const code = text.charCodeAt(i - 1);
    if (code === LF || code === CR) return i;
  }
  return floor;
}

const MINUS = PUNCTUATION.arrow.charCodeAt(0);
const GREATER = PUNCTUATION.arrow.charCodeAt(1);
/** The punctuation a token of the `.wf` lexer can start with (besides a name or number). */
const TOKEN_STARTS = new Set(Object.values(PUNCTUATION).map((text) => text.charCodeAt(0)));

/** Whether a token of the `.wf` lexer can start with this character (a `-` only before `>` or a digit: see the caller). */
function startsToken(code: number): boolean {
  return (code < 128 && NAME_CHAR.test(String.fromCharCode(code))) || (TOKEN_STARTS.has(code) && code !== BACKSLASH);
}

// ---------------------------------------------------------------- parsing by chunks

let setupMs = 0;
let setUp = false;

/**
 * The chevrotain path, its parser built: both happen once per process, on the first text the
 * fast path declines. Their time is kept apart (`parserSetupMs`) so that whoever times a read
 * (the language server's checker thread) can leave out what is not the text's own cost.
 */
function chevrotain(): ReturnType<typeof chevrotainPath> {
  if (setUp) return chevrotainPath();
  const started = performance.now();
  const path = chevrotainPath();
  path.sharedParser();
  setupMs += performance.now() - started;
  setUp = true;
  return path;
}

/** Milliseconds this process has spent setting up the parser for broken text (see `chevrotain`). */
export function parserSetupMs(): number {
  return setupMs;
}

export interface ParseResult {
  ast: WfFile;
  /** Syntax errors (code `syntax`), in text order. */
  faults: SourceFault[];
}

/**
 * Parses `.wf` text. Never throws; always returns a tree (possibly partial) and its syntax errors.
 *
 * Well-formed text takes the hand-written fast path (fast-parser.ts), which builds the same
 * tree without chevrotain. Text it declines is read a statement chunk at a time (below):
 * the fast path reads every chunk it can, and only the chunks it declines go to chevrotain,
 * which recovers and explains; one typo in a large file costs about what the file costs when
 * valid. The result is what chevrotain gives for the whole text (a property test compares them).
 */
export function parse(text: string): ParseResult {
  const read = fastStatementReader(text);
  const whole = read(0);
  if (whole.declinedAt === undefined) return { ast: { type: "file", statements: whole.statements, comments: whole.comments, start: 0, end: text.length }, faults: [] };
  return parseByChunks(text, read, whole);
}

function parseByChunks(text: string, read: (from: number) => FastStatements, first: FastStatements): ParseResult {
  const statements: Statement[] = [];
  const comments: Comment[] = [];
  const faults: SourceFault[] = [];
  // Shared with the compile of the same text (analyze.ts), which places its faults with it.
  const lines = lineIndexOf(text);
  let errorCount = 0;
  let from = 0;
  while (from < text.length) {
    const fast = from === 0 ? first : read(from);
    let start = fast.end;
    // The fast path takes a line break for a statement's end where `continuesChain` sees a chain
    // continued past characters no token matches: that statement goes with the broken chunk.
    let kept = fast.statements.length;
    if (fast.declinedAt !== undefined && start < text.length && continuesChain(text, start)) {
      start = fast.previousEnd;
      kept--;
    }
    for (let i = 0; i < kept; i++) statements.push(fast.statements[i]!);
    for (const comment of fast.comments) if (comment.start < start) comments.push(comment);
    if (fast.declinedAt === undefined) break;
    let end = chunkEnd(text, start);
    while (end <= fast.declinedAt && end < text.length) end = chunkEnd(text, end);
    const chunk = parseChunk(text, start, end, lines);
    errorCount += chunk.errorCount;
    // Past the cap, the whole text's parse says where it stopped, as a chunk's cannot.
    if (errorCount >= MAX_SYNTAX_ERRORS / 2) return chevrotain().parseWithChevrotain(text);
    for (const statement of chunk.statements) statements.push(statement);
    for (const comment of chunk.comments) comments.push(comment);
    for (const fault of chunk.faults) faults.push(fault);
    from = end;
  }
  return { ast: { type: "file", statements, comments, start: 0, end: text.length }, faults };
}

/** What one chunk of a text holds, placed in the whole text. */
export interface ParsedChunk {
  statements: Statement[];
  comments: Comment[];
  /** Syntax errors, with spans and ranges in the whole text. */
  faults: SourceFault[];
  /** How many syntax errors the parser met, before the cap on those reported (see parse). */
  errorCount: number;
}

/** After a chunk that is not the last: a comment line, which adds no token but says "more follows". */
const MORE_FOLLOWS = "\n#";
const NON_BLANK = /\S/g;

/**
 * Parses the chunks of `text` from `start` to `end` (chunk boundaries, see `chunkEnd`) as
 * they parse inside the whole text: the same tree and syntax errors, placed in it.
 */
export function parseChunk(text: string, start: number, end: number, lines: LineIndex): ParsedChunk {
  // Some messages are worded by whether only blanks follow ("found the end of the file"): a
  // chunk followed by blanks alone is parsed as the end of the text, any other with a hint
  // that more follows.
  NON_BLANK.lastIndex = end;
  const isLast = !NON_BLANK.test(text);
  const chunkText = text.slice(start, end);
  const source = isLast ? chunkText : chunkText + MORE_FOLLOWS;
  const fast = fastParse(source);
  const parsed = fast ? { ast: fast, faults: [], errorCount: 0 } : chevrotain().chevrotainParse(source);
  const comments = isLast ? parsed.ast.comments : parsed.ast.comments.filter((comment) => comment.start < chunkText.length);
  const { statements } = parsed.ast;
  const faults = parsed.faults;
  moveAllOffsets([statements, comments, faults], start);
  for (const fault of faults) {
    fault.range = lines.rangeOf(fault.span);
    if (fault.related) for (const related of fault.related) related.range = lines.rangeOf(related.span);
  }
  return { statements, comments, faults, errorCount: parsed.errorCount };
}
