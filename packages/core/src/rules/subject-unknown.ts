import { defineRule } from "./rule.js";
import { canonicalIdOf, type PartNode } from "./parts.js";
import { subjectKey } from "../catalogue.js";
import type { RuleContext } from "../checker/context.js";
import { nodeName, show } from "./describe.js";

export default defineRule({
  meta: {
    id: "subject-unknown",
    severity: "warning",
    category: "part",
    title: "A pinned subject is a company the catalogue's subject table holds",
    rationale:
      "Terminal parts run against canonical subjects, the companies the service's resolver holds. A `canonicalId` it does not hold names no company: the part has nothing to run against, and `wfkit serve` fails it (charging nothing for it) and ends the run failed.",
    fix: "Pin the company with `wfkit pin` (resolve-subjects) and use the canonical id it returns. If the service's catalogue is newer than the one checked against, pull it with `wfkit catalogue pull` and check with `--catalogue`.",
    assumptions: [
      "Judged only when the catalogue in use has a `subjects` table; a catalogue without one says nothing about which companies exist.",
      "A warning, not an error: the service's catalogue may be newer than the one wfkit checks against, and a company added since is not a mistake.",
      "A `canonicalId` that is a name of a subject in the table (its label, an identifier, or its canonical id in another case) is `subject-not-canonical`'s, not this rule's: one mistake, one fault.",
    ],
  },
  partsJudged: "with-terminal",
  part(node, ctx) {
    const refs = node.subjectRefs;
    if (!refs || ctx.catalogue.subjects.length === 0) return;
    for (let index = 0; index < refs.length; index++) {
      const canonicalId = canonicalIdOf(refs[index]);
      if (canonicalId !== undefined) judge(ctx, node, index, canonicalId);
    }
  },
});

function judge(ctx: RuleContext, node: PartNode, index: number, canonicalId: string): void {
  if (ctx.catalogue.subjectIds.has(canonicalId) || ctx.catalogue.subjectsByName.has(subjectKey(canonicalId))) return;
  ctx.report({
    nodeId: node.id ?? null,
    pointer: `${node.pointer}/terminal/subjectRefs/${index}/canonicalId`,
    message: `Subject ${index + 1} of part ${nodeName(node)} has \`canonicalId\` ${show(canonicalId)}, which the catalogue's subject table does not hold. Terminal parts run against companies the service knows; against this one the part would fail. Pin the company with \`wfkit pin\`, or check against the service's newer catalogue (\`wfkit catalogue pull\`).`,
  });
}
