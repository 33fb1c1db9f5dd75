import { defineRule } from "./rule.js";
import { isTerminalPartId } from "../catalogue.js";
import { nodeName } from "./describe.js";

export default defineRule({
  meta: {
    id: "terminal-missing",
    severity: "error",
    category: "part",
    title: "A `terminal.*` part carries a `terminal` object",
    rationale: "A terminal part runs a job against pinned subjects; without its `terminal` object it has no job and no subjects to run.",
    fix: "Add `\"terminal\": {\"job\": {\"id\": ..., \"version\": \"1\"}, \"subjectRefs\": [...]}`.",
  },
  partsJudged: "without-terminal",
  part(node, ctx) {
    const partId = node.partId;
    if (partId === undefined || !isTerminalPartId(partId) || node.hasTerminal) return;
    const job = ctx.partOf(node)?.terminal?.jobs[0];
    ctx.report({
      nodeId: node.id ?? null,
      pointer: node.pointer,
      message: `Terminal part ${nodeName(node)} (\`${partId}\`) has no \`terminal\` object, so it has no job to run and no subjects to run it on. Add one with a \`job\` and pinned \`subjectRefs\`.`,
      suggestion: job ? JSON.stringify({ job: { id: job.id, version: job.version }, subjectRefs: [] }) : undefined,
    });
  },
});
