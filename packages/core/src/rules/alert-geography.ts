import { defineBodyRule } from "../signals/body-rule.js";
import { checkGeography } from "../signals/shared-checks.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-geography",
    severity: "error",
    category: "alert",
    title: "An alert's `geography`, when given, is `US` or `UK`",
    rationale: "The service publishes signals and its composite index for two geographies only.",
    fix: "Use `US` or `UK`, or leave `geography` out.",
  },
  check: (ctx) => checkGeography(ctx, "alert"),
});
