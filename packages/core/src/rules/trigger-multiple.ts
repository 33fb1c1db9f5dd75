import { defineRule } from "./rule.js";

export default defineRule({
  meta: {
    id: "trigger-multiple",
    severity: "error",
    category: "node",
    title: "The workflow has exactly one trigger",
    rationale: "A workflow is started one way; a second trigger leaves the run's starting point ambiguous.",
    fix: "Keep one trigger and remove the others (or move their edges to the one you keep).",
    assumptions: [
      "A graph has at most one trigger, counting a top-level `trigger` of a version-save body together with trigger nodes.",
      "The first trigger in the file is the one kept; each further trigger gets one fault.",
    ],
  },
  check(ctx) {
    const specs = ctx.triggerSpecs;
    if (specs.length < 2) return;
    const [first, ...others] = specs;
    for (const other of others) {
      ctx.report({
        nodeId: other.node?.id ?? null,
        pointer: other.node?.pointer ?? other.pointer,
        message: `This is trigger ${specs.indexOf(other) + 1} of ${specs.length}. A workflow starts from exactly one trigger; remove this one or merge it into the first.`,
        related: [{ nodeId: first!.node?.id ?? null, pointer: first!.node?.pointer ?? first!.pointer, message: "the first trigger" }],
      });
    }
  },
});
