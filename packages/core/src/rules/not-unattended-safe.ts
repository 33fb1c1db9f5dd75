import { defineRule } from "./rule.js";
import { nodeName } from "./describe.js";

export default defineRule({
  meta: {
    id: "not-unattended-safe",
    severity: "error",
    category: "part",
    title: "A scheduled workflow uses only parts that are safe to run unattended",
    rationale: "Scheduled runs start with nobody watching; the catalogue marks which parts may run that way (`unattendedSafe`).",
    fix: "Use an `unattendedSafe` part, or make the trigger `on_demand`.",
    assumptions: ["Every part of a graph with a scheduled trigger is judged, reachable or not."],
  },
  check(ctx) {
    const scheduled = ctx.scheduledTrigger;
    if (!scheduled) return;
    for (const node of ctx.model.nodesByKind.part) {
      const part = ctx.partOf(node);
      if (!part || part.unattendedSafe) continue;
      ctx.report({
        nodeId: node.id ?? null,
        pointer: `${node.pointer}/partId`,
        message: `Part ${nodeName(node)} (\`${part.partId}\`) is not safe to run unattended, but this workflow has a scheduled trigger. Use an unattended-safe part or trigger the workflow on demand.`,
        related: [{ nodeId: scheduled.node?.id ?? null, pointer: `${scheduled.pointer}/kind`, message: "the trigger is scheduled here" }],
      });
    }
  },
});
