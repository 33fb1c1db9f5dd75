import { defineBodyRule } from "../signals/body-rule.js";
import { VIEW_FIELDS } from "../signals/model.js";
import { checkTypes } from "../signals/shared-checks.js";

export default defineBodyRule({
  body: "view",
  meta: {
    id: "view-field-type",
    severity: "error",
    category: "view",
    title: "A saved-view body is an object whose fields have their JSON types",
    rationale: "The service reads `driver_ids` as an array of strings and the other fields as strings.",
    fix: "Write the value with the type the message names.",
  },
  check: (ctx) => checkTypes(ctx, "saved view", VIEW_FIELDS, { driver_ids: "string" }),
});
