import { defineRule } from "./rule.js";
import { ownField, hasOwnField, SCHEMA_VERSION } from "../model.js";
import { joinPointer } from "../fault.js";

export default defineRule({
  meta: {
    id: "schema-version",
    severity: "error",
    category: "document",
    title: "The definition declares `schemaVersion` 1",
    rationale: "The service only accepts definitions of schema version 1; anything else is refused before any other check.",
    fix: "Set `\"schemaVersion\": 1` at the top of the definition.",
  },
  check(ctx) {
    const { graph, graphPointer } = ctx.model;
    if (!graph) return;
    if (!hasOwnField(graph, "schemaVersion")) {
      ctx.report({
        nodeId: null,
        pointer: graphPointer,
        message: "The definition has no `schemaVersion`. The service only accepts version 1; add `\"schemaVersion\": 1`.",
        suggestion: "1",
      });
      return;
    }
    const version = ownField(graph, "schemaVersion");
    if (version !== SCHEMA_VERSION)
      ctx.report({
        nodeId: null,
        pointer: joinPointer(graphPointer, "schemaVersion"),
        message: `\`schemaVersion\` is ${JSON.stringify(version) ?? String(version)}, but the service only accepts 1 (the number, not a string). Set it to 1.`,
        suggestion: "1",
      });
  },
});
