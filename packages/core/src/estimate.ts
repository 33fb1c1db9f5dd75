import type { Estimate, EstimatePart } from "./fault.js";
import type { RuleContext } from "./checker/context.js";
import type { NodeInfo } from "./checker/model.js";
import { partCost } from "./catalogue.js";

/** An estimate, or where it left the range of exact whole numbers (see partCost). */
export type EstimateReading =
  | { readonly exact: true; readonly estimate: Estimate }
  | {
      readonly exact: false;
      /** The part node whose cost, or whose addition to the total, left the range. */
      readonly node: NodeInfo;
      /** Its own cost when that is exact (then the total left the range). */
      readonly nodeCost: number | undefined;
    };

/** The estimate given when none is exact: no rows and a total of 0 (`estimate-too-large` reports why). */
const NO_ESTIMATE: Estimate = { costMinorUnits: 0, parts: [] };

/**
 * What a run would reserve: for each part node the catalogue knows, its base cost plus its
 * per-subject cost times the number of subjects. Parts the catalogue does not know cost
 * nothing here (best effort for an invalid graph: their cost is unknown). A total or a part's
 * cost past Number.MAX_SAFE_INTEGER is never given as a (rounded) number: the reading says
 * where it left the range instead.
 */
export function readEstimate(ctx: RuleContext): EstimateReading {
  const parts: EstimatePart[] = [];
  let total = 0;
  // Only part nodes have a catalogue entry. An index loop: this runs once per check, mostly
  // before V8 optimises it, and until then a `for…of` allocates an iterator result per step.
  const partNodes = ctx.model.nodesByKind.part;
  for (let i = 0; i < partNodes.length; i++) {
    const node = partNodes[i]!;
    if (node.duplicateOf) continue;
    const part = ctx.partOf(node);
    if (!part) continue;
    const cost = partCost(part, node.subjectRefs?.length ?? 0);
    if (cost === undefined || !Number.isSafeInteger(total + cost)) return { exact: false, node, nodeCost: cost };
    total += cost;
    parts.push({ nodeId: node.id ?? "", partId: part.partId, costMinorUnits: cost });
  }
  return { exact: true, estimate: { costMinorUnits: total, parts } };
}

/** The estimate of a checked input; the empty one when it is not exact (see readEstimate). */
export function estimateCost(ctx: RuleContext): Estimate {
  const reading = ctx.estimateReading;
  return reading.exact ? reading.estimate : { ...NO_ESTIMATE, parts: [] };
}
