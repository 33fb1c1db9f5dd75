import { defineBodyRule } from "../signals/body-rule.js";
import { ALERT_FIELDS } from "../signals/model.js";
import { checkTypes } from "../signals/shared-checks.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-field-type",
    severity: "error",
    category: "alert",
    title: "An alert body is an object whose fields have their JSON types",
    rationale: "The service reads `threshold` and `min_consecutive` as numbers and every other field as a string; a value of another type (`\"5\"` for 5) is refused or misread.",
    fix: "Write the value with the type the message names: a number without quotes, a string in quotes.",
  },
  check: (ctx) => checkTypes(ctx, "alert", ALERT_FIELDS),
});
