import { defineRule } from "./rule.js";
import { canonicalIdOf, type PartNode } from "./parts.js";
import { isPlainObject, ownField } from "../model.js";
import { type CatalogueSubject, subjectKey } from "../catalogue.js";
import type { RuleContext } from "../checker/context.js";
import { nodeName, show } from "./describe.js";

export default defineRule({
  meta: {
    id: "subject-not-canonical",
    severity: "error",
    category: "part",
    title: "Terminal parts run against pinned subjects, not names or hints",
    rationale: "Terminal parts run against canonical subjects; a name or ticker is ambiguous until `resolve-subjects` pins it to one company.",
    fix: "Resolve the hint with `POST /catalogue/resolve-subjects` and use the returned subject object (`canonicalId`, `kind: company`, `label`, `identifiers`).",
    assumptions: [
      "A subject ref is pinned when it is an object with a non-empty string `canonicalId` and `kind` `company`; `label` and `identifiers` are optional.",
      "A pinned ref whose `canonicalId` is not a canonical id of the catalogue's offline `subjects` table but is one of its labels or identifier values (a name or a ticker such as `Tesco PLC` or `TSCO.L`), or one of its canonical ids written in another case, is a name, not a canonical subject: it is reported at the `canonicalId`, with the table's canonical id as the suggestion. A `canonicalId` the table does not know at all is not this rule's: `subject-unknown` warns about it (the service's table may be newer).",
      "The suggestion comes from the catalogue's offline `subjects` table, matched on canonical id, label or identifier value, ignoring case and surrounding spaces.",
    ],
  },
  partsJudged: "with-terminal",
  part(node, ctx) {
    const refs = node.subjectRefs;
    if (!refs) return;
    const judgeIds = ctx.catalogue.subjectsByName.size > 0;
    // A clean node's subjects are all pinned (checker/read.ts): only their ids are left to judge.
    if (node.clean) {
      if (judgeIds) for (let index = 0; index < refs.length; index++) judgePinnedId(ctx, node, index, (refs[index] as { canonicalId: string }).canonicalId);
      return;
    }
    refs.forEach((ref, index) => {
      const canonicalId = canonicalIdOf(ref);
      if (canonicalId !== undefined) {
        if (judgeIds) judgePinnedId(ctx, node, index, canonicalId);
        return;
      }
      const hint = hintOf(ref);
      const match = hint === undefined ? undefined : ctx.catalogue.subjectsByName.get(subjectKey(hint))?.subject;
      const what = typeof ref === "string" ? `the name ${show(ref)}` : isPlainObject(ref) && hint !== undefined ? `the unpinned hint ${show(hint)}` : show(ref);
      ctx.report({
        nodeId: node.id ?? null,
        pointer: `${node.pointer}/terminal/subjectRefs/${index}`,
        message: `Subject ${index + 1} of part ${nodeName(node)} is ${what}, not a pinned subject. Terminal parts run against canonical companies: resolve it and use the subject object.${match ? ` The catalogue pins it as \`${match.canonicalId}\` (${match.label}).` : ""}`,
        suggestion: match ? subjectJson(match) : undefined,
      });
    });
  },
});

/** A pinned ref's `canonicalId` that is a name (label, identifier) of a subject in the table, not its id. */
function judgePinnedId(ctx: RuleContext, node: PartNode, index: number, canonicalId: string): void {
  if (ctx.catalogue.subjectIds.has(canonicalId)) return;
  const name = ctx.catalogue.subjectsByName.get(subjectKey(canonicalId));
  if (!name) return;
  const { subject } = name;
  const what = name.field === "canonical id" ? `\`${subject.canonicalId}\` written differently` : `${name.field === "label" ? "the name" : "an identifier"} of \`${subject.canonicalId}\` (${subject.label})`;
  ctx.report({
    nodeId: node.id ?? null,
    pointer: `${node.pointer}/terminal/subjectRefs/${index}/canonicalId`,
    message: `Subject ${index + 1} of part ${nodeName(node)} has \`canonicalId\` ${show(canonicalId)}, ${what} in the catalogue's subject table, not a canonical id. Terminal parts run against canonical subjects, not names: use \`${subject.canonicalId}\`.`,
    suggestion: subject.canonicalId,
  });
}

function subjectJson(subject: CatalogueSubject): string {
  return JSON.stringify({ canonicalId: subject.canonicalId, kind: subject.kind, label: subject.label, identifiers: subject.identifiers ?? [] });
}

function hintOf(ref: unknown): string | undefined {
  if (typeof ref === "string") return ref;
  if (!isPlainObject(ref)) return undefined;
  for (const field of ["hint", "canonicalId", "label", "name", "ticker"]) {
    const value = ownField(ref, field);
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}
