import { defineBodyRule, stringField } from "../signals/body-rule.js";
import { TARGET_FIELD_BY_TYPE, type AlertType } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-target-missing",
    severity: "warning",
    category: "alert",
    title: "A `sector_pressure` alert names its `sector_id`, a `series_threshold` alert its `series_key`",
    rationale: "These types watch one sector's import pressure or one housing or macro series; without naming it there is nothing to watch, so the alert never fires. The reference does not require either field, so the service accepts such an alert: this is a warning.",
    fix: "Add `sector_id` (for example `grocery`) or `series_key`.",
    assumptions: ["The reference marks both optional, \"for\" their type; wfkit does not require them (a body the reference accepts is not refused) but warns when a type's own field is missing, because the alert then never fires."],
  },
  check(ctx) {
    const type = stringField(ctx.body, "type") as AlertType | undefined;
    const target = type === undefined ? undefined : TARGET_FIELD_BY_TYPE[type];
    if (target === undefined || Object.prototype.hasOwnProperty.call(ctx.body, target)) return;
    ctx.report({
      pointer: "",
      message: `A \`${type}\` alert watches the ${target === "sector_id" ? "import pressure of one sector" : "values of one series"}, but the body has no \`${target}\`, so the alert is accepted but never fires: it watches nothing. Add \`"${target}"\` (a string).`,
    });
  },
});
