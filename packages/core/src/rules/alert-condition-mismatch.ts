import { defineBodyRule, stringField, pointerTo } from "../signals/body-rule.js";
import { ALERT_CONDITIONS, ALERT_TYPES, CONDITIONS_BY_TYPE, type AlertType } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-condition-mismatch",
    severity: "error",
    category: "alert",
    title: "An alert's `condition` makes sense for its `type`",
    rationale: "Each type watches one kind of value: a level crosses a threshold (`above`/`below`), a change rises or falls by an amount, a signal has a severity, a digest fires every week. A condition of another type's kind could never be met.",
    fix: "Use a condition listed for the type, or change the type.",
    assumptions: [
      "The reference lists types and conditions but not which go together. wfkit pairs them so: `cpix_threshold`, `sector_pressure` and `series_threshold` with `above`/`below`; `cpix_change` with `rises_by`/`falls_by`; `signal_severity` with `high`/`medium`; `weekly_digest` with `any` (see docs/signals.md).",
    ],
  },
  check(ctx) {
    const type = stringField(ctx.body, "type");
    const condition = stringField(ctx.body, "condition");
    if (type === undefined || condition === undefined) return;
    if (!(ALERT_TYPES as readonly string[]).includes(type) || !(ALERT_CONDITIONS as readonly string[]).includes(condition)) return;
    const allowed = CONDITIONS_BY_TYPE[type as AlertType];
    if (allowed.includes(condition)) return;
    const suggestion = allowed.length === 1 ? allowed[0] : undefined;
    ctx.report({
      pointer: pointerTo("condition"),
      message: `A \`${type}\` alert cannot use the condition \`${condition}\`: it never holds for that type. Use ${allowed.map((c) => `\`${c}\``).join(" or ")}.`,
      suggestion,
    });
  },
});
