import type { Severity } from "../fault.js";
import type { RuleContext } from "../checker/context.js";

export interface RuleMeta {
  /** Stable code reported on every fault; also the rule's file name and doc page name. */
  readonly id: string;
  readonly severity: Severity;
  /** One line: what the rule checks. */
  readonly title: string;
  /** Why it matters: what the service does with such a graph. */
  readonly rationale: string;
  /** How to fix a fault. */
  readonly fix: string;
  /** Choices wfkit made where the reference is silent; listed in docs/rules.md. */
  readonly assumptions?: readonly string[];
}

export interface Rule {
  readonly meta: RuleMeta;
  check(ctx: RuleContext): void;
}

export function defineRule(rule: Rule): Rule {
  return rule;
}
