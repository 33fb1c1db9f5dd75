import { defineRule } from "./rule.js";
import { hasOwnField, ownField, NODE_KINDS } from "../model.js";
import { nodeName, show } from "./describe.js";

export default defineRule({
  meta: {
    id: "node-kind",
    severity: "error",
    category: "node",
    title: "Every node is a trigger, a part, a gate or a destination",
    rationale: "The service only knows these four kinds of node; it cannot run any other.",
    fix: "Set `kind` to `trigger`, `gate` or `destination`, or give a part its `partId` and `partVersion`.",
    assumptions: [
      "A part node carries no `kind` in the reference; a node without `kind` that has a `partId` is a part, and `\"kind\": \"part\"` is accepted too.",
    ],
  },
  check(ctx) {
    for (const node of ctx.model.nodesByKind.unknown) {
      if (!node.raw) continue;
      if (!hasOwnField(node.raw, "kind")) {
        ctx.report({
          nodeId: node.id ?? null,
          pointer: node.pointer,
          message: `Node ${nodeName(node)} has neither a \`kind\` nor a \`partId\`, so it is not a trigger, part, gate or destination. Add \`kind\`, or a \`partId\` and \`partVersion\` for a part.`,
        });
        continue;
      }
      const kind = ownField(node.raw, "kind");
      const suggestion = typeof kind === "string" ? ctx.suggester.closest(kind, NODE_KINDS) : undefined;
      ctx.report({
        nodeId: node.id ?? null,
        pointer: `${node.pointer}/kind`,
        message: `Node ${nodeName(node)} has kind ${show(kind)}, which the service does not know. Use \`trigger\`, \`gate\` or \`destination\` (parts need no kind)${suggestion ? `; did you mean \`${suggestion}\`?` : "."}`,
        suggestion,
      });
    }
  },
});
