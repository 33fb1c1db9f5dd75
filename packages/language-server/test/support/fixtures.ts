/** Texts the protocol tests open, and helpers to find places in them. */
import type { Position } from "vscode-languageserver-protocol";

export const VALID_WF = `# A peer comparison, delivered after a floor check.
workflow "grocers"

subject tesco = company "cmp_tesco" "Tesco PLC"
subject sainsbury = company "cmp_sbry" "J Sainsbury plc"

trigger start on_demand
part compare = terminal.compare@1 {
  job compare.peers@1
  subjects [tesco, sainsbury]
}
part report = pack@1
gate floor hold
destination inbox standalone

start -> compare -> report -> floor -> inbox
`;

/** The position of the `occurrence`-th (0-based) `needle` in `text`, plus `offset` characters. */
export function positionOf(text: string, needle: string, occurrence = 0, offset = 0): Position {
  let index = -1;
  for (let i = 0; i <= occurrence; i++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`"${needle}" #${occurrence} not in the text`);
  }
  index += offset;
  const before = text.slice(0, index);
  const line = before.split("\n").length - 1;
  return { line, character: index - (before.lastIndexOf("\n") + 1) };
}

/** The text a range covers. */
export function textOf(text: string, range: { start: Position; end: Position }): string {
  const lines = text.split("\n");
  const offset = (p: Position) => lines.slice(0, p.line).reduce((sum, line) => sum + line.length + 1, 0) + p.character;
  return text.slice(offset(range.start), offset(range.end));
}

/** Applies LSP text edits (non-overlapping) to a text. */
export function applyTextEdits(text: string, edits: { range: { start: Position; end: Position }; newText: string }[]): string {
  const lines = text.split("\n");
  const offset = (p: Position) => lines.slice(0, p.line).reduce((sum, line) => sum + line.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let result = text;
  for (const edit of sorted) result = result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end));
  return result;
}
