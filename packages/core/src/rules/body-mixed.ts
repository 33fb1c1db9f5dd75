import { defineRule } from "./rule.js";
import { definitionFieldsOf } from "../body-form.js";
import { isPlainObject } from "../model.js";
import { quoteList } from "./describe.js";

export default defineRule({
  meta: {
    id: "body-mixed",
    severity: "error",
    category: "document",
    title: "A body is a Definition or a version-save body, not both",
    rationale:
      "The reference has two forms: the Definition `{schemaVersion, nodes, edges}` (workflows-api.md §2) that `validate-definition` takes, and the version-save body `{scope: {graph}, trigger?, destinations?}` that saving a version takes (§4; §2: a version is created from a body carrying `scope.graph`), with the Definition inside `scope.graph`. A body with the Definition's fields beside `scope.graph` is neither; which graph the service would read is not shown.",
    fix: "Keep one form: for a version-save body, move `schemaVersion`, `nodes` and `edges` into `scope.graph` (or delete the copies at the top); for a Definition, remove `scope`.",
    assumptions: [
      "A body whose `scope` is an object holding `graph` is read as a version-save body, whatever else it has: the graph in `scope.graph` is the one judged, and the Definition fields beside `scope` get this one fault (not `unknown-field` warnings as well).",
      "A `scope` that holds no `graph` makes a version-save body only when none of `schemaVersion`, `nodes`, `edges` is at the top; beside them it is an extra field of a Definition (one `unknown-field` warning).",
      "Top-level `trigger` or `destinations` without `scope` do not make a version-save body: they are extra fields of a Definition (`unknown-field`), and the graph's own trigger and destination nodes are the ones judged.",
    ],
  },
  check(ctx) {
    const { input, isVersionBody } = ctx.model;
    if (!isVersionBody || !isPlainObject(input)) return;
    const fields = definitionFieldsOf(input);
    if (fields.length === 0) return;
    const [first, ...others] = fields;
    ctx.report({
      nodeId: null,
      pointer: `/${first}`,
      message: `This body has \`scope.graph\`, so it is read as a version-save body, but it also has the Definition's ${fields.length === 1 ? "field" : "fields"} ${quoteList(fields)} at the top. A version-save body carries its Definition inside \`scope.graph\` only; move ${fields.length === 1 ? "it" : "them"} there or delete ${fields.length === 1 ? "it" : "them"} (or remove \`scope\` to send a Definition).`,
      related: others.map((field) => ({ nodeId: null, pointer: `/${field}`, message: `\`${field}\` is a Definition field too` })),
    });
  },
});
