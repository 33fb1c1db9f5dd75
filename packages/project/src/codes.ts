/**
 * Which fault codes a project can configure, read from core's diagnostic registry
 * (`diagnostic-codes.ts`): core's rules, @wfkit/dsl's codes and this package's suppressions.
 *
 * Only warnings can be turned off, kept, or raised to errors; errors cannot be lowered or
 * suppressed, because the service would still refuse the graph and a green CI would lie.
 *
 * The tables are Maps, never plain objects: a config or a comment naming `constructor`,
 * `toString` or `__proto__` must find nothing, not an inherited property.
 */
import { diagnosticCodes, RENAMED_CODES, Suggester, type Severity } from "@wfkit/core";

/**
 * The codes a project may configure: every code of core's registry except the editor's own
 * (`catalogue-unusable` is reported after the policy applies, so no setting could reach it).
 */
const CONFIGURABLE: ReadonlyMap<string, Severity> = new Map(diagnosticCodes.filter((info) => info.source !== "editor").map((info) => [info.code, info.severity]));

/**
 * The codes of @wfkit/dsl (the `.wf` language and JSON sources) and their severities.
 * `number-precision` is listed as a warning, the form that can be configured.
 */
export const DSL_CODE_SEVERITY: ReadonlyMap<string, Severity> = new Map(diagnosticCodes.filter((info) => info.source === "dsl").map((info) => [info.code, info.severity]));

/** The severity a code is reported with before any configuration; undefined for unknown codes. */
export function defaultSeverityOf(code: string): Severity | undefined {
  return CONFIGURABLE.get(code);
}

const codeList: readonly string[] = [...CONFIGURABLE.keys()];

export function knownCodes(): readonly string[] {
  return codeList;
}

/**
 * The known code closest to a misspelt one, if any is close (a renamed code's present name
 * first). One budget per process: a file naming a million unknown codes costs a bounded
 * number of comparisons, then no suggestions.
 */
const suggester = new Suggester();
export function closestCode(code: string): string | undefined {
  return RENAMED_CODES.get(code) ?? suggester.closest(code, codeList as string[]);
}
