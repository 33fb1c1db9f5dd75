/**
 * Running rules over a model. Whole-input rules (`check`) run one after another; part rules
 * (`part`) run together, node by node, in one walk over the part nodes (see Rule). Faults end
 * up grouped by rule, in the order of the rule list, each rule's in the order it reported
 * them: as if every rule had run on its own.
 */
import type { Fault } from "../fault.js";
import type { Rule } from "../rules/rule.js";
import type { PartNode } from "../rules/parts.js";
import type { RuleContext } from "./context.js";
import type { NodeInfo } from "./model.js";

/**
 * The part rules of a rule list, in rule order: those to call on a part node with a `terminal`
 * object and those to call on one without (see Rule's `partsJudged`), so that the walk over
 * the nodes picks a list per node instead of asking each rule.
 */
export interface PartRules {
  readonly count: number;
  readonly withTerminal: readonly Rule[];
  readonly withoutTerminal: readonly Rule[];
}

/** Runs the whole-input rules of `rules`; returns the part rules, for `runPartRules`. */
export function runCheckRules(ctx: RuleContext, rules: readonly Rule[]): PartRules {
  const withTerminal: Rule[] = [];
  const withoutTerminal: Rule[] = [];
  let count = 0;
  for (const rule of rules) {
    if (rule.check) {
      ctx.beginRule(rule.meta.id, rule.meta.severity);
      rule.check(ctx);
      continue;
    }
    count++;
    if (rule.partsJudged !== "without-terminal") withTerminal.push(rule);
    if (rule.partsJudged !== "with-terminal") withoutTerminal.push(rule);
  }
  return { count, withTerminal, withoutTerminal };
}

/** Runs every part rule on `node` when it is a part node (each only on the parts it judges). */
export function runPartRules(ctx: RuleContext, partRules: PartRules, node: NodeInfo): void {
  if (node.kind !== "part") return;
  const list = node.hasTerminal ? partRules.withTerminal : partRules.withoutTerminal;
  for (let r = 0; r < list.length; r++) {
    const rule = list[r]!;
    ctx.beginRule(rule.meta.id, rule.meta.severity);
    rule.part!(node as PartNode, ctx);
  }
}

/** Puts faults in rule order; Array.prototype.sort is stable, so each rule's keep their order. */
export function sortByRule(faults: Fault[], rules: readonly Rule[]): void {
  const position = new Map(rules.map((rule, index) => [rule.meta.id, index]));
  faults.sort((a, b) => position.get(a.code)! - position.get(b.code)!);
}

/** Every rule on every node: what `validateDefinition` runs. */
export function runRules(ctx: RuleContext, rules: readonly Rule[], faults: Fault[]): void {
  const partRules = runCheckRules(ctx, rules);
  if (partRules.count === 0) return;
  const before = faults.length;
  const parts = ctx.model.nodesByKind.part;
  for (let i = 0; i < parts.length; i++) runPartRules(ctx, partRules, parts[i]!);
  if (faults.length !== before) sortByRule(faults, rules);
}
