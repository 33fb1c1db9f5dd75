/**
 * What an alert sees when its period ends, and whether its condition holds: the judgment the
 * alert clock (service.ts, `judgeDueAlerts`) makes once per period per active alert. Pure: it
 * reads the sample data through the same functions the data endpoints answer with, so an
 * alert sees exactly what `GET /api/cpix`, `/api/signals`, `/api/sectors/{id}/import-pressure`,
 * `/api/housing` and `/api/macro` show.
 *
 * The reference says an alert of a given `type` and `condition` notifies when the condition
 * holds, for `min_consecutive` consecutive periods when set, and that a `weekly_digest` sends
 * a weekly summary. Which value each type compares, how each condition reads, and the length
 * of a period are wfkit's choices, listed in docs/signals.md ("Alerts that fire").
 */
import type { AlertType } from "@wfkit/core";
import * as sample from "./sample.js";
import type { Geography } from "./types.js";

/** How often an alert of a type is judged: at the end of each such period (UTC). */
export type AlertPeriod = "week" | "month";

/**
 * The period of each type. The sample data set is computed weekly (every `lastUpdated` is a
 * Monday's), so the index, its change, the week's signals, a sector's import pressure and the
 * digest are weekly; housing and macro observations are monthly, so a series is judged once a
 * month.
 */
export const PERIOD_OF_TYPE: Readonly<Record<AlertType, AlertPeriod>> = {
  cpix_threshold: "week",
  cpix_change: "week",
  sector_pressure: "week",
  signal_severity: "week",
  series_threshold: "month",
  weekly_digest: "week",
};

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05, the first Monday of the epoch: weeks run from Monday 00:00 UTC. */
const FIRST_MONDAY = 4 * DAY_MS;

/** The first end of a period strictly after `ms` (a Monday 00:00 UTC, or the 1st of a month 00:00 UTC). */
export function nextPeriodEnd(period: AlertPeriod, ms: number): number {
  if (period === "week") return FIRST_MONDAY + (Math.floor((ms - FIRST_MONDAY) / WEEK_MS) + 1) * WEEK_MS;
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** The start of the period that ends at `end`. */
export function periodStart(period: AlertPeriod, end: number): number {
  if (period === "week") return end - WEEK_MS;
  const date = new Date(end);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 1, 1);
}

/** The stored alert, as the judgment reads it. */
export interface JudgedAlert {
  type: string;
  condition: string;
  threshold: number | null;
  geography: string;
  sector_id: string | null;
  series_key: string | null;
  min_consecutive: number | null;
}

/** Whether the condition holds this period, the value it compared (or counted), and a sentence saying so. */
export interface Judgment {
  holds: boolean;
  /** The value the condition was judged on; null when there was none to judge (no threshold, an unknown series). */
  value: number | null;
  /** One sentence: what was seen and why the condition holds or not. */
  detail: string;
  /** signal_severity: the signals that made it hold. */
  signalIds?: string[];
}

/** The periods an alert's condition must hold in a row: `min_consecutive`, read as a whole number of 1 or more. */
export function periodsNeeded(minConsecutive: number | null): number {
  if (minConsecutive === null || !Number.isFinite(minConsecutive)) return 1;
  return Math.max(1, Math.ceil(minConsecutive));
}

const SEVERITIES_AT_LEAST: Readonly<Record<string, readonly string[]>> = { high: ["high"], medium: ["high", "medium"] };

function geographyOf(alert: JudgedAlert): Geography {
  return alert.geography === "UK" ? "UK" : "US";
}

