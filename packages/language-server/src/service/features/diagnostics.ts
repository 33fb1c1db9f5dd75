/** Faults (the CLI's verdict) as editor diagnostics: exact range, code, doc link, related places. */
import { ruleById } from "@wfkit/core";
import type { SourceFault } from "@wfkit/dsl";
import type { WfkitDocument } from "../document.js";
import type { Diagnostic } from "../types.js";

export const CATALOGUE_PROBLEM_CODE = "catalogue-unusable";

export function toDiagnostic(fault: SourceFault, docsBaseUrl: string): Diagnostic {
  const diagnostic: Diagnostic = {
    range: fault.range,
    severity: fault.severity,
    code: fault.code,
    message: fault.message,
    source: "wfkit",
    related: (fault.related ?? []).map((entry) => ({ range: entry.range, message: entry.message })),
  };
  // Only core's rules have pages under docs/rules/; language codes (`syntax`, ...) do not.
  if (ruleById.has(fault.code)) diagnostic.codeHref = `${docsBaseUrl}${fault.code}.md`;
  const data: Diagnostic["data"] = {};
  if (fault.suggestion !== undefined) data.suggestion = fault.suggestion;
  if (fault.nodeId !== undefined) data.nodeId = fault.nodeId;
  if (fault.pointer) data.pointer = fault.pointer;
  if (Object.keys(data).length) diagnostic.data = data;
  return diagnostic;
}

export function doValidation(document: WfkitDocument, docsBaseUrl: string): Diagnostic[] {
  const diagnostics = document.analysis.faults.map((fault) => toDiagnostic(fault, docsBaseUrl));
  if (document.catalogueProblem) {
    diagnostics.unshift({
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      severity: "warning",
      code: CATALOGUE_PROBLEM_CODE,
      message: document.catalogueProblem,
      source: "wfkit",
      related: [],
    });
  }
  return diagnostics;
}
