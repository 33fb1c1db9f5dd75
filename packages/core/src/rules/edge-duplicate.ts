import { defineRule } from "./rule.js";

export default defineRule({
  meta: {
    id: "edge-duplicate",
    severity: "error",
    category: "edge",
    title: "Each pair of nodes is joined at most once",
    rationale: "A repeated edge adds nothing and is usually a copy-paste slip that hides the edge that was meant.",
    fix: "Remove the repeated edge.",
  },
  check(ctx) {
    for (const edge of ctx.model.problemEdges) {
      if (edge.status !== "duplicate") continue;
      const first = edge.duplicateOf;
      ctx.report({
        nodeId: edge.to!,
        edge: edge.index,
        pointer: edge.pointer,
        message: `Edge ${edge.index + 1} repeats edge ${first + 1} (\`${edge.from}\` -> \`${edge.to}\`); remove it.`,
        related: [{ nodeId: edge.to!, pointer: edge.pointerOf(first), message: "the same edge first appears here" }],
      });
    }
  },
});
