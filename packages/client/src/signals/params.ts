/**
 * The query and path parameters the reference constrains, checked before a request is sent:
 * each check returns the value to send or a problem with its stable code and a message that
 * says what is wrong, why, and what to do. The defaults the client applies live here too.
 */
import { GEOGRAPHIES } from "@wfkit/core";
import type { Geography, SignalSeverity } from "./api-types.js";
import { SIGNALS_REQUEST_CODES as CODES, type SignalsRequestProblem } from "./errors.js";

/** The client sends `geography` explicitly, `US` when the caller gives none (the reference's default). */
export const DEFAULT_GEOGRAPHY: Geography = "US";
/** `/api/history`'s default `from`; its default `to` is the current date. */
export const HISTORY_DEFAULT_FROM = "2020-01-01";
export const SIGNAL_SEVERITIES: readonly SignalSeverity[] = ["high", "medium", "low"];
/** Import pressure exists only for the UK; census retail data only for the US. */
export const IMPORT_PRESSURE_GEOGRAPHY: Geography = "UK";
export const CENSUS_GEOGRAPHY: Geography = "US";

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: SignalsRequestProblem };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = (problem: SignalsRequestProblem): Checked<never> => ({ ok: false, problem });
const quote = (value: unknown) => (typeof value === "string" ? `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"` : typeof value === "number" ? String(value) : `a ${value === null ? "null" : typeof value}`);

/** `US` or `UK`; `only` narrows it for an endpoint that serves one geography. */
export function checkGeography(value: unknown, only?: Geography): Checked<Geography> {
  const known = GEOGRAPHIES as readonly string[];
  if (typeof value !== "string" || !known.includes(value)) {
    const upper = typeof value === "string" ? value.trim().toUpperCase() : "";
    const suggestion = known.includes(upper) ? upper : upper === "GB" ? "UK" : undefined;
    return fail({
      code: CODES.geographyInvalid,
      parameter: "geography",
      message: `\`geography\` is ${quote(value)}, but the Consumer Signals API covers only "US" and "UK" (upper case)${suggestion ? `; did you mean "${suggestion}"?` : "."} Pass one of them.`,
      ...(suggestion ? { suggestion } : {}),
    });
  }
  if (only !== undefined && value !== only)
    return fail({
      code: CODES.geographyUnsupported,
      parameter: "geography",
      message: `\`geography\` is "${value}", but this endpoint serves only "${only}" (${only === "UK" ? "import pressure is published for UK sectors only" : "census retail data is published for the US only"}). Pass "${only}", or leave \`geography\` out.`,
      suggestion: only,
    });
  return ok(value as Geography);
}

export function checkSeverity(value: unknown): Checked<SignalSeverity> {
  if (typeof value === "string" && (SIGNAL_SEVERITIES as readonly string[]).includes(value)) return ok(value as SignalSeverity);
  const lower = typeof value === "string" ? value.trim().toLowerCase() : "";
  const suggestion = (SIGNAL_SEVERITIES as readonly string[]).includes(lower) ? lower : undefined;
  return fail({
    code: CODES.severityInvalid,
    parameter: "severity",
    message: `\`severity\` is ${quote(value)}, but signals have only the severities high, medium and low${suggestion ? `; did you mean "${suggestion}"?` : "."} Pass one of them, or leave it out for every severity.`,
    ...(suggestion ? { suggestion } : {}),
  });
}

/** How many recent periods to include: a whole number of 1 or more. */
export function checkPeriods(value: unknown): Checked<number> {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 1) return ok(value);
  return fail({
    code: CODES.periodsInvalid,
    parameter: "periods",
    message: `\`periods\` is ${quote(value)}, but it counts recent periods to include, so it must be a whole number of 1 or more. Pass, for example, 1 (the default) or 4.`,
  });
}

/** A non-empty string for a free-text query parameter (`category`). */
export function checkText(value: unknown, parameter: string, example: string): Checked<string> {
  if (typeof value === "string" && value.trim() !== "") return ok(value);
  return fail({
    code: CODES.textInvalid,
    parameter,
    message: `\`${parameter}\` is ${value === "" ? "empty" : quote(value)}, but it filters by a name, so it must be a non-empty string. Pass one (for example "${example}"), or leave it out.`,
  });
}

/** A path segment naming a resource (a sector, a view): a non-empty string without surrounding spaces. */
export function checkIdentifier(value: unknown, parameter: string, example: string): Checked<string> {
  if (typeof value === "string" && value !== "" && value.trim() === value) return ok(value);
  const trimmed = typeof value === "string" ? value.trim() : "";
  return fail({
    code: CODES.identifierInvalid,
    parameter,
    message: `\`${parameter}\` is ${value === "" ? "empty" : quote(value)}, but it names a resource in the request's path, so it must be a non-empty string without surrounding spaces. Pass its id (for example "${example}").`,
    ...(trimmed && trimmed !== value ? { suggestion: trimmed } : {}),
  });
}

/** A real calendar date written YYYY-MM-DD. */
export function checkDate(value: unknown, parameter: string): Checked<string> {
  if (typeof value === "string" && isCalendarDate(value)) return ok(value);
  const shaped = typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);
  return fail({
    code: CODES.dateInvalid,
    parameter,
    message: shaped
      ? `\`${parameter}\` is ${quote(value)}, which is not a date on the calendar. Pass a real date as YYYY-MM-DD.`
      : `\`${parameter}\` is ${quote(value)}, but the service reads dates as YYYY-MM-DD. Pass it in that form, for example "2024-03-01".`,
  });
}

export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * `from` and `to` of a history request, each checked; the range must not run backwards. A
 * `to` alone is compared with the service's default `from` (2020-01-01); a `from` alone is
 * not compared with the default `to` ("the current date", whose time zone is not shown).
 */
export function checkDateRange(from: unknown, to: unknown): Checked<{ from?: string; to?: string }> {
  const range: { from?: string; to?: string } = {};
  if (from !== undefined) {
    const checked = checkDate(from, "from");
    if (!checked.ok) return checked;
    range.from = checked.value;
  }
  if (to !== undefined) {
    const checked = checkDate(to, "to");
    if (!checked.ok) return checked;
    range.to = checked.value;
  }
  const effectiveFrom = range.from ?? HISTORY_DEFAULT_FROM;
  if (range.to !== undefined && effectiveFrom > range.to) {
    const which = range.from === undefined ? `the default \`from\` (${HISTORY_DEFAULT_FROM})` : `\`from\` (${effectiveFrom})`;
    return fail({
      code: CODES.dateRangeReversed,
      parameter: range.from === undefined ? "to" : "from",
      message: `${which} is after \`to\` (${range.to}), so the range holds no day. Pass a \`from\` on or before the \`to\`.`,
    });
  }
  return ok(range);
}
