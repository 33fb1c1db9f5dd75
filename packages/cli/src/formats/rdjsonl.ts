/**
 * `--format rdjsonl`: reviewdog's Diagnostic Format, one JSON object per line
 * (`reviewdog -f=rdjsonl`). Follows reviewdog's proto (proto/rdf/reviewdog.proto):
 * lines are 1-based and columns are 1-based UTF-8 byte offsets, so they are converted from
 * wfkit's UTF-16 columns here using the file's text. `suggestions` are given only where the
 * replacement text is certain (see suggestionEdit). Each record is one line: JSON escapes
 * line breaks, and `printableKeepingLineBreaks` the other characters a terminal would obey.
 */
import { isBareName } from "@wfkit/dsl";
import { splitLines } from "../codeframe.js";
import type { Diagnostic, FileReport, Position, Range } from "../report.js";
import { printableKeepingLineBreaks } from "../printable.js";
import { HOMEPAGE } from "../project.js";
import { ruleInfo } from "../rule-info.js";
import type { Formatter } from "./format.js";

interface RdPosition {
  line: number;
  column: number;
}

export const formatRdjsonl: Formatter = (report) => {
  let out = "";
  for (const file of report.files) {
    const lines = file.source !== undefined ? splitLines(file.source) : [];
    const position = (at: Position): RdPosition => ({ line: at.line + 1, column: utf8Column(lines[at.line], at.character) + 1 });
    const range = (r: Range) => ({ start: position(r.start), end: position(r.end) });
    for (const fault of file.faults) {
      const info = ruleInfo(fault.code);
      const diagnostic: Record<string, unknown> = {
        message: fault.message,
        location: { path: file.path, range: range(fault.range) },
        severity: fault.severity === "error" ? "ERROR" : "WARNING",
        source: { name: "wfkit", url: HOMEPAGE },
        code: info ? { value: fault.code, url: info.helpUri } : { value: fault.code },
      };
      const edit = suggestionEdit(file, fault, lines);
      if (edit !== undefined) diagnostic.suggestions = [{ range: range(fault.range), text: edit }];
      if (fault.related?.length)
        diagnostic.related_locations = fault.related.map((related) => ({ message: related.message, location: { path: file.path, range: range(related.range) } }));
      out += printableKeepingLineBreaks(JSON.stringify(diagnostic)) + "\n";
    }
  }
  return out;
};

/** UTF-8 bytes in the first `character` UTF-16 code units of `line`. */
export function utf8Column(line: string | undefined, character: number): number {
  if (line === undefined) return character;
  return Buffer.byteLength(line.slice(0, character), "utf8");
}

/**
 * The text that replaces the fault's range to apply its suggestion, when that is certain:
 * the range holds exactly one JSON string literal (a `.json` value, or a quoted `.wf`
 * string), replaced by the suggestion as a string literal; or one bare `.wf` name (the DSL's
 * `isBareName`), replaced by a suggestion that is one too.
 */
export function suggestionEdit(file: FileReport, fault: Diagnostic, lines: readonly string[]): string | undefined {
  if (fault.suggestion === undefined || fault.range.start.line !== fault.range.end.line) return undefined;
  const current = lines[fault.range.start.line]?.slice(fault.range.start.character, fault.range.end.character);
  if (!current) return undefined;
  if (/^"(?:[^"\\]|\\.)*"$/.test(current)) return JSON.stringify(fault.suggestion);
  if (!file.path.endsWith(".json") && isBareName(current) && isBareName(fault.suggestion)) return fault.suggestion;
  return undefined;
}
