/**
 * Which of the reference's two forms an input is, decided once, here, for every reader (the
 * checker's model, the schema validator the `shape` rule picks, the clean fast path,
 * `CheckSession`, and the tools that draw or browse a graph):
 *
 * - the **Definition** `{schemaVersion, nodes, edges}` (workflows-api.md §2 "Definition (the
 *   graph)"; the body of `validate-definition`, §4);
 * - the **version save body** `{scope: {graph}, trigger?, destinations?}` (§4, `POST
 *   /workflows/{wf}/versions`; §2 "Version: created from a body carrying `scope.graph`").
 *
 * The reference does not say what a body carrying both is. wfkit's choice: a body whose `scope`
 * is an object holding `graph` is a version save body, whatever else it has (the graph in
 * `scope.graph` is then judged, and a Definition field beside `scope` is a `body-mixed` fault,
 * so neither part escapes the rules); a `scope` of any other value is a version save body only
 * when none of the Definition's fields is there (a broken one, which `shape` reports), and
 * otherwise an extra field of a Definition (one `unknown-field` warning).
 */
import { KNOWN_FIELDS } from "./known-fields.js";
import { hasOwnField, isPlainObject, ownField, type VersionSaveBody } from "./model.js";

export type BodyForm = "definition" | "version-save-body";

/** The form `value` is read as (anything that is not an object counts as a broken Definition). */
export function bodyFormOf(value: unknown): BodyForm {
  if (!isPlainObject(value) || !hasOwnField(value, "scope")) return "definition";
  const scope = ownField(value, "scope");
  if (isPlainObject(scope) && hasOwnField(scope, "graph")) return "version-save-body";
  return definitionFieldsOf(value).length === 0 ? "version-save-body" : "definition";
}

/** True when `value` is read as a version save body (see bodyFormOf). */
export function isVersionSaveBody(value: unknown): value is VersionSaveBody {
  return bodyFormOf(value) === "version-save-body";
}

/** The Definition's own fields (`schemaVersion`, `nodes`, `edges`) present on `value`, in document order. */
export function definitionFieldsOf(value: Record<string, unknown>): string[] {
  const definitionFields: readonly string[] = KNOWN_FIELDS.definition;
  return Object.keys(value).filter((field) => definitionFields.includes(field));
}
