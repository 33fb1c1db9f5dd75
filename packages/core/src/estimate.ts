import type { Estimate, EstimatePart } from "./fault.js";
import type { RuleContext } from "./checker/context.js";
import { partCost } from "./catalogue.js";

/**
 * What a run would reserve: for each part node the catalogue knows, its base cost plus its
 * per-subject cost times the number of subjects. Parts the catalogue does not know cost
 * nothing here (best effort for an invalid graph: their cost is unknown).
 */
export function estimateCost(ctx: RuleContext): Estimate {
  const parts: EstimatePart[] = [];
  let total = 0;
  // Only part nodes have a catalogue entry.
  for (const node of ctx.model.nodesByKind.part) {
    if (node.duplicateOf) continue;
    const part = ctx.partOf(node);
    if (!part) continue;
    const subjects = node.subjectRefs?.length ?? 0;
    const cost = partCost(part, subjects);
    total += cost;
    parts.push({ nodeId: node.id ?? "", partId: part.partId, costMinorUnits: cost });
  }
  return { costMinorUnits: total, parts };
}
