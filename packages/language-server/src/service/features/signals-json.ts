/**
 * Completion and hover in Consumer Signals alert and saved-view JSON files (`*.alert.json`,
 * `*.view.json`, or a `$schema` naming their schema): the enumerations of `type`,
 * `condition` (those that go with the alert's type first) and `geography`, the body's field
 * names, and what each field is for. Every value comes from core's tables, the ones its
 * rules judge with.
 */
import { ALERT_CONDITIONS, ALERT_FIELDS, ALERT_REQUIRED, ALERT_TYPES, CONDITIONS_BY_TYPE, GEOGRAPHIES, TARGET_FIELD_BY_TYPE, THRESHOLD_TYPES, VIEW_FIELDS, VIEW_REQUIRED, type AlertType } from "@wfkit/core";
import type { JsonNode } from "../analysis.js";
import type { WfkitDocument } from "../document.js";
import type { CompletionItem, Hover, Position } from "../types.js";
import { findNodeAtOffset, getNodePath } from "./hover.js";

type Kind = "alert" | "view";

const FIELD_DOCS: Readonly<Record<string, string>> = {
  name: "The name shown in notifications and lists.",
  type: `What the alert watches: ${ALERT_TYPES.map((t) => `\`${t}\``).join(", ")}.`,
  condition: `When the alert triggers; it must go with \`type\`: ${ALERT_TYPES.map((t) => `\`${t}\` takes ${CONDITIONS_BY_TYPE[t].map((c) => `\`${c}\``).join("/")}`).join("; ")}.`,
  email: "The address every notification goes to.",
  threshold: `The number the condition compares with; required for ${THRESHOLD_TYPES.map((t) => `\`${t}\``).join(", ")}.`,
  geography: "`US` or `UK`.",
  sector_id: "The sector whose import pressure a `sector_pressure` alert watches (for example `grocery`).",
  whatsapp_number: "A mobile number in E.164 form (`+447700900123`) for WhatsApp notifications.",
  series_key: "The housing or macro series a `series_threshold` alert watches.",
  min_consecutive: "How many consecutive periods the condition must hold before the alert triggers (1 or more).",
  driver_ids: "The ids of the composite index's drivers the view shows (strings).",
  question: "The question the view asks.",
};

function kindOf(document: WfkitDocument): Kind | undefined {
  return document.language === "json" ? document.analysis.bodyKind : undefined;
}

/** The top-level field a node is the value (or the key) of, if it is one. */
function topLevelField(node: JsonNode): { field: string; isKey: boolean } | undefined {
  const property = node.parent;
  if (property?.type !== "property" || property.parent?.parent !== undefined) return undefined;
  return { field: String(property.children?.[0]?.value), isKey: property.children?.[0] === node };
}

function alertTypeOf(document: WfkitDocument): AlertType | undefined {
  const body = document.analysis.compiled;
  const type = body && typeof body === "object" ? (body as Record<string, unknown>).type : undefined;
  return typeof type === "string" && (ALERT_TYPES as readonly string[]).includes(type) ? (type as AlertType) : undefined;
}

export function completeSignalsJson(document: WfkitDocument, position: Position): CompletionItem[] | undefined {
  const kind = kindOf(document);
  const tree = document.analysis.jsonTree;
  if (!kind || !tree) return undefined;
  const offset = document.lines.offsetAt(position);
  const node = findNodeAtOffset(tree, offset);
  if (!node || node.type !== "string") return [];
  const place = topLevelField(node);
  if (!place) return [];
  const range = document.lines.rangeOf(node.offset + 1, Math.max(node.offset + 1, node.offset + node.length - 1));
  const item = (label: string, detail: string, documentation?: string): CompletionItem => ({ label, kind: "value", detail, range, ...(documentation ? { documentation } : {}) });
  if (place.isKey) {
    const fields = kind === "alert" ? ALERT_FIELDS : VIEW_FIELDS;
    const required: readonly string[] = kind === "alert" ? ALERT_REQUIRED : VIEW_REQUIRED;
    return Object.entries(fields).map(([name, type]) => item(name, `${type}${required.includes(name) ? ", required" : ""}`, FIELD_DOCS[name]));
  }
  if (place.field === "geography") return GEOGRAPHIES.map((g) => item(g, "geography"));
  if (kind !== "alert") return [];
  if (place.field === "type") return ALERT_TYPES.map((t) => item(t, `alert type: ${CONDITIONS_BY_TYPE[t].join(", ")}`));
  if (place.field === "condition") {
    const type = alertTypeOf(document);
    const fitting = type ? CONDITIONS_BY_TYPE[type] : ALERT_CONDITIONS;
    return fitting.map((c) => item(c, type ? `condition for ${type}` : "condition"));
  }
  return [];
}

export function hoverSignalsJson(document: WfkitDocument, offset: number): Hover | undefined {
  const kind = kindOf(document);
  const tree = document.analysis.jsonTree;
  if (!kind || !tree) return undefined;
  const node = findNodeAtOffset(tree, offset);
  if (!node) return undefined;
  const place = topLevelField(node);
  if (!place || getNodePath(node).length > 1) return undefined;
  const fields = kind === "alert" ? ALERT_FIELDS : VIEW_FIELDS;
  const type = fields[place.field];
  if (!type) return undefined;
  const required = (kind === "alert" ? (ALERT_REQUIRED as readonly string[]) : VIEW_REQUIRED).includes(place.field);
  const lines = [`**${place.field}** (${type}${required ? ", required" : ""}) in ${kind === "alert" ? "an alert" : "a saved view"}`, "", FIELD_DOCS[place.field] ?? ""];
  const alertType = kind === "alert" ? alertTypeOf(document) : undefined;
  if (alertType && place.field === "type") {
    const target = TARGET_FIELD_BY_TYPE[alertType];
    lines.push("", `A \`${alertType}\` alert takes ${CONDITIONS_BY_TYPE[alertType].map((c) => `\`${c}\``).join(" or ")}${THRESHOLD_TYPES.includes(alertType) ? " and needs `threshold`" : ""}${target ? ` and \`${target}\`` : ""}.`);
  }
  return { contents: lines.join("\n"), range: document.lines.rangeOf(node.offset, node.offset + node.length) };
}
