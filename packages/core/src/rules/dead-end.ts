import { defineRule } from "./rule.js";
import { regions } from "../checker/graph.js";
import { byId } from "./order.js";

export default defineRule({
  meta: {
    id: "dead-end",
    severity: "warning",
    category: "graph",
    title: "Every part and gate leads to a destination",
    rationale: "A step with no path to a destination runs (and costs) but its result reaches nobody.",
    fix: "Connect the named step onward to a destination, or remove it.",
    assumptions: [
      "Reported once per dead-end region, at the step where the path stops (the smallest id first), with the steps leading into it in `related`.",
      "Not reported for nodes already reported `unreachable`, nor when the workflow has no destination, nor when a node's id or an edge's end cannot be read (`shape`).",
    ],
  },
  check(ctx) {
    if (!ctx.model.graphUsable || !ctx.hasDestination || !ctx.model.wiringKnown) return;
    const { graphNodes, successors, predecessors } = ctx.model;
    const reachesDestination = ctx.reachesDestination;
    const unreachable = ctx.hasTrigger ? ctx.reachable : undefined;
    const members = new Uint8Array(graphNodes.length);
    const order: number[] = [];
    graphNodes.forEach((node, i) => {
      if (reachesDestination[i] || (node.kind !== "part" && node.kind !== "gate")) return;
      if (unreachable && !unreachable[i]) return;
      members[i] = 1;
      order.push(i);
    });
    if (!order.length) return;
    order.sort((a, b) => byId(graphNodes[a]!, graphNodes[b]!));
    // Walk backwards: the region is led by the step where the path ends.
    for (const region of regions(members, predecessors, successors, order)) {
      const end = graphNodes[region.head]!;
      const more = region.rest.length;
      ctx.report({
        nodeId: end.id!,
        pointer: end.pointer,
        message: `\`${end.id}\` has no path to a destination${more ? `, so it and the ${more} step${more === 1 ? "" : "s"} leading only to it` : ", so its"} result${more ? "s" : ""} would reach nobody. Connect it onward to a destination, or remove it.`,
        related: region.rest.map((i) => ctx.relatedNode(graphNodes[i]!, `leads only to the dead end at \`${end.id}\``)),
      });
    }
  },
});
