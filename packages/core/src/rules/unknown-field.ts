import { defineRule } from "./rule.js";
import { isPlainObject, ownField } from "../model.js";
import { joinPointer } from "../fault.js";
import { KNOWN_FIELDS, KNOWN_NODE_FIELDS } from "../known-fields.js";
import type { RuleContext } from "../checker/context.js";
import { canonicalIdOf } from "./parts.js";

export default defineRule({
  meta: {
    id: "unknown-field",
    severity: "warning",
    category: "document",
    title: "Fields wfkit does not know are flagged (and kept)",
    rationale: "An unknown field is often a misspelt known one (`partversion`), which the service would ignore or refuse. wfkit keeps it untouched, so nothing is lost.",
    fix: "Correct the spelling if you meant a known field; otherwise leave it (wfkit passes it through) or suppress the warning.",
    assumptions: [
      "Scheduled triggers are assumed to carry `schedule` and `timezone`; the reference does not show their fields.",
      "Fields of nodes whose kind is unknown are not judged (`node-kind` is reported instead).",
    ],
  },
  check(ctx) {
    const { model } = ctx;
    // Clean objects have only known fields (checker/read.ts); only the others are walked.
    if (model.clean || !isPlainObject(model.input)) return;
    if (model.isVersionBody) {
      // The Definition's fields at the top of a version-save body are `body-mixed`'s fault.
      flag(ctx, model.input, "", KNOWN_FIELDS.versionSaveBody, null, undefined, KNOWN_FIELDS.definition);
      const scope = ownField(model.input, "scope");
      if (isPlainObject(scope)) flag(ctx, scope, "/scope", KNOWN_FIELDS.scope, null);
      const trigger = model.topLevelTrigger;
      if (trigger && isPlainObject(trigger.raw)) flag(ctx, trigger.raw, trigger.pointer, KNOWN_FIELDS.triggerSpec, null);
      for (const destination of model.topLevelDestinations)
        if (isPlainObject(destination.raw)) flag(ctx, destination.raw, destination.pointer, KNOWN_FIELDS.destinationSpec, null);
    }
    if (model.graph) flag(ctx, model.graph, model.graphPointer, KNOWN_FIELDS.definition, null);
    for (const node of model.nodes) {
      if (!node.raw || !node.kind || node.clean) continue;
      const nodeId = node.id ?? null;
      flag(ctx, node.raw, node.pointer, KNOWN_NODE_FIELDS[node.kind], nodeId);
      const nested = (field: string, known: readonly string[]) => {
        const value = ownField(node.raw!, field);
        if (isPlainObject(value)) flag(ctx, value, `${node.pointer}/${field}`, known, nodeId);
        return value;
      };
      if (node.kind === "trigger") nested("trigger", KNOWN_FIELDS.triggerSpec);
      if (node.kind === "destination") nested("destination", KNOWN_FIELDS.destinationSpec);
      if (node.kind === "part") {
        const terminal = nested("terminal", KNOWN_FIELDS.terminal);
        if (!isPlainObject(terminal)) continue;
        const job = ownField(terminal, "job");
        if (isPlainObject(job)) flag(ctx, job, `${node.pointer}/terminal/job`, KNOWN_FIELDS.job, nodeId);
        const refs = ownField(terminal, "subjectRefs");
        if (Array.isArray(refs))
          refs.forEach((ref, i) => {
            if (canonicalIdOf(ref) !== undefined) flag(ctx, ref as Record<string, unknown>, `${node.pointer}/terminal/subjectRefs/${i}`, KNOWN_FIELDS.subject, nodeId);
          });
      }
    }
    for (const index of model.uncleanEdges) {
      const raw = model.rawEdges[index];
      if (!isPlainObject(raw)) continue;
      const to = ownField(raw, "to");
      const nodeId = typeof to === "string" && model.byId.has(to) ? to : null;
      flag(ctx, raw, `${model.edgesPointer}/${index}`, KNOWN_FIELDS.edge, nodeId, index);
    }
  },
});

/** Reports each field of `object` not in `known`, but those another rule reports (`ownedElsewhere`). */
function flag(ctx: RuleContext, object: Record<string, unknown>, pointer: string, known: readonly string[], nodeId: string | null, edge?: number, ownedElsewhere: readonly string[] = []): void {
  for (const field of Object.keys(object)) {
    if (known.includes(field) || ownedElsewhere.includes(field)) continue;
    const suggestion = ctx.suggester.closest(field, known);
    ctx.report({
      nodeId,
      edge,
      pointer: joinPointer(pointer, field),
      message: `\`${field}\` is not a field wfkit knows here${suggestion ? `; did you mean \`${suggestion}\`?` : "."} It is kept and passed through unchanged, but the service may ignore it.`,
      suggestion,
    });
  }
}
