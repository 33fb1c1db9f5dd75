import { defineRule } from "./rule.js";
import { joinPointer } from "../fault.js";

export default defineRule({
  meta: {
    id: "destination-missing",
    severity: "error",
    category: "node",
    title: "The workflow has a destination",
    rationale: "Results go to a destination; a graph without one produces nothing anyone receives.",
    fix: "Add a destination node (`{\"id\": \"inbox\", \"kind\": \"destination\", \"destination\": {\"kind\": \"standalone\"}}`) at the end of the graph, or top-level `destinations` in a version-save body.",
    assumptions: [
      "Not reported when a node of unknown kind may be meant as the destination (it has a `destination` field, or its `kind` is closest to `destination`): `node-kind` reports that node, and fixing it adds the destination.",
    ],
  },
  check(ctx) {
    if (!ctx.model.nodesUsable || ctx.hasDestination || ctx.unknownKindMayBe("destination")) return;
    ctx.report({
      nodeId: null,
      pointer: joinPointer(ctx.model.graphPointer, "nodes"),
      message: "This workflow has no destination, so its results would go nowhere. Add a `standalone` destination node and connect the last step to it.",
    });
  },
});
