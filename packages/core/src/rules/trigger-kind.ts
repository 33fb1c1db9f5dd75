import { defineRule } from "./rule.js";
import { isPlainObject, ownField, hasOwnField, TRIGGER_KINDS } from "../model.js";
import { show } from "./describe.js";

export default defineRule({
  meta: {
    id: "trigger-kind",
    severity: "error",
    category: "node",
    title: "A trigger's kind is `on_demand` or `scheduled`",
    rationale: "The service starts runs on demand or on a schedule; it cannot start a trigger of any other kind.",
    fix: "Set the trigger's `kind` to `on_demand` or `scheduled`.",
    assumptions: ["The reference names `on_demand` and says a scheduled kind exists; its value is taken to be `scheduled`."],
  },
  check(ctx) {
    for (const spec of ctx.triggerSpecs) {
      if (!isPlainObject(spec.raw) || !hasOwnField(spec.raw, "kind")) continue;
      const kind = ownField(spec.raw, "kind");
      if (typeof kind === "string" && (TRIGGER_KINDS as readonly string[]).includes(kind)) continue;
      const suggestion = typeof kind === "string" ? ctx.suggester.closest(kind, TRIGGER_KINDS) : undefined;
      ctx.report({
        nodeId: spec.node?.id ?? null,
        pointer: `${spec.pointer}/kind`,
        message: `Trigger kind ${show(kind)} is not one the service can start. Use \`on_demand\` or \`scheduled\`${suggestion ? `; did you mean \`${suggestion}\`?` : "."}`,
        suggestion,
      });
    }
  },
});
