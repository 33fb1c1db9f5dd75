/**
 * Every fault code wfkit can report, and which can be configured. Codes come from three
 * places: @wfkit/core's rules (the service's checks), @wfkit/dsl (the `.wf` language and JSON
 * syntax), and this package (inline suppressions).
 *
 * Only warnings can be turned off, kept, or raised to errors; errors cannot be lowered or
 * suppressed, because the service would still refuse the graph and a green CI would lie.
 *
 * The tables are Maps, never plain objects: a config or a comment naming `constructor`,
 * `toString` or `__proto__` must find nothing, not an inherited property.
 */
import { ruleById, Suggester, type Severity } from "@wfkit/core";

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
 * warning because those instances can be configured; errors never can (see policy.ts).
 */
export const DSL_CODE_SEVERITY: ReadonlyMap<string, Severity> = new Map<string, Severity>([
  ["syntax", "error"],
  ["undeclared-node", "error"],
  ["undeclared-subject", "error"],
  ["duplicate-name", "error"],
  ["duplicate-field", "error"],
  ["duplicate-statement", "error"],
  ["mixed-document", "error"],
  ["number-precision", "warning"],
  ["json-syntax", "error"],
  ["json-duplicate-key", "warning"],
]);

const SUPPRESSION_CODE_SET: ReadonlySet<string> = new Set(Object.values(SUPPRESSION_CODES));

/** The severity a code is reported with before any configuration; undefined for unknown codes. */
export function defaultSeverityOf(code: string): Severity | undefined {
  const rule = ruleById.get(code);
  if (rule) return rule.meta.severity;
  if (SUPPRESSION_CODE_SET.has(code)) return "warning";
  return DSL_CODE_SEVERITY.get(code);
}

let codeList: readonly string[] | undefined;

export function knownCodes(): readonly string[] {
  codeList ??= [...ruleById.keys(), ...DSL_CODE_SEVERITY.keys(), ...SUPPRESSION_CODE_SET];
  return codeList;
}

/**
 * The known code closest to a misspelt one, if any is close. One budget per process: a file
 * naming a million unknown codes costs a bounded number of comparisons, then no suggestions.
 */
const suggester = new Suggester();
export function closestCode(code: string): string | undefined {
  return suggester.closest(code, knownCodes() as string[]);
}
