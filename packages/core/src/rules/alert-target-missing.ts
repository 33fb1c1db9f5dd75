import { defineBodyRule, stringField } from "../signals/body-rule.js";
import { TARGET_FIELD_BY_TYPE, type AlertType } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-target-missing",
    severity: "error",
    category: "alert",
    title: "A `sector_pressure` alert names its `sector_id`, a `series_threshold` alert its `series_key`",
    rationale: "These types watch one sector's import pressure or one housing or macro series; without naming it the service does not know what to watch.",
    fix: "Add `sector_id` (for example `grocery`) or `series_key`.",
    assumptions: ["The reference marks both optional, \"for\" their type; wfkit requires each for its type."],
  },
  check(ctx) {
    const type = stringField(ctx.body, "type") as AlertType | undefined;
    const target = type === undefined ? undefined : TARGET_FIELD_BY_TYPE[type];
    if (target === undefined || Object.prototype.hasOwnProperty.call(ctx.body, target)) return;
    ctx.report({
      pointer: "",
      message: `A \`${type}\` alert watches the ${target === "sector_id" ? "import pressure of one sector" : "values of one series"}, but the body has no \`${target}\`. Add \`"${target}"\` (a string).`,
    });
  },
});
