import { defineRule } from "./rule.js";
import { ownField } from "../model.js";

export default defineRule({
  meta: {
    id: "edge-dangling",
    severity: "error",
    category: "edge",
    title: "Every edge joins two nodes that exist",
    rationale: "An edge naming a node that does not exist connects nothing; usually the id is misspelt.",
    fix: "Correct the id (wfkit suggests the closest node id) or declare the missing node.",
    assumptions: [
      "The fault names the endpoint that exists (null when neither does), and points at the missing id.",
      "When the missing id is a likely typo of a node id, reachability (`unreachable`, `dead-end`) assumes the edge meant that node, so the typo is reported once.",
      "Not judged when `nodes` is not an array (`shape` reports it, and every edge would dangle). An edge naming a node whose `id` is a number or `true`/`false` joins it (`shape` asks for the id as a string), and one naming `\"\"` where a node's id is empty is left to `shape`'s fault on that id.",
    ],
  },
  check(ctx) {
    // Without a `nodes` array every edge would dangle: `shape` reports the array alone.
    if (!ctx.model.nodesUsable) return;
    let emptyIdNode: boolean | undefined;
    for (const edge of ctx.model.problemEdges) {
      if (edge.status !== "dangling") continue;
      // An edge naming the id of a node whose `id` is "" names that node: `shape` reports the empty id.
      const missesOnlyEmptyIds = (edge.fromNode || edge.from === "") && (edge.toNode || edge.to === "");
      if (missesOnlyEmptyIds && (emptyIdNode ??= ctx.model.nodes.some((node) => node.raw !== null && ownField(node.raw, "id") === ""))) continue;
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
