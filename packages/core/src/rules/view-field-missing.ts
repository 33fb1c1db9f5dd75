import { defineBodyRule } from "../signals/body-rule.js";
import { VIEW_FIELDS, VIEW_REQUIRED } from "../signals/model.js";
import { checkRequired } from "../signals/shared-checks.js";

export default defineBodyRule({
  body: "view",
  meta: {
    id: "view-field-missing",
    severity: "error",
    category: "view",
    title: "A saved-view body has `name`, `geography`, `driver_ids` and `question`",
    rationale: "`POST /api/views` requires all four fields; the service refuses a view without any of them.",
    fix: "Add the missing field.",
  },
  check: (ctx) => checkRequired(ctx, "saved view", VIEW_REQUIRED, VIEW_FIELDS),
});
