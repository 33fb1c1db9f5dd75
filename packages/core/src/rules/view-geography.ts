import { defineBodyRule } from "../signals/body-rule.js";
import { checkGeography } from "../signals/shared-checks.js";

export default defineBodyRule({
  body: "view",
  meta: {
    id: "view-geography",
    severity: "error",
    category: "view",
    title: "A saved view's `geography` is `US` or `UK`",
    rationale: "The service's index and drivers exist for two geographies only.",
    fix: "Use `US` or `UK`.",
  },
  check: (ctx) => checkGeography(ctx, "saved view"),
});
