import { defineRule } from "./rule.js";
import { nodeName } from "./describe.js";

export default defineRule({
  meta: {
    id: "part-unknown",
    severity: "error",
    category: "part",
    title: "Every part is in the catalogue",
    rationale: "The service runs only catalogue parts; an unknown `partId` is usually a typo and the graph will not save.",
    fix: "Use a part id from the catalogue (`wfkit` suggests the closest one).",
    assumptions: ["The edges of an unknown part are not judged: what it requires and produces is unknown, so no `edge-incompatible` fault is derived from it."],
  },
  part(node, ctx) {
    const partId = node.partId;
    if (partId === undefined || ctx.partOf(node)) return;
    const suggestion = ctx.suggester.closest(partId, ctx.catalogue.partIds);
    ctx.report({
      nodeId: node.id ?? null,
      pointer: `${node.pointer}/partId`,
      message: `Part ${nodeName(node)} uses \`${partId}\`, which is not in the catalogue, so the service cannot run it.${suggestion ? ` Did you mean \`${suggestion}\`?` : " Check the part id against the catalogue."}`,
      suggestion,
    });
  },
});
