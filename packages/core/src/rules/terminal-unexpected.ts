import { defineRule } from "./rule.js";
import { isTerminalPartId } from "../catalogue.js";
import { nodeName } from "./describe.js";

export default defineRule({
  meta: {
    id: "terminal-unexpected",
    severity: "error",
    category: "part",
    title: "Only `terminal.*` parts carry a `terminal` object",
    rationale: "Only terminal parts run jobs against subjects; a `terminal` object elsewhere would be ignored or refused, and usually means the wrong part id.",
    fix: "Remove the `terminal` object, or use the `terminal.*` part you meant.",
  },
  partsJudged: "with-terminal",
  part(node, ctx) {
    const partId = node.partId;
    if (partId === undefined || isTerminalPartId(partId) || !node.hasTerminal) return;
    ctx.report({
      nodeId: node.id ?? null,
      pointer: `${node.pointer}/terminal`,
      message: `Part ${nodeName(node)} (\`${partId}\`) is not a terminal part but carries a \`terminal\` object. Only \`terminal.*\` parts run jobs on subjects; remove it or change the part id.`,
    });
  },
});
