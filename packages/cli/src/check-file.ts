/**
 * Checking one source text: the DSL's analysis (parse, compile, validate, place every
 * fault), then the project's policy (inline suppressions, the config's severity settings)
 * from @wfkit/project, the code the language server runs too. Pure apart from reading the
 * catalogue, so it runs the same on the main thread and in a worker.
 */
import type { Catalogue, Estimate } from "@wfkit/core";
import { analyzeSource, type AnalyzeOptions } from "@wfkit/dsl";
import { applyProjectPolicy, type SeveritySetting } from "@wfkit/project";
import type { Diagnostic, FileReport } from "./report.js";

export interface CheckOptions {
  catalogue: Catalogue;
  severity: ReadonlyMap<string, SeveritySetting>;
  /** JSON only: what a scan of this very text found (a directory walk's, see files.ts). */
  scannedJson?: AnalyzeOptions["scannedJson"];
}

export interface CheckedSource {
  report: FileReport;
  /** The definition the source stands for; undefined when syntax errors leave it uncertain. */
  definition: unknown;
  /** The `.wf` source's `workflow "name"`, if it has one. */
  workflowName?: string;
  /** The best-effort estimate, given even when the file has errors (the report's is only for clean files). */
  estimate?: Estimate;
  /** Set when the source is a Consumer Signals alert or view body rather than a workflow definition. */
  bodyKind?: "alert" | "view";
}

export function checkText(displayPath: string, text: string, language: "wf" | "json", options: CheckOptions): FileReport {
  return checkSource(displayPath, text, language, options).report;
}

export function checkSource(displayPath: string, text: string, language: "wf" | "json", options: CheckOptions): CheckedSource {
  const analysis = analyzeSource(text, language, options.scannedJson ? { catalogue: options.catalogue, fileName: displayPath, scannedJson: options.scannedJson } : { catalogue: options.catalogue, fileName: displayPath });
  const { faults: placed, ok } = applyProjectPolicy({ text, faults: analysis.faults, ast: analysis.ast, definition: analysis.definition }, { severity: options.severity });
  // The DSL's faults also carry UTF-16 spans; the report keeps ranges only.
  const faults: Diagnostic[] = placed.map(({ span: _span, related, ...fault }) => {
    const diagnostic: Diagnostic = { ...fault };
    if (related?.length) diagnostic.related = related.map(({ span: _relatedSpan, ...entry }) => entry);
    return diagnostic;
  });
  const report: FileReport = { path: displayPath, ok, faults };
  if (ok && analysis.estimate) report.estimate = analysis.estimate;
  if (faults.length) report.source = text;
  const checked: CheckedSource = { report, definition: analysis.definition };
  if (analysis.workflowName !== undefined) checked.workflowName = analysis.workflowName;
  if (analysis.estimate) checked.estimate = analysis.estimate;
  if (analysis.bodyKind !== undefined && analysis.bodyKind !== "definition") checked.bodyKind = analysis.bodyKind;
  return checked;
}
