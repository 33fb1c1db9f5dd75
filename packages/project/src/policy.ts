/**
 * What a project's settings do to a source's faults, after `analyzeSource` (or the editor's
 * incremental equivalent) placed them: inline suppressions, then the config's severity.
 * The CLI and the language server both call `applyProjectPolicy`, so a file gets the same
 * verdict in the terminal and in the editor.
 */
import type { SourceFault, WfFile } from "@wfkit/dsl";
import type { SeveritySetting } from "./config-text.js";
import { applySuppressions, parseSuppressions } from "./suppress.js";

export interface FilePolicy {
  /** The config's `severity` settings (empty without a config). */
  severity: ReadonlyMap<string, SeveritySetting>;
}

export const NO_POLICY: FilePolicy = { severity: new Map() };

export interface PolicyInput {
  text: string;
  faults: readonly SourceFault[];
  /** The `.wf` syntax tree, for its comments; undefined for JSON, which has none. */
  ast?: WfFile | undefined;
  /** Whether the source stands for a definition (undefined when syntax errors leave it uncertain). */
  definition: unknown;
}

export interface PolicyResult {
  /** In text order, errors first where two start at the same place. */
  faults: SourceFault[];
  /** A definition and no error left. */
  ok: boolean;
}

export function applyProjectPolicy(input: PolicyInput, policy: FilePolicy): PolicyResult {
  const parsed = input.ast ? parseSuppressions(input.text, input.ast.comments) : undefined;
  const suppressing = parsed !== undefined && (parsed.suppressions.length > 0 || parsed.faults.length > 0);
  let faults: SourceFault[] = suppressing ? applySuppressions(input.faults, parsed) : [...input.faults];
  // The analysis's faults come in this order already; only the suppressions' own faults, or
  // a warning made an error (errors go first at one place), can move.
  const reorder = suppressing || policy.severity.size > 0;
  faults = applySeverity(faults, policy.severity);
  if (reorder) faults.sort(compareByPlace);
  return { faults, ok: input.definition !== undefined && !faults.some((fault) => fault.severity === "error") };
}

/** Applies `severity` settings to warnings; errors are never changed (see codes.ts). */
export function applySeverity(faults: SourceFault[], severity: ReadonlyMap<string, SeveritySetting>): SourceFault[] {
  if (!severity.size) return faults;
  const result: SourceFault[] = [];
  for (const fault of faults) {
    const setting = fault.severity === "warning" ? severity.get(fault.code) : undefined;
    if (setting === "off") continue;
    result.push(setting ? { ...fault, severity: setting } : fault);
  }
  return result;
}

/** Text order, then errors first; the sort is stable, so equal faults keep the DSL's order. */
function compareByPlace(a: SourceFault, b: SourceFault): number {
  return (
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    a.range.end.line - b.range.end.line ||
    a.range.end.character - b.range.end.character ||
    (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1)
  );
}
