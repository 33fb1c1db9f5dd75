import { defineRule } from "./rule.js";

export default defineRule({
  meta: {
    id: "catalogue-invalid",
    severity: "error",
    category: "catalogue",
    title: "The catalogue the definition is checked against is a valid catalogue",
    rationale:
      "Every part rule reads the catalogue. A catalogue with a missing `parts` list or a part without `requires` cannot answer them, and checking on would blame the definition for the catalogue's mistake.",
    fix: "Correct the catalogue file (the message points at its first problems), or load it with `loadCatalogue` and pass the catalogue it returns.",
    assumptions: [
      "With a broken catalogue nothing else is checked: this is the only fault, and it names no node.",
    ],
  },
  check(ctx) {
    const problem = ctx.catalogueProblem;
    if (problem === undefined) return;
    ctx.report({
      nodeId: null,
      pointer: "",
      message: `The catalogue passed to validateDefinition is not a valid catalogue (${problem}), so the definition was not checked. Load the catalogue with loadCatalogue and pass the catalogue it returns.`,
    });
  },
});
