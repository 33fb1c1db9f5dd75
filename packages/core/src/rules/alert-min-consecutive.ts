import { defineBodyRule, field, pointerTo } from "../signals/body-rule.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-min-consecutive",
    severity: "warning",
    category: "alert",
    title: "An alert's `min_consecutive`, when given, is a positive whole number",
    rationale: "`min_consecutive` counts the periods the condition must hold before the alert triggers; zero, a negative or a fractional count is probably a slip. The reference types it as a number, so the service accepts it: this is a warning.",
    fix: "Write a whole number of 1 or more, or leave the field out (the alert then triggers at the first period).",
    assumptions: [
      "`wfkit serve` reads a count below 1 as 1 (the first period that holds triggers) and a fraction as the next whole number (1.5 waits for 2 periods).",
    ],
  },
  check(ctx) {
    const value = field(ctx.body, "min_consecutive");
    if (typeof value !== "number" || (Number.isInteger(value) && value >= 1)) return;
    const suggestion = value > 1 ? String(Math.round(value)) : value <= 0 ? "1" : undefined;
    ctx.report({
      pointer: pointerTo("min_consecutive"),
      message: `The alert's \`min_consecutive\` is ${value}, but it counts whole periods: ${value < 1 ? "a count below 1 waits for no period, the same as 1" : `${value} waits for ${Math.ceil(value)} periods`}. Write a whole number of 1 or more${suggestion ? `; did you mean ${suggestion}?` : "."}`,
      suggestion,
    });
  },
});
