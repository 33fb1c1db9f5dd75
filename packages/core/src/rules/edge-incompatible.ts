import { defineRule } from "./rule.js";
import type { Capabilities } from "../checker/context.js";
import { quoteList } from "./describe.js";

export default defineRule({
  meta: {
    id: "edge-incompatible",
    severity: "error",
    category: "edge",
    title: "What flows along an edge satisfies what the downstream node requires",
    rationale: "A part can only run on what its upstream produces; an edge whose upstream does not produce everything the downstream requires is illegal.",
    fix: "Insert a part that produces what is missing (the message lists it), or connect a different upstream.",
    assumptions: [
      "A trigger offers the catalogue's `nodeKinds.trigger.produces`; a part offers its `produces`; a gate offers what all of its inputs offer in common; a destination needs `nodeKinds.destination.requires`, a gate needs nothing.",
      "With a top-level `trigger`, each node with no incoming edge is fed by it and judged against what it offers; with top-level `destinations`, each node with no outgoing edge feeds them and is judged likewise. Those faults carry no `edge` index.",
      "Edges that touch an unknown part, or a gate whose inputs include one, are not judged.",
    ],
  },
  check(ctx) {
    if (!ctx.model.graphUsable) return;
    const { graphNodes } = ctx.model;
    const offers = ctx.offers;
    const ok = ctx.model.okEdges;
    for (let e = 0; e < ok.count; e++) {
      const offer = offers[ok.from[e]!]!;
      if (offer === "unknown") continue;
      const to = graphNodes[ok.to[e]!]!;
      const missing = missingFrom(offer, ctx.needsOf(to));
      if (!missing) continue;
      const from = graphNodes[ok.from[e]!]!;
      const index = ok.index[e]!;
      ctx.report({
        nodeId: to.id!,
        edge: index,
        pointer: `${ctx.model.edgesPointer}/${index}`,
        message: `\`${to.id}\` requires ${quoteList(missing)}, which \`${from.id}\` does not produce, so edge ${index + 1} is illegal. Put a step that produces ${missing.length > 1 ? "them" : "it"} in between, or connect a different upstream.`,
      });
    }
    if (ctx.model.topLevelTrigger) {
      const triggerOffer = new Set(ctx.catalogue.triggerProduces);
      for (const i of ctx.entryPoints) {
        const node = graphNodes[i]!;
        const missing = missingFrom(triggerOffer, ctx.needsOf(node));
        if (!missing) continue;
        ctx.report({
          nodeId: node.id!,
          pointer: node.pointer,
          message: `\`${node.id}\` has no incoming edge, so the top-level trigger feeds it, but it requires ${quoteList(missing)}, which a trigger does not produce. Connect it after a step that does.`,
        });
      }
    }
    if (ctx.model.topLevelDestinations.length) {
      const needs = ctx.catalogue.destinationRequires;
      for (const i of ctx.exitPoints) {
        const node = graphNodes[i]!;
        const missing = missingFrom(offers[i]!, needs);
        if (!missing) continue;
        ctx.report({
          nodeId: node.id!,
          pointer: node.pointer,
          message: `\`${node.id}\` has no outgoing edge, so it feeds the top-level destinations, but it does not produce ${quoteList(missing)}, which they require. Add a step that does.`,
        });
      }
    }
  },
});

/** What `offer` lacks of `needs`; undefined when nothing (or when it cannot be judged). */
function missingFrom(offer: Capabilities, needs: readonly string[] | undefined): string[] | undefined {
  if (offer === "unknown" || !needs) return undefined;
  // Called for every edge: a plain loop, and allocation only when something is missing.
  let lacking = false;
  for (let i = 0; i < needs.length; i++)
    if (!offer.has(needs[i]!)) {
      lacking = true;
      break;
    }
  return lacking ? needs.filter((need) => !offer.has(need)) : undefined;
}
