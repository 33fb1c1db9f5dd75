import { defineRule } from "./rule.js";
import { regions } from "../checker/graph.js";
import { byId } from "./order.js";

export default defineRule({
  meta: {
    id: "unreachable",
    severity: "error",
    category: "graph",
    title: "Every node can be reached from the trigger",
    rationale: "A run only visits nodes the trigger leads to; anything else never runs, which is almost always a missing edge.",
    fix: "Add an edge into the named node from the step that should feed it.",
    assumptions: [
      "A region of nodes cut off together is reported once, at its head (a node with no incoming edge from inside the region, the smallest id first), with the rest of the region in `related`.",
      "Nodes whose kind is unknown are left to `node-kind`.",
      "Not judged when the workflow has no trigger (`trigger-missing` says it all), nor when a node's id or an edge's end cannot be read (`shape` reports it; which node leads where is then not known). Edges that are themselves faults (dangling, self, repeated, into the trigger) do not count as paths, with two exceptions that assume the fix their own fault asks for: a dangling edge whose id is a likely typo joins the node it was meant to name, and an edge out of a destination feeds its target as the destination is fed (`edge-from-destination` asks to connect the step before the destination instead), so its target is not also reported here.",
    ],
  },
  check(ctx) {
    if (!ctx.model.graphUsable || !ctx.hasTrigger || !ctx.model.wiringKnown) return;
    const { graphNodes, successors, predecessors } = ctx.model;
    const reachable = ctx.reachable;
    const members = new Uint8Array(graphNodes.length);
    const order: number[] = [];
    for (let i = 0; i < graphNodes.length; i++)
      // A node of unknown kind is reported by node-kind alone.
      if (!reachable[i] && graphNodes[i]!.kind !== undefined) {
        members[i] = 1;
        order.push(i);
      }
    if (!order.length) return;
    order.sort((a, b) => byId(graphNodes[a]!, graphNodes[b]!));
    for (const region of regions(members, successors, predecessors, order)) {
      const head = graphNodes[region.head]!;
      const more = region.rest.length;
      ctx.report({
        nodeId: head.id!,
        pointer: head.pointer,
        message: `\`${head.id}\` cannot be reached from the trigger${more ? `, and neither can the ${more} node${more === 1 ? "" : "s"} after it` : ""}, so ${more ? "they" : "it"} would never run. Add an edge into \`${head.id}\` from the step that should feed it.`,
        related: region.rest.map((i) => ctx.relatedNode(graphNodes[i]!, `unreachable because \`${head.id}\` is`)),
      });
    }
  },
});
