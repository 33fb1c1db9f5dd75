/**
 * The Consumer Signals API's request bodies that wfkit checks before they are sent: the
 * `POST /api/alerts` body and the `POST /api/views` body. Every enumeration and pairing the
 * rules use lives here, once; the JSON Schemas in ../../schema/ and docs/signals.md list
 * the same values (a test compares the schemas with these tables).
 */

/** The kinds of request body wfkit judges: a workflow definition, an alert, a saved view. */
export type BodyKind = "definition" | "alert" | "view";

export const GEOGRAPHIES = ["US", "UK"] as const;

export const ALERT_TYPES = ["cpix_threshold", "cpix_change", "sector_pressure", "signal_severity", "series_threshold", "weekly_digest"] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const ALERT_CONDITIONS = ["above", "below", "rises_by", "falls_by", "any", "high", "medium"] as const;

/**
 * The conditions that mean something for each alert type. The reference lists the types and
 * the conditions but not which go together; this pairing is wfkit's assumption.
 */
export const CONDITIONS_BY_TYPE: Readonly<Record<AlertType, readonly string[]>> = {
  cpix_threshold: ["above", "below"],
  cpix_change: ["rises_by", "falls_by"],
  sector_pressure: ["above", "below"],
  signal_severity: ["high", "medium"],
  series_threshold: ["above", "below"],
  weekly_digest: ["any"],
};

/** The types whose condition compares against a number: `threshold` is required for them, and means nothing for the others. */
export const THRESHOLD_TYPES: readonly AlertType[] = ["cpix_threshold", "cpix_change", "sector_pressure", "series_threshold"];

/** The field naming what a type watches: required for that type, meaningless for the others. */
export const TARGET_FIELD_BY_TYPE: Readonly<Partial<Record<AlertType, "sector_id" | "series_key">>> = {
  sector_pressure: "sector_id",
  series_threshold: "series_key",
};

export type JsonType = "string" | "number" | "array";

/** Every field of the alert body, with its JSON type; the first four are required. */
export const ALERT_FIELDS: Readonly<Record<string, JsonType>> = {
  name: "string",
  type: "string",
  condition: "string",
  email: "string",
  threshold: "number",
  geography: "string",
  sector_id: "string",
  whatsapp_number: "string",
  series_key: "string",
  min_consecutive: "number",
};
export const ALERT_REQUIRED = ["name", "type", "condition", "email"] as const;

/** Every field of the saved-view body, all required. */
export const VIEW_FIELDS: Readonly<Record<string, JsonType>> = {
  name: "string",
  geography: "string",
  driver_ids: "array",
  question: "string",
};
export const VIEW_REQUIRED = ["name", "geography", "driver_ids", "question"] as const;

/**
 * Fields an editor writes that are not part of the body: `$schema` names the published
 * schema. They are neither warned about nor required; a client strips them before sending.
 */
export const EDITOR_FIELDS: readonly string[] = ["$schema"];

export const ALERT_SCHEMA_ID = "https://wfkit.dev/schema/alert.schema.json";
export const VIEW_SCHEMA_ID = "https://wfkit.dev/schema/view.schema.json";

/**
 * What kind of body a JSON value is, decided in this one place: a file named `*.alert.json`
 * or `*.view.json` is an alert or a view; so is any value whose `$schema` names the
 * published alert or view schema (by its `$id` or any path ending in its file name).
 * Everything else is judged as a workflow definition.
 */
export function bodyKindOf(fileName: string | undefined, value: unknown): BodyKind {
  const name = fileName?.toLowerCase() ?? "";
  if (name.endsWith(".alert.json")) return "alert";
  if (name.endsWith(".view.json")) return "view";
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const schema = Object.prototype.hasOwnProperty.call(value, "$schema") ? (value as Record<string, unknown>).$schema : undefined;
    if (typeof schema === "string") {
      if (/(^|[/\\])alert\.schema\.json$/.test(schema)) return "alert";
      if (/(^|[/\\])view\.schema\.json$/.test(schema)) return "view";
    }
  }
  return "definition";
}

/** Plausible: one `@`, something before it, a dotted domain after it, no spaces, at most 254 characters. */
export function isPlausibleEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

/** E.164: a `+`, a country code not starting with 0, at most 15 digits in all. */
export function isE164(value: string): boolean {
  return /^\+[1-9]\d{1,14}$/.test(value);
}

/** The E.164 form of a number written with spaces, dashes, dots, brackets or a `00` prefix, if it has one. */
export function e164Suggestion(value: string): string | undefined {
  let compact = value.replace(/[\s\-.()]/g, "");
  if (compact.startsWith("00")) compact = "+" + compact.slice(2);
  return compact !== value && isE164(compact) ? compact : undefined;
}
