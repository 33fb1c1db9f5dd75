/**
 * Statement chunks: `.wf` text cut where no statement can run across, so that each piece
 * parses on its own exactly as inside the whole text. The parser reads broken text a chunk
 * at a time (only the chunks the fast path declines go to chevrotain), and the language
 * server reparses only the chunks an edit touches.
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

export interface Chunk {
  /** Offset of the chunk's first character in the document. */
  start: number;
  /** The chunk's text, including its trailing line break. */
  text: string;
}

const LF = 10;
const CR = 13;
const QUOTE = PUNCTUATION.quote.charCodeAt(0);
const HASH = COMMENT_START.charCodeAt(0);
const BACKSLASH = PUNCTUATION.escape.charCodeAt(0);
const LBRACE = PUNCTUATION.openBlock.charCodeAt(0);
const LBRACKET = PUNCTUATION.openList.charCodeAt(0);
const RBRACE = PUNCTUATION.closeBlock.charCodeAt(0);
const RBRACKET = PUNCTUATION.closeList.charCodeAt(0);

/** Splits a whole text into chunks. */
export function splitChunks(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  do {
    const end = chunkEnd(text, start);
    chunks.push({ start, text: text.slice(start, end) });
    start = end;
  } while (start < text.length);
  return chunks;
}

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