/** A level against a threshold: `above` is strictly more, `below` strictly less. */
function level(alert: JudgedAlert, what: string, value: number | undefined): Judgment {
  if (value === undefined) return { holds: false, value: null, detail: `${what} is not in the data, so the condition cannot hold.` };
  if (alert.threshold === null) return { holds: false, value, detail: `${what} is ${value}, but the alert has no threshold to compare it with, so it never fires.` };
  if (alert.condition !== "above" && alert.condition !== "below")
    return { holds: false, value, detail: `${what} is ${value}; the condition \`${alert.condition}\` does not apply to a level (above or below), so it never holds.` };
  const holds = alert.condition === "above" ? value > alert.threshold : value < alert.threshold;
  return { holds, value, detail: `${what} is ${value}, ${holds ? "" : "not "}${alert.condition} ${alert.threshold}.` };
}

/** Judges one alert against the data as the endpoints show it. */
export function judgeAlert(alert: JudgedAlert): Judgment {
  const geography = geographyOf(alert);
  switch (alert.type as AlertType) {
    case "cpix_threshold":
      return level(alert, `The ${geography} composite index`, sample.cpix(geography).summary.score);
    case "cpix_change": {
      const change = sample.cpix(geography).summary.change;
      const what = `The ${geography} composite index changed by ${change >= 0 ? "+" : ""}${change} on the week`;
      if (alert.threshold === null) return { holds: false, value: change, detail: `${what}, but the alert has no threshold (the change to watch for), so it never fires.` };
      if (alert.condition !== "rises_by" && alert.condition !== "falls_by")
        return { holds: false, value: change, detail: `${what}; the condition \`${alert.condition}\` does not apply to a change (rises_by or falls_by), so it never holds.` };
      const holds = alert.condition === "rises_by" ? change >= alert.threshold : -change >= alert.threshold;
      return { holds, value: change, detail: `${what}, which ${holds ? "" : "does not "}${alert.condition === "rises_by" ? "rise" : "fall"} by ${alert.threshold} or more.` };
    }
    case "sector_pressure": {
      if (alert.sector_id === null) return { holds: false, value: null, detail: "The alert names no sector_id, so it watches nothing and never fires." };
      const analysis = sample.importPressure(alert.sector_id);
      return level(alert, `The import pressure of sector \`${alert.sector_id}\``, analysis?.importPressureScore);
    }
    case "series_threshold": {
      if (alert.series_key === null) return { holds: false, value: null, detail: "The alert names no series_key, so it watches nothing and never fires." };
      const latest = [...sample.housing(), ...sample.macro()].filter((observation) => observation.series_key === alert.series_key).sort((a, b) => a.date.localeCompare(b.date)).pop();
      return level(alert, latest ? `Series \`${alert.series_key}\` (latest, ${latest.date})` : `Series \`${alert.series_key}\``, latest?.value);
    }
    case "signal_severity": {
      const severities = SEVERITIES_AT_LEAST[alert.condition];
      if (!severities) return { holds: false, value: null, detail: `The condition \`${alert.condition}\` is not a severity (high or medium), so it never holds.` };
      const found = sample.signals({ geography, periods: 1, detail: false }).signals.filter((signal) => severities.includes(signal.severity));
      const wanted = alert.condition === "high" ? "high" : "medium or high";
      return {
        holds: found.length > 0,
        value: found.length,
        detail: `${found.length} ${geography} signal(s) of ${wanted} severity this week${found.length ? `: ${found.map((signal) => signal.headline).join("; ")}` : ""}.`,
        signalIds: found.map((signal) => signal.id),
      };
    }
    case "weekly_digest": {
      const { summary } = sample.cpix(geography);
      const { signals } = sample.signals({ geography, periods: 1, detail: false });
      const count = (severity: string) => signals.filter((signal) => signal.severity === severity).length;
      return {
        holds: true,
        value: summary.score,
        detail: `Weekly digest for ${geography}: the composite index is ${summary.score} (${summary.change >= 0 ? "+" : ""}${summary.change}, ${summary.classification}); ${signals.length} signal(s) this week (${count("high")} high, ${count("medium")} medium, ${count("low")} low).`,
      };
    }
    default:
      return { holds: false, value: null, detail: `The type \`${alert.type}\` is not one this service judges.` };
  }
}
