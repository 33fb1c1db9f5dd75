/**
 * `--format github`: GitHub Actions workflow commands, which GitHub shows as annotations on
 * the pull request's changed lines:
 *
 *   ::error file=flows/a.wf,line=3,col=5,endLine=3,endColumn=9,title=wfkit part-unknown::message
 *
 * Escaped exactly as @actions/core escapes them (`escapeData` and `escapeProperty` in its
 * command.ts), so a message with a newline, `%`, `:` or `,` cannot break the command.
 * Columns are 1-based UTF-16, `endColumn` just after the range, as in every wfkit format.
 * Text from the file (the path, ids in messages) first goes through `printable`, so it holds
 * no line break or control character of its own; the only line break in a message is
 * wfkit's own before "Suggestion:", escaped as `%0A`.
 * Nothing else is printed: a GitHub log is read by the runner, not by a person.
 */
import { printable } from "../printable.js";
import { oneBasedRange, showsSuggestion } from "../report.js";
import type { Formatter } from "./format.js";

export function escapeData(value: string): string {
  return value.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export const formatGithub: Formatter = (report) => {
  let out = "";
  for (const file of report.files)
    for (const fault of file.faults) {
      const { start, end } = oneBasedRange(fault.range);
      const properties: [string, string | number][] = [
        ["file", printable(file.path)],
        ["line", start.line],
        ["col", start.column],
        ["endLine", end.line],
        ["endColumn", end.column],
        ["title", `wfkit ${fault.code}`],
      ];
      const message = printable(fault.message) + (showsSuggestion(fault) ? `\nSuggestion: ${printable(fault.suggestion)}` : "");
      out += `::${fault.severity} ${properties.map(([name, value]) => `${name}=${escapeProperty(String(value))}`).join(",")}::${escapeData(message)}\n`;
    }
  return out;
};
