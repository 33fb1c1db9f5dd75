/**
 * Every fault code wfkit can report, and which can be configured. Codes come from three
 * places: @wfkit/core's rules (the service's checks), @wfkit/dsl (the `.wf` language and JSON
 * syntax), and this CLI (inline suppressions).
 *
 * Only warnings can be turned off, kept, or raised to errors; errors cannot be lowered or
 * suppressed, because the service would still refuse the graph and a green CI would lie.
 */
import { ruleById, type Severity } from "@wfkit/core";

/** Faults about `# wfkit-ignore` comments; all warnings. */
export const SUPPRESSION_CODES = {
  /** A suppression matched no fault on the line it covers. */
  unused: "unused-suppression",
  /** A suppression gives no reason after the codes. */
  withoutReason: "suppression-without-reason",
  /** A suppression names an error, which cannot be suppressed. */
  ofError: "suppression-of-error",
  /** A `# wfkit-ignore` comment that cannot be read (no code given). */
  malformed: "malformed-suppression",
} as const;

/**
 * The codes of @wfkit/dsl and their severities (its diagnostics.ts lists the codes; a test
 * checks this table covers exactly that list). `number-precision` is an error when a number
 * is too large for a double and a warning when it only loses digits: it is listed as a
 * warning because those instances can be configured; errors never can (see check-file.ts).
 */
export const DSL_CODE_SEVERITY: Readonly<Record<string, Severity>> = {
  syntax: "error",
  "undeclared-node": "error",
  "undeclared-subject": "error",
  "duplicate-name": "error",
  "duplicate-field": "error",
  "duplicate-statement": "error",
  "mixed-document": "error",
  "number-precision": "warning",
  "json-syntax": "error",
  "json-duplicate-key": "warning",
};

/** The severity a code is reported with before any configuration; undefined for unknown codes. */
export function defaultSeverityOf(code: string): Severity | undefined {
  const rule = ruleById.get(code);
  if (rule) return rule.meta.severity;
  if (Object.values(SUPPRESSION_CODES).includes(code as never)) return "warning";
  return DSL_CODE_SEVERITY[code];
}

export function knownCodes(): string[] {
  return [...ruleById.keys(), ...Object.keys(DSL_CODE_SEVERITY), ...Object.values(SUPPRESSION_CODES)];
}
