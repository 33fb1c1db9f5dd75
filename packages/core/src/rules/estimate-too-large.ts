import { defineRule } from "./rule.js";
import { nodeName } from "./describe.js";

/** 2^53 - 1 written out; formatted when a message needs it, since loading number formatting at start-up would cost every process (docs/performance.md). */
const limitText = (): string => Number.MAX_SAFE_INTEGER.toLocaleString("en");

export default defineRule({
  meta: {
    id: "estimate-too-large",
    severity: "error",
    category: "graph",
    title: "The cost estimate is an exact whole number",
    rationale:
      "A run reserves the validated estimate against the usage allowance, so the estimate must be exact. Past 9,007,199,254,740,991 minor units (2^53 - 1) JavaScript numbers skip whole numbers, and a sum there would be rounded: wfkit refuses it rather than print a wrong figure.",
    fix: "Check the catalogue's costs for the part named (no real run costs this much), or its subject count.",
    assumptions: [
      "The catalogue's costs must themselves be safe integers (`loadCatalogue` refuses others); this rule catches a per-subject cost times the subjects, or the sum over the parts, leaving the range. The fault points at the part node where that happens, and the result then carries no estimate (a total of 0 and no rows).",
    ],
  },
  check(ctx) {
    const reading = ctx.estimateReading;
    if (reading.exact) return;
    const { node, nodeCost } = reading;
    ctx.report({
      nodeId: node.id ?? null,
      pointer: node.pointer,
      message:
        nodeCost === undefined
          ? `Part ${nodeName(node)} (\`${node.partId}\` with ${node.subjectRefs?.length ?? 0} subjects) would cost more than ${limitText()} minor units, beyond the whole numbers wfkit can add exactly, so no estimate is given. Check that part's cost in the catalogue.`
          : `With part ${nodeName(node)} (${nodeCost.toLocaleString("en")} minor units) the estimate passes ${limitText()} minor units, beyond the whole numbers wfkit can add exactly, so no estimate is given. Check the catalogue's costs of the parts in this workflow.`,
    });
  },
});
