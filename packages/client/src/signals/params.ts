/**
 * The query and path parameters the reference constrains, checked before a request is sent by
 * @wfkit/api's parameter rules (`SIGNALS_PARAMS`: the enumeration, the bounds, the default),
 * the rules the service refuses by: each check returns the value to send or a problem with its
 * stable code and a message that says what is wrong, why, and what to do.
 */
import { DEFAULT_GEOGRAPHY, HISTORY_DEFAULT_FROM, isCalendarDate, integerAllowed, SIGNALS_PARAMS, SIGNAL_SEVERITIES, type Geography, type SignalSeverity } from "@wfkit/api";
import { SIGNALS_REQUEST_CODES as CODES, type SignalsRequestProblem } from "./errors.js";

/** The client sends `geography` explicitly, `US` when the caller gives none (the reference's default). */
export { DEFAULT_GEOGRAPHY, HISTORY_DEFAULT_FROM, isCalendarDate, SIGNAL_SEVERITIES };
/** Import pressure exists only for the UK; census retail data only for the US: the one value each endpoint takes. */
export const IMPORT_PRESSURE_GEOGRAPHY: Geography = SIGNALS_PARAMS.importPressureGeography.enumeration[0];
export const CENSUS_GEOGRAPHY: Geography = SIGNALS_PARAMS.censusGeography.enumeration[0];

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: SignalsRequestProblem };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = (problem: SignalsRequestProblem): Checked<never> => ({ ok: false, problem });
const quote = (value: unknown) => (typeof value === "string" ? `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"` : typeof value === "number" ? String(value) : `a ${value === null ? "null" : typeof value}`);

/** `US` or `UK`; `only` narrows it for an endpoint that serves one geography. */
export function checkGeography(value: unknown, only?: Geography): Checked<Geography> {
  const known = SIGNALS_PARAMS.geography.enumeration as readonly string[];
  if (typeof value !== "string" || !known.includes(value)) {
    const upper = typeof value === "string" ? value.trim().toUpperCase() : "";
    const suggestion = known.includes(upper) ? upper : upper === "GB" ? "UK" : undefined;
    return fail({
      code: CODES.geographyInvalid,
      parameter: "geography",
      message: `\`geography\` is ${quote(value)}, but the Consumer Signals API covers only ${known.map((g) => `"${g}"`).join(" and ")} (upper case)${suggestion ? `; did you mean "${suggestion}"?` : "."} Pass one of them.`,
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

/**
 * How many recent periods to include: a whole number of 1 or more, the reference's reading (it
 * gives no maximum, so the local service's own bound is not enforced here).
 */
export function checkPeriods(value: unknown): Checked<number> {
  const rule = SIGNALS_PARAMS.periods;
  if (typeof value === "number" && integerAllowed(rule, value)) return ok(value);
  return fail({
    code: CODES.periodsInvalid,
    parameter: "periods",
    message: `\`periods\` is ${quote(value)}, but it counts recent periods to include, so it must be a whole number of ${rule.minimum} or more. Pass, for example, ${rule.default} (the default) or 4.`,
  });
}

/** A non-empty string for a free-text query parameter (`category`). */
export function checkNameFilter(value: unknown, parameter: string, example: string): Checked<string> {
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
