/**
 * What outputs say about each fault code the CLI can report: core's diagnostic registry
 * (`diagnostic-codes.ts`) with a SARIF name made from each title.
 */
import { diagnosticCodes, type Severity } from "@wfkit/core";

export interface RuleInfo {
  id: string;
  /** A descriptive PascalCase name (SARIF's `name`), made from the title: never the id. */
  name: string;
  severity: Severity;
  title: string;
  rationale: string;
  fix: string;
  helpUri: string;
}

let cached: RuleInfo[] | undefined;
let byCode: ReadonlyMap<string, RuleInfo> | undefined;

/** Every code the CLI reports, in the registry's order (core's rules, the DSL's, the suppressions'). */
export function allRuleInfo(): RuleInfo[] {
  cached ??= diagnosticCodes
    .filter((info) => info.source !== "editor")
    .map((info) => ({
      id: info.code,
      name: nameOfTitle(info.title),
      severity: info.severity,
      title: info.title,
      rationale: info.rationale,
      fix: info.fix,
      helpUri: info.helpUrl,
    }));
  return cached;
}

/** "The `.wf` text follows the grammar" becomes "TheWfTextFollowsTheGrammar"; "a trigger's" becomes "ATriggers". */
export function nameOfTitle(title: string): string {
  return (title.replace(/['\u2019]/g, "").match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

export function ruleInfo(code: string): RuleInfo | undefined {
  byCode ??= new Map(allRuleInfo().map((info) => [info.id, info]));
  return byCode.get(code);
}
