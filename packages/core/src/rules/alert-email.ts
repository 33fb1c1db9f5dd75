import { defineBodyRule, stringField, pointerTo } from "../signals/body-rule.js";
import { isPlausibleEmail } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-email",
    severity: "error",
    category: "alert",
    title: "An alert's `email` is a plausible e-mail address",
    rationale: "Every notification goes to `email`; an address that cannot be delivered to means the alert fires silently.",
    fix: "Write a full address such as `analyst@example.com`.",
    assumptions: ["Plausible means: no spaces, one `@` with text before it and a dotted domain after it, at most 254 characters. wfkit does not check that the address exists."],
  },
  check(ctx) {
    const email = stringField(ctx.body, "email");
    if (email === undefined || isPlausibleEmail(email)) return;
    const trimmed = email.trim();
    const suggestion = trimmed !== email && isPlausibleEmail(trimmed) ? trimmed : undefined;
    ctx.report({
      pointer: pointerTo("email"),
      message: `The alert's \`email\` "${email}" is not a usable e-mail address (it needs one \`@\`, a dotted domain and no spaces), so no notification could be delivered${suggestion ? `; did you mean "${suggestion}"?` : "."} Write a full address such as \`analyst@example.com\`.`,
      suggestion,
    });
  },
});
