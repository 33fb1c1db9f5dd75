/** Small phrasing helpers shared by rule messages, so every message names things the same way. */
import type { NodeInfo } from "../checker/model.js";

export function nodeName(node: NodeInfo): string {
  return node.id !== undefined ? `\`${node.id}\`` : `#${node.index + 1}`;
}

export function quoteList(items: readonly string[]): string {
  const quoted = items.map((item) => `\`${item}\``);
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}

export function show(value: unknown): string {
  if (typeof value === "string") return `\`${value}\``;
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
