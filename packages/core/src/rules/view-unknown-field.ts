import { defineBodyRule } from "../signals/body-rule.js";
import { VIEW_FIELDS } from "../signals/model.js";
import { checkUnknownFields } from "../signals/shared-checks.js";

const KNOWN = Object.keys(VIEW_FIELDS);

export default defineBodyRule({
  body: "view",
  meta: {
    id: "view-unknown-field",
    severity: "warning",
    category: "view",
    title: "Fields the saved-view body does not have are flagged (and kept)",
    rationale: "An unknown field is often a misspelt known one (`driverIds`), which the service would ignore.",
    fix: "Correct the spelling if you meant a known field; otherwise remove it or suppress the warning.",
    assumptions: ["`$schema`, which names the published schema for editors, is not flagged; a client leaves it out of the request."],
  },
  check: (ctx) => checkUnknownFields(ctx, "saved view", KNOWN),
});
