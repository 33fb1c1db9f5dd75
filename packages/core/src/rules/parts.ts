/** Shared reading of part nodes for the part rules. */
import type { NodeInfo } from "../checker/model.js";
import { isPlainObject, ownField } from "../model.js";

/** A part node: its `raw` object is present (a part's kind is read from it). */
export type PartNode = NodeInfo & { readonly raw: Record<string, unknown>; readonly kind: "part" };

/** The canonical id of a pinned subject, or undefined when the ref is a name or hint. */
export function canonicalIdOf(ref: unknown): string | undefined {
  if (!isPlainObject(ref)) return undefined;
  const id = ownField(ref, "canonicalId");
  return typeof id === "string" && id !== "" && ownField(ref, "kind") === "company" ? id : undefined;
}
