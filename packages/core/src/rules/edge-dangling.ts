import { defineRule } from "./rule.js";

export default defineRule({
  meta: {
    id: "edge-dangling",
    severity: "error",
    title: "Every edge joins two nodes that exist",
    rationale: "An edge naming a node that does not exist connects nothing; usually the id is misspelt.",
    fix: "Correct the id (wfkit suggests the closest node id) or declare the missing node.",
    assumptions: [
      "The fault names the endpoint that exists (null when neither does), and points at the missing id.",
      "When the missing id is a likely typo of a node id, reachability (`unreachable`, `dead-end`) assumes the edge meant that node, so the typo is reported once.",
    ],
  },
  check(ctx) {
    for (const edge of ctx.model.problemEdges) {
      if (edge.status !== "dangling") continue;
      // The id list is built on the first dangling edge: most graphs have none.
      const ids = ctx.nodeIds;
      const missingFrom = !edge.fromNode;
      const missingTo = !edge.toNode;
      const missing = missingFrom ? edge.from! : edge.to!;
      const suggestion = ctx.suggester.closest(missing, ids);
      const both = missingFrom && missingTo;
      ctx.report({
        nodeId: (edge.fromNode ?? edge.toNode)?.id ?? null,
        edge: edge.index,
        pointer: `${edge.pointer}/${missingFrom ? "from" : "to"}`,
        message: both
          ? `Edge ${edge.index + 1} joins \`${edge.from}\` to \`${edge.to}\`, and neither node exists. Declare them or correct the ids.`
          : `Edge ${edge.index + 1} ${missingFrom ? "comes from" : "goes to"} \`${missing}\`, which is not a node in this graph.${suggestion ? ` Did you mean \`${suggestion}\`?` : " Declare the node or correct the id."}`,
        suggestion,
      });
    }
  },
});
