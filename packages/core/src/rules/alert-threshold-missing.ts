import { defineBodyRule, stringField } from "../signals/body-rule.js";
import { THRESHOLD_TYPES, type AlertType } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-threshold-missing",
    severity: "error",
    category: "alert",
    title: "A threshold-based alert has a `threshold`",
    rationale: "`cpix_threshold`, `cpix_change`, `sector_pressure` and `series_threshold` alerts compare a value with `threshold`; without one the condition has nothing to compare with.",
    fix: "Add `\"threshold\"` with the level (or, for `cpix_change`, the amount of change) that should trigger the alert.",
    assumptions: [
      "The reference marks `threshold` optional, \"for threshold-based types\"; wfkit takes those to be the four types that compare a number and requires it for them.",
    ],
  },
  check(ctx) {
    const type = stringField(ctx.body, "type");
    if (type === undefined || !THRESHOLD_TYPES.includes(type as AlertType)) return;
    if (Object.prototype.hasOwnProperty.call(ctx.body, "threshold")) return;
    ctx.report({
      pointer: "",
      message: `A \`${type}\` alert compares a value with \`threshold\`, but the body has none, so it could never trigger. Add \`"threshold"\` (a number).`,
    });
  },
});
