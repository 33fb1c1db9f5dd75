/**
 * Splits `.wf` text into statement chunks: the unit of incremental reparsing.
 *
 * A `.wf` statement ends at the end of its line unless a `{` or `[` is still open (blocks,
 * lists and JSON literals run over lines). So a line break at bracket depth 0 is a boundary
 * the parser cannot see across, and the text between two such boundaries parses the same on
 * its own as inside the whole file. The scan mimics the lexer just enough to count brackets
 * correctly: strings (which end at a line break) and `#` comments are skipped.
 *
 * An unclosed `{` keeps the depth above 0 to the end of the text, so everything after it is
 * one chunk, exactly as the full parser would read it.
 */

export interface Chunk {
  /** Offset of the chunk's first character in the document. */
  start: number;
  /** The chunk's text, including its trailing line break. */
  text: string;
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const HASH = 35;
const BACKSLASH = 92;
const OPENERS = new Set([123, 91]); // { [
const CLOSERS = new Set([125, 93]); // } ]

/**
 * Lines are grouped into chunks of at least `minLines` lines (boundaries still fall only at
 * depth 0), trading a little reparse work per edit for far fewer chunks to splice.
 */
export function splitChunks(text: string, minLines = 1): Chunk[] {
  const chunks: Chunk[] = [];
  let depth = 0;
  let chunkStart = 0;
  let linesInChunk = 0;
  const length = text.length;
  let i = 0;
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
    if (OPENERS.has(code)) depth++;
    else if (CLOSERS.has(code)) depth = Math.max(0, depth - 1);
    else if (code === LF || code === CR) {
      if (code === CR && text.charCodeAt(i + 1) === LF) i++;
      i++;
      linesInChunk++;
      if (depth === 0 && linesInChunk >= minLines) {
        chunks.push({ start: chunkStart, text: text.slice(chunkStart, i) });
        chunkStart = i;
        linesInChunk = 0;
      }
      continue;
    }
    i++;
  }
  if (chunkStart < length || chunks.length === 0) chunks.push({ start: chunkStart, text: text.slice(chunkStart) });
  return chunks;
}
