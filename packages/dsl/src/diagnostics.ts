/**
 * The faults this package reports: core's `Fault`, placed in the source text.
 *
 * Every fault carries both a `span` (UTF-16 offsets, cheap to compute) and a `range`
 * (line/character, what editors and terminals show); see positions.ts for the conventions.
 */
import { defaultSeverity, type DslCode, type Fault, type RelatedLocation, type Severity } from "@wfkit/core";
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

/** What a fault of this package may carry besides its code, message and place. */
export interface SourceFaultExtra {
  nodeId?: string | null;
  pointer?: string;
  related?: SourceRelated[];
  suggestion?: string;
  edge?: number;
  /** Only where one code has two forms: `number-precision` is an error when a number cannot be written at all. */
  severity?: Severity;
}

/**
 * Builds a fault of this package at a span. The code comes from core's registry
 * (`DSL_CODES`), and so does its severity, so neither can drift from the docs.
 */
export function sourceFault(lines: LineIndex, code: DslCode, message: string, span: Span, extra: SourceFaultExtra = {}): SourceFault {
  const fault: SourceFault = {
    code,
    severity: extra.severity ?? defaultSeverity(code),
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

/**
 * Syntax errors reported for one text, at most. Text with an error on every line (a pasted
 * binary, a generator gone wrong) would otherwise cost error recovery on every line and
 * report thousands of faults of which the first few explain the rest. The parser stops at a
 * statement boundary once this many are found, and one more fault says where checking stopped.
 */
export const MAX_SYNTAX_ERRORS = 1_000;
