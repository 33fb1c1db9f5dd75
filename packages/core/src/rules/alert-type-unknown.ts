import { defineBodyRule, stringField, pointerTo } from "../signals/body-rule.js";
import { ALERT_TYPES } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-type-unknown",
    severity: "error",
    category: "alert",
    title: "An alert's `type` is one the service knows",
    rationale: "The service creates alerts of six types only: `cpix_threshold`, `cpix_change`, `sector_pressure`, `signal_severity`, `series_threshold`, `weekly_digest`.",
    fix: "Use one of the six types; the message suggests the closest.",
  },
  check(ctx) {
    const type = stringField(ctx.body, "type");
    if (type === undefined || (ALERT_TYPES as readonly string[]).includes(type)) return;
    const suggestion = ctx.suggester.closest(type, ALERT_TYPES);
    ctx.report({
      pointer: pointerTo("type"),
      message: `The alert's \`type\` is "${type}", which the service does not know${suggestion ? `; did you mean \`${suggestion}\`?` : "."} Use one of ${ALERT_TYPES.map((t) => `\`${t}\``).join(", ")}.`,
      suggestion,
    });
  },
});
