/**
 * The faults this package reports: core's `Fault`, placed in the source text.
 *
 * Every fault carries both a `span` (UTF-16 offsets, cheap to compute) and a `range`
 * (line/character, what editors and terminals show); see positions.ts for the conventions.
 */
import type { Fault, RelatedLocation, Severity } from "@wfkit/core";
import type { LineIndex, Range, Span } from "./positions.js";

/** A related place of a fault ("first declared here"), placed in the source. */
export interface SourceRelated extends RelatedLocation {
  range: Range;
  span: Span;
}

/** A fault placed in the source: of the language itself, of JSON syntax, or from @wfkit/core. */
export interface SourceFault extends Omit<Fault, "related"> {
  range: Range;
  span: Span;
  related?: SourceRelated[];
}

/** The fault codes of the `.wf` language and of JSON sources (documented in docs/dsl-codes.md). */
export const DSL_CODES = {
  /** The `.wf` text does not follow the grammar. */
  syntax: "syntax",
  /** An edge names a node that no statement declares. */
  undeclaredNode: "undeclared-node",
  /** A `subjects [...]` list names a subject that no `subject` statement declares. */
  undeclaredSubject: "undeclared-subject",
  /** A node or subject name is declared twice. */
  duplicateName: "duplicate-name",
  /** A field is written twice in one object (a repeated property, a `with` block repeating a field). */
  duplicateField: "duplicate-field",
  /** A statement that may appear once (`workflow`, `version`, a block's `trigger`) appears again. */
  duplicateStatement: "duplicate-statement",
  /** `document` is used together with graph statements. */
  mixedDocument: "mixed-document",
  /** A number literal has no exact JSON value (too large, or more digits than a double keeps). */
  numberPrecision: "number-precision",
  /** A `.json` source is not strict JSON. */
  jsonSyntax: "json-syntax",
  /** A `.json` object repeats a key; JSON readers keep only the last. */
  jsonDuplicateKey: "json-duplicate-key",
} as const;

export type DslCode = (typeof DSL_CODES)[keyof typeof DSL_CODES];

/** Builds a fault of this package at a span. */
export function sourceFault(
  lines: LineIndex,
  code: string,
  severity: Severity,
  message: string,
  span: Span,
  extra: { nodeId?: string | null; pointer?: string; related?: SourceRelated[]; suggestion?: string; edge?: number } = {},
): SourceFault {
  const fault: SourceFault = {
    code,
    severity,
    message,
    nodeId: extra.nodeId ?? null,
    pointer: extra.pointer ?? "",
    range: lines.rangeOf(span),
    span,
  };
  if (extra.edge !== undefined) fault.edge = extra.edge;
  if (extra.suggestion !== undefined) fault.suggestion = extra.suggestion;
  if (extra.related?.length) fault.related = extra.related;
  return fault;
}

/** Orders faults by where they start, then errors before warnings; stable otherwise. */
export function compareFaults(a: SourceFault, b: SourceFault): number {
  return a.span.start - b.span.start || a.span.end - b.span.end || severityRank(a.severity) - severityRank(b.severity);
}

function severityRank(severity: Severity): number {
  return severity === "error" ? 0 : 1;
}
