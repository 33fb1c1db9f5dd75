import { defineRule } from "./rule.js";
import { isPlainObject, ownField, hasOwnField, DESTINATION_KINDS } from "../model.js";
import { show } from "./describe.js";

export default defineRule({
  meta: {
    id: "destination-kind",
    severity: "error",
    category: "node",
    title: "A destination's kind is `standalone`",
    rationale: "`standalone` is the only destination kind the service documents; it cannot deliver to any other.",
    fix: "Set the destination's `kind` to `standalone`.",
  },
  check(ctx) {
    const specs: { raw: unknown; pointer: string; nodeId: string | null }[] = [];
    for (const node of ctx.model.nodesByKind.destination)
      if (node.raw)
        specs.push({ raw: ownField(node.raw, "destination"), pointer: `${node.pointer}/destination`, nodeId: node.id ?? null });
    for (const top of ctx.model.topLevelDestinations) specs.push({ raw: top.raw, pointer: top.pointer, nodeId: null });
    for (const spec of specs) {
      if (!isPlainObject(spec.raw) || !hasOwnField(spec.raw, "kind")) continue;
      const kind = ownField(spec.raw, "kind");
      if ((DESTINATION_KINDS as readonly unknown[]).includes(kind)) continue;
      ctx.report({
        nodeId: spec.nodeId,
        pointer: `${spec.pointer}/kind`,
        message: `Destination kind ${show(kind)} is not one the service can deliver to; use \`standalone\`.`,
        suggestion: "standalone",
      });
    }
  },
});
