import { defineRule } from "./rule.js";
import { joinPointer } from "../fault.js";

export default defineRule({
  meta: {
    id: "trigger-missing",
    severity: "error",
    category: "node",
    title: "The workflow has a trigger",
    rationale: "A run starts at the trigger; without one nothing in the graph can ever run.",
    fix: "Add a trigger node (`{\"id\": \"start\", \"kind\": \"trigger\", \"trigger\": {\"kind\": \"on_demand\"}}`) with an edge to the first step, or a top-level `trigger` in a version-save body.",
    assumptions: [
      "Not reported when a node of unknown kind may be meant as the trigger (it has a `trigger` field, or its `kind` is closest to `trigger`): `node-kind` reports that node, and fixing it adds the trigger.",
    ],
  },
  check(ctx) {
    if (!ctx.model.nodesUsable || ctx.hasTrigger || ctx.unknownKindMayBe("trigger")) return;
    ctx.report({
      nodeId: null,
      pointer: joinPointer(ctx.model.graphPointer, "nodes"),
      message: "This workflow has no trigger, so it can never start. Add a trigger node of kind `on_demand` or `scheduled` and connect it to the first step.",
    });
  },
});
