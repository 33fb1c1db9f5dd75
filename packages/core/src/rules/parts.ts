/** Shared reading of part nodes for the part rules. */
import type { RuleContext } from "../checker/context.js";
import type { NodeInfo } from "../checker/model.js";
import { isPlainObject, ownField } from "../model.js";

export interface PartNodeView {
  node: NodeInfo;
  raw: Record<string, unknown>;
  /** The partId when it is a string. */
  partId: string | undefined;
}

/** The part nodes of the input, read once and shared by every part rule. */
export function partNodes(ctx: RuleContext): PartNodeView[] {
  return ctx.shared("partNodes", () => readPartNodes(ctx));
}

function readPartNodes(ctx: RuleContext): PartNodeView[] {
  const views: PartNodeView[] = [];
  for (const node of ctx.model.nodes) {
    if (node.kind !== "part" || !node.raw) continue;
    const partId = ownField(node.raw, "partId");
    views.push({ node, raw: node.raw, partId: typeof partId === "string" ? partId : undefined });
  }
  return views;
}

/** The `terminal.subjectRefs` array of a part node, when it is one. */
export function subjectRefsOf(raw: Record<string, unknown>): unknown[] | undefined {
  const terminal = ownField(raw, "terminal");
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
