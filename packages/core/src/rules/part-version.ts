import { defineRule } from "./rule.js";
import { nodeName, quoteList } from "./describe.js";

export default defineRule({
  meta: {
    id: "part-version",
    severity: "error",
    category: "part",
    title: "A part's `partVersion` is one the catalogue offers",
    rationale: "Parts are versioned; the service cannot run a version the catalogue does not offer.",
    fix: "Set `partVersion` to one of the versions listed in the message.",
    assumptions: ["The suggested version is the last one the catalogue lists for the part, taken to be the newest."],
  },
  part(node, ctx) {
    const part = ctx.partOf(node);
    const version = node.partVersion;
    if (!part || typeof version !== "string" || part.versions.includes(version)) return;
    const suggestion = part.versions[part.versions.length - 1];
    ctx.report({
      nodeId: node.id ?? null,
      pointer: `${node.pointer}/partVersion`,
      message: `Part ${nodeName(node)} asks for version \`${version}\` of \`${part.partId}\`, which the catalogue does not offer (it offers ${quoteList(part.versions)}).`,
      suggestion,
    });
  },
});
