import { defineRule } from "./rule.js";

export default defineRule({
  meta: {
    id: "edge-self",
    severity: "error",
    category: "edge",
    title: "No edge joins a node to itself",
    rationale: "A step cannot feed its own input; such an edge is a one-node cycle the service cannot run.",
    fix: "Remove the edge, or point it at the next step.",
    assumptions: ["A self-edge is reported here only, not also as a `cycle`."],
  },
  check(ctx) {
    for (const edge of ctx.model.problemEdges) {
      if (edge.status !== "self") continue;
      ctx.report({
        nodeId: edge.to!,
        edge: edge.index,
        pointer: edge.pointer,
        message: `Edge ${edge.index + 1} joins \`${edge.to}\` to itself. A step cannot feed its own input; remove the edge or point it at the next step.`,
      });
    }
  },
});
