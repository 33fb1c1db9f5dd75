/**
 * Text from the user's files (ids, names, paths, file names) made safe to print where a
 * terminal or a CI log reads it. Such text can hold line breaks, which let a node id start a
 * line of its own (GitHub Actions runs any line starting with `::error` or `::add-mask::`
 * from a step's log as a command), and control characters, which a terminal obeys (ESC and
 * the C1 CSI start colour, cursor, hyperlink and clipboard sequences; BEL; a CR that
 * overwrites the line). Bidirectional overrides reorder what the reader sees.
 *
 * One class of characters, `UNSAFE`, and one function, `printable`, which every output for
 * people and CI logs applies to such text: pretty, github, every message on stderr (through
 * `reportFailure`), graph labels, estimate tables, `fmt`'s file lists. JSON outputs escape
 * the same class inside their strings (`printableKeepingLineBreaks`), so they stay one line per record and
 * print safely too. The code frame masks them one for one, so its carets stay aligned.
 */

/**
 * C0 controls but tab, DEL, C1 controls (NEL U+0085 and CSI U+009B among them), the Unicode
 * line and paragraph separators, and the bidirectional embedding, override and isolate marks.
 */
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r" };

function codeEscape(char: string): string {
  return NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every unsafe character written as an escape (`\n`, `\r`, `\u001b`), or with
 * `mask` replaced by U+FFFD one for one (the same length, for text that carets point into).
 */
export function printable(text: string, mode: "escape" | "mask" = "escape"): string {
  return mode === "escape" ? text.replace(UNSAFE, codeEscape) : text.replace(UNSAFE, "\ufffd");
}

/**
 * Text whose line breaks are its own layout (JSON from JSON.stringify, decompiled `.wf`)
 * with every other unsafe character written as a `\u` escape. In such text those characters
 * occur only inside string literals, where JSON and `.wf` read `\u` escapes as the same
 * character: the value is unchanged and the text prints safely. (JSON.stringify escapes C0
 * but leaves DEL, C1, the separators and bidi marks raw.)
 */
export function printableKeepingLineBreaks(text: string): string {
  return text.replace(UNSAFE, (char) => (char === "\n" || char === "\r" ? char : codeEscape(char)));
}
