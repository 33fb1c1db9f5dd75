/**
 * The sample data set the local Consumer Signals API answers from: invented figures, not real
 * ones (every data response says so in the `Wfkit-Sample-Data` header). The records are the
 * committed `sample-data.json`; the composite index history, several hundred weekly points
 * per geography, is generated from its fixed `historySeeds`, so the file stays small and the
 * history is the same on every machine. The summary of `GET /api/cpix` is read off the same
 * history, so the two endpoints agree.
 */
import sampleJson from "./sample-data.json" with { type: "json" };
import type {
  AccuracyResponse,
  Briefing,
  CensusObservation,
  CpixDriver,
  CpixResponse,
  Geography,
  HistoryPoint,
  HistoryResponse,
  ImportPressure,
  SeriesObservation,
  Signal,
  SignalsResponse,
} from "./types.js";
import { PERIOD_MS } from "./policy.js";

interface SampleData {
  asOf: string;
  historySeeds: Record<Geography, number>;
  signals: Signal[];
  cpix: Record<Geography, { drivers: CpixDriver[] }>;
  accuracy: AccuracyResponse["accuracy"];
  briefings: Record<Geography, Briefing>;
  importPressure: Record<string, ImportPressure>;
  census: CensusObservation[];
  housing: SeriesObservation[];
  macro: SeriesObservation[];
}

// A JSON import types enumerated fields as `string`, so the data is checked field by field
// here only for presence and shape; the enumerations are held to the reference by the tests.
type Widened<T> = T extends string ? string : T extends (infer E)[] ? Widened<E>[] : T extends object ? { [K in keyof T]: Widened<T[K]> } : T;
const SAMPLE_JSON: Widened<SampleData> = sampleJson;
const SAMPLE = SAMPLE_JSON as SampleData;

/** The history's first week: the first Monday of 2020. */
const HISTORY_START = Date.UTC(2020, 0, 6);
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** mulberry32: a small, well-known 32-bit generator; the history only needs to be the same everywhere. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
export const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A mean-reverting random walk on 0 to 100, one point a week from HISTORY_START to the data set's date. */
function generateHistory(seed: number): HistoryPoint[] {
  const next = generator(seed);
  const end = Date.parse(SAMPLE.asOf);
  const points: HistoryPoint[] = [];
  let value = 50;
  for (let week = HISTORY_START; week <= end; week += WEEK_MS) {
    value += (next() + next() + next() - 1.5) * 1.6 + (50 - value) * 0.03;
    value = Math.min(95, Math.max(5, value));
    points.push({ date: dateOf(week), value: round(value, 1) });
  }
  return points;
}

const HISTORY: Record<Geography, HistoryPoint[]> = { US: generateHistory(SAMPLE.historySeeds.US), UK: generateHistory(SAMPLE.historySeeds.UK) };

/** When the sample data set was computed: every `lastUpdated`. */
export const SAMPLE_AS_OF = SAMPLE.asOf;

export function signals(query: { geography: Geography; severity?: string; category?: string; periods: number; detail: boolean }): SignalsResponse {
  const since = Date.parse(SAMPLE.asOf) - query.periods * PERIOD_MS;
  const category = query.category?.toLowerCase();
  const chosen = SAMPLE.signals
    .filter(
      (signal) =>
        signal.geography === query.geography &&
        Date.parse(signal.timestamp) > since &&
        (query.severity === undefined || signal.severity === query.severity) &&
        (category === undefined || signal.category.toLowerCase() === category),
    )
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || a.id.localeCompare(b.id))
    .map((signal) => (query.detail ? structuredClone(signal) : withoutDetail(signal)));
  return { signals: chosen, count: chosen.length, lastUpdated: SAMPLE.asOf };
}

function withoutDetail({ patternConditions: _conditions, historicalContext: _context, ...signal }: Signal): Signal {
  return structuredClone(signal);
}

export function cpix(geography: Geography): CpixResponse {
  const history = HISTORY[geography];
  const latest = history[history.length - 1]!;
  const previous = history[history.length - 2]!;
  const change = round(latest.value - previous.value, 1);
  return {
    summary: {
      score: latest.value,
      change,
      changePercent: round((change / previous.value) * 100, 2),
      previousScore: previous.value,
      timestamp: SAMPLE.asOf,
      latestDataDate: latest.date,
      computedAt: SAMPLE.asOf,
      classification: change > 0.5 ? "rising_pressure" : change < -0.5 ? "easing_pressure" : "stable_pressure",
    },
    drivers: structuredClone(SAMPLE.cpix[geography].drivers),
    geography,
    lastUpdated: SAMPLE.asOf,
  };
}

/** The points from `from` to `to` (YYYY-MM-DD, both included), oldest first. */
export function history(geography: Geography, from: string, to: string): HistoryResponse {
  const points = HISTORY[geography].filter((point) => point.date >= from && point.date <= to).map((point) => ({ ...point }));
  return { history: points, count: points.length, from, to, lastUpdated: SAMPLE.asOf };
}

export function accuracy(): AccuracyResponse {
  return { accuracy: structuredClone(SAMPLE.accuracy), count: SAMPLE.accuracy.length };
}

export function briefing(geography: string): Briefing | undefined {
  return Object.hasOwn(SAMPLE.briefings, geography) ? structuredClone(SAMPLE.briefings[geography as Geography]) : undefined;
}

export const BRIEFING_GEOGRAPHIES = Object.keys(SAMPLE.briefings);

export function importPressure(sectorId: string): ImportPressure | undefined {
  return Object.hasOwn(SAMPLE.importPressure, sectorId) ? structuredClone(SAMPLE.importPressure[sectorId]) : undefined;
}

export const IMPORT_PRESSURE_SECTORS = Object.keys(SAMPLE.importPressure);

export function census(): CensusObservation[] {
  return structuredClone(SAMPLE.census);
}

export function housing(): SeriesObservation[] {
  return structuredClone(SAMPLE.housing);
}

export function macro(): SeriesObservation[] {
  return structuredClone(SAMPLE.macro);
}
