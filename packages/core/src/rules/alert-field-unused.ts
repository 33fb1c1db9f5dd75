import { defineBodyRule, stringField, pointerTo } from "../signals/body-rule.js";
import { ALERT_TYPES, TARGET_FIELD_BY_TYPE, THRESHOLD_TYPES, type AlertType } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-field-unused",
    severity: "warning",
    category: "alert",
    title: "`threshold`, `sector_id` and `series_key` appear only on the types that use them",
    rationale: "A `threshold` on a `weekly_digest`, or a `sector_id` on a `cpix_threshold` alert, means nothing to the service; it is usually a sign that the type is not the one intended.",
    fix: "Remove the field, or change the alert's type to one that uses it.",
  },
  check(ctx) {
    const type = stringField(ctx.body, "type");
    if (type === undefined || !(ALERT_TYPES as readonly string[]).includes(type)) return;
    const alertType = type as AlertType;
    const unused: string[] = [];
    if (!THRESHOLD_TYPES.includes(alertType)) unused.push("threshold");
    for (const target of ["sector_id", "series_key"] as const) if (TARGET_FIELD_BY_TYPE[alertType] !== target) unused.push(target);
    for (const name of unused) {
      if (!Object.prototype.hasOwnProperty.call(ctx.body, name)) continue;
      ctx.report({
        pointer: pointerTo(name),
        message: `\`${name}\` means nothing for a \`${type}\` alert, so the service ignores it. Remove it, or use the type that needs it.`,
      });
    }
  },
});
