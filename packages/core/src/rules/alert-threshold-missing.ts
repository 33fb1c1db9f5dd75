import { defineBodyRule, stringField } from "../signals/body-rule.js";
import { THRESHOLD_TYPES, type AlertType } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-threshold-missing",
    severity: "warning",
    category: "alert",
    title: "A threshold-based alert has a `threshold`",
    rationale: "`cpix_threshold`, `cpix_change`, `sector_pressure` and `series_threshold` alerts compare a value with `threshold`; without one the condition has nothing to compare with, so the alert never fires. The service accepts such an alert (the reference does not require `threshold`), which is why this is a warning: the alert is made, and stays silent.",
    fix: "Add `\"threshold\"` with the level (or, for `cpix_change`, the amount of change) that should trigger the alert.",
    assumptions: [
      "The reference marks `threshold` optional, \"for threshold-based types\"; wfkit takes those to be the four types that compare a number. It does not require the field (a body the reference accepts is not refused) but warns, because such an alert never fires.",
    ],
  },
  check(ctx) {
    const type = stringField(ctx.body, "type");
    if (type === undefined || !THRESHOLD_TYPES.includes(type as AlertType)) return;
    if (Object.prototype.hasOwnProperty.call(ctx.body, "threshold")) return;
    ctx.report({
      pointer: "",
      message: `A \`${type}\` alert compares a value with \`threshold\`, but the body has none, so the alert is accepted but never fires: its condition has nothing to compare with. Add \`"threshold"\` (a number).`,
    });
  },
});
