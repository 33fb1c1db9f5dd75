import { defineRule } from "./rule.js";

export default defineRule({
  meta: {
    id: "edge-into-trigger",
    severity: "error",
    category: "edge",
    title: "No edge leads into the trigger",
    rationale: "The trigger is where a run starts; nothing can feed into it.",
    fix: "Remove the edge, or reverse it so the trigger feeds the step.",
  },
  check(ctx) {
    for (const edge of ctx.model.problemEdges) {
      if (edge.status !== "into-trigger") continue;
      ctx.report({
        nodeId: edge.to!,
        edge: edge.index,
        pointer: `${edge.pointer}/to`,
        message: `Edge ${edge.index + 1} leads from \`${edge.from}\` into the trigger \`${edge.to}\`. A run starts at the trigger, so nothing can feed it; remove the edge or reverse it.`,
        suggestion: `${edge.to} -> ${edge.from}`,
      });
    }
  },
});
