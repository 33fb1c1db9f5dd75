/** Faults (the CLI's verdict) as editor diagnostics: exact range, code, doc link, related places. */
import { diagnosticCodeByName, EDITOR_CODES } from "@wfkit/core";
import type { SourceFault } from "@wfkit/dsl";
import type { WfkitDocument } from "../document.js";
import type { Diagnostic } from "../types.js";

export const CATALOGUE_PROBLEM_CODE = EDITOR_CODES.catalogueUnusable;

export function toDiagnostic(fault: SourceFault, docsBaseUrl: string): Diagnostic {
  const diagnostic: Diagnostic = {
    range: fault.range,
    severity: fault.severity,
    code: fault.code,
    message: fault.message,
    source: "wfkit",
    related: (fault.related ?? []).map((entry) => ({ range: entry.range, message: entry.message })),
  };
  const href = codeHref(fault.code, docsBaseUrl);
  if (href) diagnostic.codeHref = href;
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
      codeHref: codeHref(CATALOGUE_PROBLEM_CODE, docsBaseUrl)!,
    });
  }
  return diagnostics;
}

/** Every code in core's registry has a page, `<docs base>rules/<code>.md`; the setting names the `rules/` folder. */
function codeHref(code: string, docsBaseUrl: string): string | undefined {
  return diagnosticCodeByName.has(code) ? `${docsBaseUrl}${code}.md` : undefined;
}
