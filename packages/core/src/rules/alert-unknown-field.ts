import { defineBodyRule } from "../signals/body-rule.js";
import { ALERT_FIELDS } from "../signals/model.js";
import { checkUnknownFields } from "../signals/shared-checks.js";

const KNOWN = Object.keys(ALERT_FIELDS);

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-unknown-field",
    severity: "warning",
    category: "alert",
    title: "Fields the alert body does not have are flagged (and kept)",
    rationale: "An unknown field is often a misspelt known one (`treshold`), which the service would ignore: the alert would be created without it.",
    fix: "Correct the spelling if you meant a known field; otherwise remove it or suppress the warning.",
    assumptions: ["`$schema`, which names the published schema for editors, is not flagged; a client leaves it out of the request."],
  },
  check: (ctx) => checkUnknownFields(ctx, "alert", KNOWN),
});
