import { defineBodyRule } from "../signals/body-rule.js";
import { ALERT_FIELDS, ALERT_REQUIRED } from "../signals/model.js";
import { checkRequired } from "../signals/shared-checks.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-field-missing",
    severity: "error",
    category: "alert",
    title: "An alert body has `name`, `type`, `condition` and `email`",
    rationale: "The Consumer Signals API requires these four fields on `POST /api/alerts`; without them it cannot create the alert or send its notifications.",
    fix: "Add the missing field.",
  },
  check: (ctx) => checkRequired(ctx, "alert", ALERT_REQUIRED, ALERT_FIELDS),
});
