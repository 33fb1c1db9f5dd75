/** Shared reading of part nodes for the part rules. */
import type { RuleContext } from "../checker/context.js";
import type { NodeInfo } from "../checker/model.js";
import { isPlainObject, ownField } from "../model.js";

/** A part node: its `raw` object is present (a part's kind is read from it). */
export type PartNode = NodeInfo & { readonly raw: Record<string, unknown>; readonly kind: "part" };

/** The part nodes of the input (duplicates included), found once and shared by every part rule. */
export function partNodes(ctx: RuleContext): PartNode[] {
  return ctx.shared("partNodes", () => ctx.model.nodes.filter((node): node is PartNode => node.kind === "part"));
}

/** The `terminal.subjectRefs` array of a part node, when it is one. */
export function subjectRefsOf(node: NodeInfo): unknown[] | undefined {
  const terminal = node.terminal;
  if (!isPlainObject(terminal)) return undefined;
  const refs = ownField(terminal, "subjectRefs");
  return Array.isArray(refs) ? refs : undefined;
}

/** The canonical id of a pinned subject, or undefined when the ref is a name or hint. */
export function canonicalIdOf(ref: unknown): string | undefined {
  if (!isPlainObject(ref)) return undefined;
  const id = ownField(ref, "canonicalId");
  return typeof id === "string" && id !== "" && ownField(ref, "kind") === "company" ? id : undefined;
}
