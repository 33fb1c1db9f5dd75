/** Quoted strings of `.wf`: JSON string syntax, read leniently after an error was reported. */

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * The value of a string token (`"a\n"` → a, newline). Also accepts what the lexer already
 * reported as broken (no closing quote, unknown escapes, raw control characters), reading
 * it as closely as possible, so that one bad string does not spoil the rest of the statement.
 */
export function decodeString(image: string): string {
  const closed = image.length >= 2 && image.endsWith('"') && !endsWithOddBackslashes(image.slice(0, -1));
  const body = image.slice(1, closed ? -1 : undefined);
  if (!body.includes("\\")) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== "\\") {
      out += char;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) break;
    if (next === "u" && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(body.slice(i + 2, i + 6), 16));
      i += 5;
    } else {
      out += ESCAPES[next] ?? next;
      i += 1;
    }
  }
  return out;
}

function endsWithOddBackslashes(text: string): boolean {
  let count = 0;
  for (let i = text.length - 1; i >= 0 && text[i] === "\\"; i--) count++;
  return count % 2 === 1;
}

/** A string as `.wf` writes it: a JSON string literal (lone surrogates escaped). */
export function quoteString(value: string): string {
  return JSON.stringify(value);
}
