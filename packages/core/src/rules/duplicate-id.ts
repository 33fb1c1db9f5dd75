import { defineRule } from "./rule.js";

export default defineRule({
  meta: {
    id: "duplicate-id",
    severity: "error",
    category: "node",
    title: "Node ids are unique",
    rationale: "Edges name nodes by id; two nodes with one id make every edge that names it ambiguous.",
    fix: "Rename one of the nodes (and the edges meant for it).",
    assumptions: ["The first node with an id owns it: edges are judged against that node, and each later node with the same id gets one fault."],
  },
  check(ctx) {
    for (const node of ctx.model.duplicateNodes) {
      const owner = node.duplicateOf!;
      ctx.report({
        nodeId: node.id!,
        pointer: `${node.pointer}/id`,
        message: `Node id \`${node.id}\` is already used by node #${owner.index + 1}. Ids must be unique because edges refer to nodes by id; rename this node.`,
        related: [ctx.relatedNode(owner, `\`${node.id}\` is first declared here`, "id")],
      });
    }
  },
});
