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

/** Runs the whole-input rules of `rules`; returns the part rules, for `runPartRules`. */
export function runCheckRules(ctx: RuleContext, rules: readonly Rule[]): Rule[] {
  const partRules: Rule[] = [];
  for (const rule of rules) {
    if (rule.check) {
      ctx.beginRule(rule.meta.id, rule.meta.severity);
      rule.check(ctx);
    } else partRules.push(rule);
  }
  return partRules;
}

/** Runs every part rule on `node` when it is a part node. */
export function runPartRules(ctx: RuleContext, partRules: readonly Rule[], node: NodeInfo): void {
  if (node.kind !== "part") return;
  for (let r = 0; r < partRules.length; r++) {
    const rule = partRules[r]!;
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
  if (partRules.length === 0) return;
  const before = faults.length;
  const { nodes } = ctx.model;
  for (let i = 0; i < nodes.length; i++) runPartRules(ctx, partRules, nodes[i]!);
  if (faults.length !== before) sortByRule(faults, rules);
}
