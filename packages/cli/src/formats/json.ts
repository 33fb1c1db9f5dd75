/**
 * `--format json`: one document for scripts.
 *
 *   { "version": 1,
 *     "files": [ { "path", "ok", "faults": [ Fault + "range" ], "estimate"? } ],
 *     "summary": { "files", "errors", "warnings" } }
 *
 * A fault is @wfkit/core's Fault plus `range` with 1-based `line` and `column` (columns count
 * UTF-16 code units; `end` is just after the range). Related locations get a `range` too.
 * `estimate` is present exactly for the files that are ok.
 */
import type { CheckReport, Diagnostic } from "../report.js";
import { oneBasedRange } from "../report.js";
import type { Formatter } from "./format.js";

export const JSON_FORMAT_VERSION = 1;

export const formatJson: Formatter = (report) => {
  const document = {
    version: JSON_FORMAT_VERSION,
    files: report.files.map((file) => ({
      path: file.path,
      ok: file.ok,
      faults: file.faults.map(jsonFault),
      ...(file.estimate ? { estimate: file.estimate } : {}),
    })),
    summary: report.summary,
  };
  return JSON.stringify(document, null, 2) + "\n";
};

export function jsonFault(fault: Diagnostic): Record<string, unknown> {
  const { range, related, ...rest } = fault;
  return {
    ...rest,
    ...(related?.length ? { related: related.map(({ range: relatedRange, ...entry }) => ({ ...entry, range: oneBasedRange(relatedRange) })) } : {}),
    range: oneBasedRange(range),
  };
}
