import type { Severity } from "../fault.js";
import type { RuleCategory } from "../diagnostic-codes.js";
import type { RuleContext } from "../checker/context.js";
import type { PartNode } from "./parts.js";

export interface RuleMeta {
  /** Stable code reported on every fault; also the rule's file name and doc page name. */
  readonly id: string;
  readonly severity: Severity;
  /** What the rule judges; groups the codes in docs/rules.md. */
  readonly category: RuleCategory;
  /** One line: what the rule checks. */
  readonly title: string;
  /** Why it matters: what the service does with such a graph. */
  readonly rationale: string;
  /** How to fix a fault. */
  readonly fix: string;
  /** Choices wfkit made where the reference is silent; listed in docs/rules.md. */
  readonly assumptions?: readonly string[];
}

/**
 * A rule judges the whole input in `check`, or one part node at a time in `part`. The runner
 * (checker/run.ts) walks the part nodes once and calls every `part` rule on each, so the part
 * rules share one pass over the nodes instead of making one each (the node objects of a
 * large graph do not stay in the CPU cache between passes). Either way a rule reports in
 * document order, and the runner keeps each rule's faults together, in rule order.
 */
export type Rule = { readonly meta: RuleMeta } & (
  | { check(ctx: RuleContext): void; part?: undefined; partsJudged?: undefined }
  | { part(node: PartNode, ctx: RuleContext): void; check?: undefined; partsJudged?: PartsJudged }
);

/**
 * Which part nodes a part rule can have something to say about, when not all of them: those
 * with a `terminal` object (`hasTerminal`), or those without one. The runner calls `part`
 * only on those: on a large graph, the calls themselves (one per rule and part node) are much
 * of the part rules' time. The rule still returns early on the others by itself, so that
 * calling it on any part node stays correct (test/parts-judged.property.test.ts holds it to that).
 */
export type PartsJudged = "with-terminal" | "without-terminal";

export function defineRule(rule: Rule): Rule {
  return rule;
}
