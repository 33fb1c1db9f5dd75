/**
 * How deeply JSON may nest in what wfkit reads: the one limit the checker's front ends (a
 * `.json` source, a `.wf` JSON literal) and the local service's request bodies share, so
 * `wfkit check` and `wfkit serve` refuse the same inputs with the same words.
 */

/**
 * How deeply arrays and objects may nest in JSON that wfkit reads: a `.json` source and a
 * JSON literal in `.wf` alike. Past it the text is refused with a fault at the first bracket
 * too deep. Walks over values (jsonc-parser's reader, JSON.stringify, matchers) recurse per
 * level and overflow Node's default stack at about 5,000 levels; a definition needs fewer than
 * 10. (Structured clone overflows below 2,000 levels of objects: values are never sent between
 * threads, only text.)
 */
export const MAX_JSON_DEPTH = 2_000;

// Formatted on first need and once: `toLocaleString` is slow (it loads ICU's number formatting
// the first time), and error-dense text can ask for this message once per literal.
let maxDepthText: string | undefined;

/** Why a value nested past `MAX_JSON_DEPTH` is refused (`source`: "a JSON file", "a JSON literal"). */
export function tooDeeplyNestedMessage(source: string): string {
  maxDepthText ??= MAX_JSON_DEPTH.toLocaleString("en");
  return `this value nests arrays and objects more than ${maxDepthText} levels deep, more than wfkit reads in ${source} (a workflow definition needs fewer than 10)`;
}

/**
 * Offset of the first `[` or `{` that opens level `limit + 1`, or -1. One pass over the
 * characters, reading strings and comments as jsonc-parser's scanner does (a string ends at
 * its closing quote or at a line break; a backslash takes the next character), so brackets
 * inside them do not count.
 */
export function firstBracketBeyond(text: string, limit: number): number {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22 || d === 0x0a || d === 0x0d) break;
      }
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      while (i < length && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x2f && text.charCodeAt(i + 1) === 0x2a) {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? length : end + 1;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) {
      depth--;
    }
  }
  return -1;
}

