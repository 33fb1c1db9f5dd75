/**
 * Checking one source text: the DSL's analysis (parse, compile, validate, place every
 * fault), then inline suppressions, then the config's severity settings. Pure apart from
 * reading the catalogue, so it runs the same on the main thread and in a worker.
 */
import type { Catalogue } from "@wfkit/core";
import { analyzeSource } from "@wfkit/dsl";
import type { SeveritySetting } from "./config.js";
import type { Diagnostic, FileReport } from "./report.js";
import { applySuppressions, parseSuppressions } from "./suppress.js";

export interface CheckOptions {
  catalogue: Catalogue;
  severity: ReadonlyMap<string, SeveritySetting>;
}

export interface CheckedSource {
  report: FileReport;
  /** The definition the source stands for; undefined when syntax errors leave it uncertain. */
  definition: unknown;
  /** The `.wf` source's `workflow "name"`, if it has one. */
  workflowName?: string;
}

export function checkText(displayPath: string, text: string, language: "wf" | "json", options: CheckOptions): FileReport {
  return checkSource(displayPath, text, language, options).report;
}

export function checkSource(displayPath: string, text: string, language: "wf" | "json", options: CheckOptions): CheckedSource {
  const analysis = analyzeSource(text, language, { catalogue: options.catalogue });
  // The DSL's faults also carry UTF-16 spans; the report keeps ranges only.
  let faults: Diagnostic[] = analysis.faults.map(({ span: _span, related, ...fault }) => {
    const diagnostic: Diagnostic = { ...fault };
    if (related?.length) diagnostic.related = related.map(({ span: _relatedSpan, ...entry }) => entry);
    return diagnostic;
  });
  if (analysis.ast) faults = applySuppressions(faults, parseSuppressions(text, analysis.ast.comments));
  faults = applySeverity(faults, options.severity).sort(compareDiagnostics);
  const ok = analysis.definition !== undefined && !faults.some((fault) => fault.severity === "error");
  const report: FileReport = { path: displayPath, ok, faults };
  if (ok && analysis.estimate) report.estimate = analysis.estimate;
  if (faults.length) report.source = text;
  const checked: CheckedSource = { report, definition: analysis.definition };
  if (analysis.workflowName !== undefined) checked.workflowName = analysis.workflowName;
  return checked;
}

/** Applies `severity` settings to warnings; errors are never changed (see codes.ts). */
export function applySeverity(faults: Diagnostic[], severity: ReadonlyMap<string, SeveritySetting>): Diagnostic[] {
  if (!severity.size) return faults;
  const result: Diagnostic[] = [];
  for (const fault of faults) {
    const setting = fault.severity === "warning" ? severity.get(fault.code) : undefined;
    if (setting === "off") continue;
    result.push(setting ? { ...fault, severity: setting } : fault);
  }
  return result;
}

/** Text order, then errors first; the sort is stable, so equal faults keep the DSL's order. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    a.range.end.line - b.range.end.line ||
    a.range.end.character - b.range.end.character ||
    (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1)
  );
}
