import { defineBodyRule, stringField, pointerTo } from "../signals/body-rule.js";
import { ALERT_CONDITIONS, ALERT_TYPES, CONDITIONS_BY_TYPE, type AlertType } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-condition-unknown",
    severity: "error",
    category: "alert",
    title: "An alert's `condition` is one the service knows",
    rationale: "The service knows seven conditions: `above`, `below`, `rises_by`, `falls_by`, `any`, `high`, `medium`.",
    fix: "Use a condition that goes with the alert's type; the message suggests the closest.",
  },
  check(ctx) {
    const condition = stringField(ctx.body, "condition");
    if (condition === undefined || (ALERT_CONDITIONS as readonly string[]).includes(condition)) return;
    const type = stringField(ctx.body, "type");
    // Suggest among the conditions of the alert's type when it has a known one.
    const candidates = type !== undefined && (ALERT_TYPES as readonly string[]).includes(type) ? CONDITIONS_BY_TYPE[type as AlertType] : ALERT_CONDITIONS;
    const suggestion = ctx.suggester.closest(condition, candidates);
    ctx.report({
      pointer: pointerTo("condition"),
      message: `The alert's \`condition\` is "${condition}", which the service does not know${suggestion ? `; did you mean \`${suggestion}\`?` : "."} Use one of ${candidates.map((c) => `\`${c}\``).join(", ")}.`,
      suggestion,
    });
  },
});
