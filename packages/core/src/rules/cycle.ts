import { defineRule } from "./rule.js";
import { byId } from "./order.js";

export default defineRule({
  meta: {
    id: "cycle",
    severity: "error",
    category: "graph",
    title: "The graph has no cycles",
    rationale: "A run flows from the trigger to the destinations; a cycle would never finish.",
    fix: "Remove one of the edges on the cycle (the fault lists its nodes).",
    assumptions: [
      "One fault per strongly connected component: nodes on interlocking cycles are named together.",
      "The fault names the component's node with the smallest id, so the verdict does not depend on node order; `related` lists the others.",
    ],
  },
  check(ctx) {
    if (!ctx.model.graphUsable) return;
    const { graphNodes } = ctx.model;
    for (const component of ctx.cycles) {
      const members = component.map((i) => graphNodes[i]!).sort(byId);
      const [named, ...rest] = members;
      ctx.report({
        nodeId: named!.id!,
        pointer: named!.pointer,
        message: `\`${named!.id}\` is on a cycle through ${members.length - 1} other node${members.length === 2 ? "" : "s"} (${rest.slice(0, 5).map((n) => `\`${n.id}\``).join(", ")}${rest.length > 5 ? ", ..." : ""}). A run must flow one way from trigger to destination; remove an edge to break the cycle.`,
        related: rest.map((node) => ctx.relatedNode(node, "on the same cycle")),
      });
    }
  },
});
