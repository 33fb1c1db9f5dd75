import { defineBodyRule, stringField, pointerTo } from "../signals/body-rule.js";
import { ALERT_CONDITIONS, ALERT_TYPES, CONDITIONS_BY_TYPE, type AlertType } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-condition-mismatch",
    severity: "warning",
    category: "alert",
    title: "An alert's `condition` makes sense for its `type`",
    rationale: "Each type watches one kind of value: a level crosses a threshold (`above`/`below`), a change rises or falls by an amount, a signal has a severity, a digest fires every week. A condition of another type's kind can never be met, so such an alert never fires (a `weekly_digest` sends its summary whatever its condition). The reference does not pair conditions with types, so the service accepts the alert: this is a warning.",
    fix: "Use a condition listed for the type, or change the type.",
    assumptions: [
      "The reference lists types and conditions but not which go together. wfkit pairs them so: `cpix_threshold`, `sector_pressure` and `series_threshold` with `above`/`below`; `cpix_change` with `rises_by`/`falls_by`; `signal_severity` with `high`/`medium`; `weekly_digest` with `any` (see docs/signals.md). Because the pairing is wfkit's, a mismatch is a warning, not an error: the service accepts every listed condition with every listed type.",
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
      message:
        type === "weekly_digest"
          ? `A \`weekly_digest\` alert sends its weekly summary whatever its condition, so \`${condition}\` means nothing here. Use \`any\`.`
          : `A \`${type}\` alert with the condition \`${condition}\` is accepted but never fires: that condition never holds for this type. Use ${allowed.map((c) => `\`${c}\``).join(" or ")}.`,
      suggestion,
    });
  },
});
