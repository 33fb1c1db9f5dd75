import { defineBodyRule, field, pointerTo } from "../signals/body-rule.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-min-consecutive",
    severity: "error",
    category: "alert",
    title: "An alert's `min_consecutive`, when given, is a positive whole number",
    rationale: "`min_consecutive` counts the periods the condition must hold before the alert triggers; zero, a negative or a fractional count means nothing.",
    fix: "Write a whole number of 1 or more, or leave the field out (the alert then triggers at the first period).",
  },
  check(ctx) {
    const value = field(ctx.body, "min_consecutive");
    if (typeof value !== "number" || (Number.isInteger(value) && value >= 1)) return;
    const suggestion = value > 1 ? String(Math.round(value)) : value <= 0 ? "1" : undefined;
    ctx.report({
      pointer: pointerTo("min_consecutive"),
      message: `The alert's \`min_consecutive\` is ${value}, but it counts periods, so it must be a whole number of 1 or more${suggestion ? `; did you mean ${suggestion}?` : "."}`,
      suggestion,
    });
  },
});
