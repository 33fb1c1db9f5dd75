import { defineRule } from "./rule.js";
import { canonicalIdOf } from "./parts.js";
import { isPlainObject, ownField } from "../model.js";
import type { CatalogueSubject } from "../catalogue.js";
import { nodeName, show } from "./describe.js";

export default defineRule({
  meta: {
    id: "subject-not-canonical",
    severity: "error",
    title: "Terminal parts run against pinned subjects, not names or hints",
    rationale: "Terminal parts run against canonical subjects; a name or ticker is ambiguous until `resolve-subjects` pins it to one company.",
    fix: "Resolve the hint with `POST /catalogue/resolve-subjects` and use the returned subject object (`canonicalId`, `kind: company`, `label`, `identifiers`).",
    assumptions: [
      "A subject ref is pinned when it is an object with a non-empty string `canonicalId` and `kind` `company`; `label` and `identifiers` are optional.",
      "The suggestion comes from the catalogue's offline `subjects` table, matched on canonical id, label or identifier value, ignoring case.",
    ],
  },
  partsJudged: "with-terminal",
  part(node, ctx) {
    // A clean node's subjects are all pinned (checker/read.ts).
    if (node.clean) return;
    const refs = node.subjectRefs;
    if (!refs) return;
    refs.forEach((ref, index) => {
      if (canonicalIdOf(ref) !== undefined) return;
      const hint = hintOf(ref);
      const match = hint === undefined ? undefined : findSubject(ctx.catalogue.subjects, hint);
      const what = typeof ref === "string" ? `the name ${show(ref)}` : isPlainObject(ref) && hint !== undefined ? `the unpinned hint ${show(hint)}` : show(ref);
      ctx.report({
        nodeId: node.id ?? null,
        pointer: `${node.pointer}/terminal/subjectRefs/${index}`,
        message: `Subject ${index + 1} of part ${nodeName(node)} is ${what}, not a pinned subject. Terminal parts run against canonical companies: resolve it and use the subject object.${match ? ` The catalogue pins it as \`${match.canonicalId}\` (${match.label}).` : ""}`,
        suggestion: match ? JSON.stringify({ canonicalId: match.canonicalId, kind: match.kind, label: match.label, identifiers: match.identifiers ?? [] }) : undefined,
      });
    });
  },
});

function hintOf(ref: unknown): string | undefined {
  if (typeof ref === "string") return ref;
  if (!isPlainObject(ref)) return undefined;
  for (const field of ["hint", "canonicalId", "label", "name", "ticker"]) {
    const value = ownField(ref, field);
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

function findSubject(subjects: readonly CatalogueSubject[], hint: string): CatalogueSubject | undefined {
  const wanted = hint.trim().toLowerCase();
  return subjects.find(
    (subject) =>
      subject.canonicalId.toLowerCase() === wanted ||
      subject.label.toLowerCase() === wanted ||
      (subject.identifiers ?? []).some((identifier) => {
        const value = isPlainObject(identifier) ? ownField(identifier, "value") : identifier;
        return typeof value === "string" && value.toLowerCase() === wanted;
      }),
  );
}
