/**
 * The parameters the references constrain, as data: what each takes (an enumeration, a whole
 * number with its bounds, a date, text), its default and whether it is required. The service
 * refuses by these rules and the client checks by them before sending, so the two cannot
 * disagree on what a parameter takes; each words its own message (the service's in its answer,
 * the client's as a `SignalsRequestError`).
 */
import { GEOGRAPHIES, RUN_FILTERS, SIGNAL_SEVERITIES, type Geography } from "./enums.js";

export interface ParamRule {
  /** In the query string, or a segment of the path. */
  in: "query" | "path";
  /**
   * What it is: one of `enumeration`; a whole number from `minimum` (to `maximum` when the
   * reference gives one); a calendar date written YYYY-MM-DD; free text; or an identifier (a
   * non-empty path segment).
   */
  type: "enum" | "integer" | "date" | "text" | "identifier";
  enumeration?: readonly string[];
  minimum?: number;
  maximum?: number;
  /**
   * wfkit serve's own upper bound, where the reference gives none: a choice of the local
   * service (its sample data), listed in docs/signals.md. Not a rule of the API, so clients do
   * not enforce it.
   */
  serviceMaximum?: number;
  /** What the service takes when it is absent (`today`: the current date); absent when it is required or filters nothing. */
  default?: string | number;
  required?: boolean;
}

const query = <const R extends Omit<ParamRule, "in">>(rule: R) => ({ in: "query" as const, ...rule });
const path = <const R extends Omit<ParamRule, "in">>(rule: R) => ({ in: "path" as const, ...rule });

/** `geography` as most data endpoints take it: `US` or `UK`, `US` when absent (the reference's default). */
const geography = query({ type: "enum", enumeration: GEOGRAPHIES, default: "US" });

/** Every parameter of the Consumer Signals API, by the name the route table gives it. */
export const SIGNALS_PARAMS = {
  geography,
  severity: query({ type: "enum", enumeration: SIGNAL_SEVERITIES }),
  category: query({ type: "text" }),
  /**
   * "recent periods to include": a number, default 1; read as a whole number of 1 or more. The
   * reference gives no maximum; the local service's sample holds 52 weeks.
   */
  periods: query({ type: "integer", minimum: 1, default: 1, serviceMaximum: 52 }),
  from: query({ type: "date", default: "2020-01-01" }),
  to: query({ type: "date", default: "today" }),
  /** The briefing's `geography` is required ("a country code such as US, UK"). */
  briefingGeography: query({ type: "enum", enumeration: GEOGRAPHIES, required: true }),
  /** Import pressure: required, and `UK` only. */
  importPressureGeography: query({ type: "enum", enumeration: ["UK"] as const, required: true }),
  /** Census retail data: `US` only ("only US supported"); the local service takes its absence as `US`. */
  censusGeography: query({ type: "enum", enumeration: ["US"] as const, default: "US" }),
  sectorId: path({ type: "identifier" }),
  id: path({ type: "identifier" }),
} as const satisfies Record<string, ParamRule>;

/** Every query parameter of the Workflows API the reference names. */
export const WORKFLOWS_PARAMS = {
  /** "optional query unattendedSafe=1"; `0` (every part) is the local service's reading of its absence. */
  unattendedSafe: query({ type: "enum", enumeration: ["1", "0"], default: "0" }),
  state: query({ type: "enum", enumeration: RUN_FILTERS, default: "all" }),
} as const satisfies Record<string, ParamRule>;

/** The geography sent when a caller names none. */
export const DEFAULT_GEOGRAPHY: Geography = SIGNALS_PARAMS.geography.default;
/** `/api/history`'s default `from`; its default `to` is the current date. */
export const HISTORY_DEFAULT_FROM: string = SIGNALS_PARAMS.from.default;

/** A real calendar date written YYYY-MM-DD (`2024-02-30` is not). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether `value` (a number, or a query string's text) is a whole number that `rule` takes; `bound` adds the service's own maximum. */
export function integerAllowed(rule: ParamRule, value: number | string, bound: "reference" | "service" = "reference"): boolean {
  const number = typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) return false;
  const maximum = bound === "service" ? (rule.serviceMaximum ?? rule.maximum) : rule.maximum;
  return (rule.minimum === undefined || number >= rule.minimum) && (maximum === undefined || number <= maximum);
}
