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
import { printableKeepingLineBreaks } from "../printable.js";

export const JSON_FORMAT_VERSION = 1;

export const formatJson: Formatter = (report) => [...formatJsonChunks(report)].join("");

/** Where a file's faults go in the document's skeleton (a NUL cannot occur in a path). */
const faultsSlot = (index: number) => `\u0000faults ${index}\u0000`;
const CHUNK_SIZE = 1 << 20;

/**
 * The document of formatJson, byte for byte, in pieces of about 1 MB, made as they are
 * written: a million faults make more text than one JavaScript string can hold (V8's
 * string limit), and holding all the pieces at once would
 * exhaust the heap. The skeleton is stringified with a placeholder for each file's faults,
 * then each fault is stringified alone and indented to its place. Characters a terminal would
 * obey that JSON leaves raw (C1, line separators) are written as `\u` escapes (printable.ts).
 */
export function* formatJsonChunks(report: CheckReport): Generator<string> {
  const document = {
    version: JSON_FORMAT_VERSION,
    files: report.files.map((file, index) => ({
      path: file.path,
      ok: file.ok,
      faults: faultsSlot(index),
      ...(file.estimate ? { estimate: file.estimate } : {}),
    })),
    summary: report.summary,
  };
  const skeleton = JSON.stringify(document, null, 2) + "\n";
  let pending = "";
  let rest = skeleton;
  for (let index = 0; index < report.files.length; index++) {
    const faults = report.files[index]!.faults;
    const slot = JSON.stringify(faultsSlot(index));
    const at = rest.indexOf(slot);
    pending += rest.slice(0, at);
    rest = rest.slice(at + slot.length);
    if (!faults.length) {
      pending += "[]";
      continue;
    }
    pending += "[\n";
    for (let i = 0; i < faults.length; i++) {
      pending += `${i ? ",\n" : ""}        ${JSON.stringify(jsonFault(faults[i]!), null, 2).replace(/\n/g, "\n        ")}`;
      if (pending.length >= CHUNK_SIZE) {
        yield printableKeepingLineBreaks(pending);
        pending = "";
      }
    }
    pending += "\n      ]";
  }
  pending += rest;
  if (pending) yield printableKeepingLineBreaks(pending);
}

export function jsonFault(fault: Diagnostic): Record<string, unknown> {
  const { range, related, ...rest } = fault;
  return {
    ...rest,
    ...(related?.length ? { related: related.map(({ range: relatedRange, ...entry }) => ({ ...entry, range: oneBasedRange(relatedRange) })) } : {}),
    range: oneBasedRange(range),
  };
}
