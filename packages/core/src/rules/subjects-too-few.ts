import { defineRule } from "./rule.js";
import { minSubjectsOf } from "../catalogue.js";
import { nodeName } from "./describe.js";

export default defineRule({
  meta: {
    id: "subjects-too-few",
    severity: "error",
    category: "part",
    title: "A terminal part has at least as many subjects as it needs",
    rationale: "Each terminal part needs a minimum number of subjects; a comparing step needs at least two companies to compare.",
    fix: "Pin more subjects (the message says how many the part needs).",
    assumptions: ["Every entry of `subjectRefs` counts, pinned or not and repeated or not: those are faults of their own, so a list is not reported twice for one mistake."],
  },
  partsJudged: "with-terminal",
  part(node, ctx) {
    const part = ctx.partOf(node);
    const refs = node.subjectRefs;
    if (!part?.terminal || !refs) return;
    const needed = minSubjectsOf(part);
    if (refs.length >= needed) return;
    ctx.report({
      nodeId: node.id ?? null,
      pointer: `${node.pointer}/terminal/subjectRefs`,
      message: `Part ${nodeName(node)} (\`${part.partId}\`) has ${refs.length} subject${refs.length === 1 ? "" : "s"} but needs at least ${needed}${needed >= 2 ? " (a comparing step needs two companies to compare)" : ""}. Pin ${needed - refs.length} more.`,
    });
  },
});
