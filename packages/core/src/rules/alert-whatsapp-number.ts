import { defineBodyRule, stringField, pointerTo } from "../signals/body-rule.js";
import { e164Suggestion, isE164 } from "../signals/model.js";

export default defineBodyRule({
  body: "alert",
  meta: {
    id: "alert-whatsapp-number",
    severity: "error",
    category: "alert",
    title: "An alert's `whatsapp_number`, when given, is in E.164 form",
    rationale: "Mobile notifications need an international number the messaging service can route: `+`, the country code, then the number, digits only.",
    fix: "Write the number as `+447700900123`: no spaces, dashes or leading zeros after the `+`.",
    assumptions: ["The reference does not give the format; wfkit requires E.164 (`+` then 2 to 15 digits, the first not 0)."],
  },
  check(ctx) {
    const number = stringField(ctx.body, "whatsapp_number");
    if (number === undefined || isE164(number)) return;
    const suggestion = e164Suggestion(number);
    ctx.report({
      pointer: pointerTo("whatsapp_number"),
      message: `The alert's \`whatsapp_number\` "${number}" is not in E.164 form, so mobile notifications cannot be routed${suggestion ? `; did you mean "${suggestion}"?` : "."} Write \`+\`, the country code and the number, digits only (for example \`+447700900123\`).`,
      suggestion,
    });
  },
});
