import { defineRule } from "./rule.js";
import { ownField, hasOwnField, GATE_BELOW_FLOOR } from "../model.js";
import { nodeName, show } from "./describe.js";

export default defineRule({
  meta: {
    id: "gate-floor",
    severity: "error",
    category: "node",
    title: "A gate's `belowFloor` is `hold`",
    rationale: "A gate holds a below-floor result until the run is delivered; `hold` is the only behaviour the service documents.",
    fix: "Set `\"belowFloor\": \"hold\"`.",
  },
  check(ctx) {
    for (const node of ctx.model.nodesByKind.gate) {
      if (!node.raw || !hasOwnField(node.raw, "belowFloor")) continue;
      const value = ownField(node.raw, "belowFloor");
      if ((GATE_BELOW_FLOOR as readonly unknown[]).includes(value)) continue;
      ctx.report({
        nodeId: node.id ?? null,
        pointer: `${node.pointer}/belowFloor`,
        message: `Gate ${nodeName(node)} has \`belowFloor\` ${show(value)}; the service only supports \`hold\`, which keeps a below-floor result back until the run is delivered.`,
        suggestion: "hold",
      });
    }
  },
});
