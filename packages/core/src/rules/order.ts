import type { NodeInfo } from "../checker/model.js";

/** Orders nodes by id (code-unit order), so choices among them do not depend on file order. */
export function byId(a: NodeInfo, b: NodeInfo): number {
  return a.id! < b.id! ? -1 : a.id! > b.id! ? 1 : 0;
}
