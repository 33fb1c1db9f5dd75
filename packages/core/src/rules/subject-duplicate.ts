import { defineRule } from "./rule.js";
import { canonicalIdOf } from "./parts.js";
import { nodeName } from "./describe.js";

export default defineRule({
  meta: {
    id: "subject-duplicate",
    severity: "error",
    category: "part",
    title: "A terminal part lists each subject once",
    rationale: "Listing a company twice runs (and charges for) it twice, and a comparison of a company with itself says nothing.",
    fix: "Remove the repeated subject, or replace it with the company you meant.",
  },
  partsJudged: "with-terminal",
  part(node, ctx) {
    const refs = node.subjectRefs;
    // Most parts list one or two subjects: no map for those.
    if (!refs || refs.length < 2) return;
    const firstIndex = new Map<string, number>();
    refs.forEach((ref, index) => {
      const id = canonicalIdOf(ref);
      if (id === undefined) return;
      const first = firstIndex.get(id);
      if (first === undefined) {
        firstIndex.set(id, index);
        return;
      }
      ctx.report({
        nodeId: node.id ?? null,
        pointer: `${node.pointer}/terminal/subjectRefs/${index}`,
        message: `Part ${nodeName(node)} lists subject \`${id}\` twice (subjects ${first + 1} and ${index + 1}); remove the repeat or pin the company you meant.`,
        related: [{ nodeId: node.id ?? null, pointer: `${node.pointer}/terminal/subjectRefs/${first}`, message: `\`${id}\` is first listed here` }],
      });
    });
  },
});
