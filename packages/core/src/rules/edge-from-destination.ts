import { defineRule } from "./rule.js";

export default defineRule({
  meta: {
    id: "edge-from-destination",
    severity: "error",
    category: "edge",
    title: "No edge leaves a destination",
    rationale: "A destination is where results end up; it passes nothing on.",
    fix: "Remove the edge, or connect the step before the destination instead.",
  },
  check(ctx) {
    for (const edge of ctx.model.problemEdges) {
      if (edge.status !== "from-destination") continue;
      ctx.report({
        nodeId: edge.from!,
        edge: edge.index,
        pointer: `${edge.pointer}/from`,
        message: `Edge ${edge.index + 1} leaves the destination \`${edge.from}\` for \`${edge.to}\`. A destination is the end of the line and passes nothing on; remove the edge.`,
      });
    }
  },
});
