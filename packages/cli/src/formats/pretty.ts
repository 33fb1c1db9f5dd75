/**
 * `--format pretty` (the default): for people at a terminal.
 *
 *   error[part-unknown]: `terminal.compar` is not a part in the catalogue...
 *     --> flows/brief.wf:12:10
 *       11 |   node a {
 *     > 12 |     part terminal.compar
 *          |          ^^^^^^^^^^^^^^^
 *       13 |   }
 *     suggestion: terminal.compare
 *     related: flows/brief.wf:4:3: `a` is first declared here
 *
 *   flows/ok.wf: ok, estimate 340 minor units
 *
 *   2 problems (1 error, 1 warning) in 1 of 2 files
 *
 * `path:line:col` is written the way editors and terminals make clickable. Messages, paths and
 * suggestions go through `printable`: what a file supplies never reaches the terminal raw.
 */
import { codeFrame, splitLines } from "../codeframe.js";
import type { CheckReport, Diagnostic, FileReport } from "../report.js";
import { oneBased, plural, showsSuggestion } from "../report.js";
import type { FormatContext, Formatter } from "./format.js";
import { formatMinorUnits } from "../money.js";
import { printable } from "../printable.js";

export const formatPretty: Formatter = (report, context) => {
  const blocks: string[] = [];
  for (const file of report.files) {
    const lines = file.source !== undefined ? splitLines(file.source) : [];
    for (const fault of file.faults) blocks.push(renderFault(file, fault, lines, context));
    if (file.ok && file.estimate && !context.quiet) blocks.push(renderEstimateLine(file, context));
  }
  const summary = renderSummary(report, context);
  if (summary) blocks.push(summary);
  return blocks.length ? blocks.join("\n\n") + "\n" : "";
};

/** The faults of one file, as `check` shows them; for commands that report on stderr. */
export function renderFileFaults(file: FileReport, context: FormatContext): string {
  const lines = file.source !== undefined ? splitLines(file.source) : [];
  return file.faults.map((fault) => renderFault(file, fault, lines, context) + "\n").join("\n");
}

function renderFault(file: FileReport, fault: Diagnostic, lines: readonly string[], { paint }: FormatContext): string {
  const severity = fault.severity === "error" ? paint.paint(["bold", "red"], "error") : paint.paint(["bold", "yellow"], "warning");
  const start = oneBased(fault.range.start);
  const path = printable(file.path);
  const out = [`${severity}${paint.paint("bold", `[${fault.code}]`)}: ${printable(fault.message)}`, `  ${paint.paint("dim", "-->")} ${paint.paint("cyan", `${path}:${start.line}:${start.column}`)}`];
  if (lines.length) out.push(codeFrame(lines, fault.range, paint, "  ", fault.severity === "error" ? "red" : "yellow"));
  if (showsSuggestion(fault)) out.push(`  ${paint.paint("green", "suggestion:")} ${printable(fault.suggestion)}`);
  for (const related of fault.related ?? []) {
    const at = oneBased(related.range.start);
    out.push(`  ${paint.paint("dim", "related:")} ${paint.paint("cyan", `${path}:${at.line}:${at.column}`)}: ${printable(related.message)}`);
  }
  return out.join("\n");
}

function renderEstimateLine(file: FileReport, { paint }: FormatContext): string {
  const estimate = file.estimate!;
  return `${paint.paint("green", "ok")} ${paint.paint("cyan", printable(file.path))}: estimate ${formatMinorUnits(estimate.costMinorUnits)} minor units (${plural(estimate.parts.length, "part")})`;
}

function renderSummary(report: CheckReport, { paint, quiet }: FormatContext): string {
  const { files, errors, warnings } = report.summary;
  const problems = errors + warnings;
  if (problems === 0) return quiet ? "" : paint.paint("green", `${plural(files, "file")} checked: no problems`);
  const withFaults = report.files.filter((file) => file.faults.length).length;
  const counts = quiet ? plural(errors, "error") : `${plural(problems, "problem")} (${plural(errors, "error")}, ${plural(warnings, "warning")})`;
  const line = `${counts} in ${withFaults} of ${plural(files, "file")}`;
  return paint.paint(["bold", errors ? "red" : "yellow"], line);
}
