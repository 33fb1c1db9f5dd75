/**
 * What a successful answer must look like, as guards: the combinators, and the resources of
 * the two references (the fields they list, with the types they give). Each route of the route
 * table (`routes.ts`) names its answer's guard; the client's transport checks every 2xx answer
 * against it before a client returns it, so code that reads an answer (the CLI's rendering)
 * meets only the types the wire types promise, or a `bad_answer` error naming the endpoint.
 *
 * Hand-written guards, not a schema compiler: a few hundred bytes in a browser bundle. Each
 * guard walks only as deep as its shape (never into open values such as a node's `output`),
 * and walks arrays with a loop, so 200,000 runs cost a loop, not a stack. Where a reference
 * says a body is "not shown", any JSON passes. Fields beyond those listed are allowed.
 */
import { GEOGRAPHIES, NARRATIVE_SOURCES, PRESSURE_LEVELS, PRESSURE_TRENDS, SIGNAL_SEVERITIES } from "./enums.js";

/** Where an answer differs from its shape: the path to the value, what belongs there, what came. */
export interface Mismatch {
  path: (string | number)[];
  expected: string;
  got: string;
}

/** Undefined when `value` has the shape; else where it does not. */
export type Guard = (value: unknown) => Mismatch | undefined;

function kindOf(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value.length <= 40 ? `the string ${JSON.stringify(value)}` : "a string";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

const miss = (expected: string, value: unknown): Mismatch => ({ path: [], expected, got: kindOf(value) });
const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

export const anything: Guard = () => undefined;
export const str: Guard = (value) => (typeof value === "string" ? undefined : miss("a string", value));
export const num: Guard = (value) => (typeof value === "number" ? undefined : miss("a number", value));
export const bool: Guard = (value) => (typeof value === "boolean" ? undefined : miss("a boolean", value));
/** Any JSON value, as long as there is one. */
export const present: Guard = (value) => (value !== undefined ? undefined : miss("a value", value));

export function oneOf(...values: readonly (string | number | boolean)[]): Guard {
  const expected = `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
  return (value) => (values.includes(value as string) ? undefined : miss(expected, value));
}

export function nullable(guard: Guard): Guard {
  return (value) => {
    if (value === null) return undefined;
    const mismatch = guard(value);
    if (mismatch && mismatch.path.length === 0) mismatch.expected += " or null";
    return mismatch;
  };
}

export function arrayOf(item: Guard): Guard {
  return (value) => {
    if (!Array.isArray(value)) return miss("an array", value);
    for (let i = 0; i < value.length; i++) {
      const mismatch = item(value[i]);
      if (mismatch) {
        mismatch.path.unshift(i);
        return mismatch;
      }
    }
    return undefined;
  };
}

/** An object with each `required` field of its guard's shape, and each `optional` one that is present. */
export function object(required: Record<string, Guard>, optional: Record<string, Guard> = {}): Guard {
  const requiredEntries = Object.entries(required);
  const optionalEntries = Object.entries(optional);
  return (value) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return miss("an object", value);
    const record = value as Record<string, unknown>;
    for (const [key, guard] of requiredEntries) {
      const mismatch = guard(hasOwn(record, key) ? record[key] : undefined);
      if (mismatch) {
        mismatch.path.unshift(key);
        return mismatch;
      }
    }
    for (const [key, guard] of optionalEntries) {
      if (!hasOwn(record, key) || record[key] === undefined) continue;
      const mismatch = guard(record[key]);
      if (mismatch) {
        mismatch.path.unshift(key);
        return mismatch;
      }
    }
    return undefined;
  };
}

/** An object whose every value is of `item`'s shape. */
export function recordOf(item: Guard): Guard {
  return (value) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return miss("an object", value);
    for (const [key, field] of Object.entries(value)) {
      const mismatch = item(field);
      if (mismatch) {
        mismatch.path.unshift(key);
        return mismatch;
      }
    }
    return undefined;
  };
}

/** `runs[3].state is the string "x" where a string belongs`, or `the answer is null where an object belongs`. */
export function describeMismatch(mismatch: Mismatch): string {
  if (!mismatch.path.length) return `the answer is ${mismatch.got === "missing" ? "empty" : mismatch.got} where ${mismatch.expected} belongs`;
  let where = "";
  for (const step of mismatch.path) where += typeof step === "number" ? `[${step}]` : where ? `.${step}` : step;
  return `\`${where}\` is ${mismatch.got} where ${mismatch.expected} belongs`;
}

// ---- the Workflows API's resources -----------------------------------------------------------

export const strings = arrayOf(str);
export const estimate = object({ costMinorUnits: num });
/** A fault as the service lists it (validation warnings, a 400's faults). */
export const fault = object({ code: str, severity: str, message: str }, { pointer: str, nodeId: nullable(str) });
const failure = object({ code: str, message: str });
export const runSummary = object({ runId: str, workflowId: str, state: str, createdAt: str }, { versionId: str, question: nullable(str), updatedAt: str, finishedAt: nullable(str) });
export const run = object(
  {
    runId: str,
    workflowId: str,
    state: str,
    usage: object({ reservedMinorUnits: num, drawnMinorUnits: num }, { releasedMinorUnits: num }),
    childRuns: arrayOf(object({ nodeId: str, state: str }, { runId: str, partId: str, failure })),
    nodes: arrayOf(object({ nodeId: str, state: str }, { kind: str, partId: str, costMinorUnits: num, output: object({}), belowFloor: bool, failure, delivered: bool })),
  },
  { versionId: str, question: nullable(str), createdAt: str, host: str, estimate },
);
export const runList = object({ runs: arrayOf(runSummary) });

// ---- the Consumer Signals API's resources ----------------------------------------------------

export const geography = oneOf(...GEOGRAPHIES);
export const datedValues = arrayOf(object({ date: str, value: num }));
export const signal = object(
  {
    id: str,
    headline: str,
    explanation: str,
    source: str,
    implication: str,
    category: str,
    severity: oneOf(...SIGNAL_SEVERITIES),
    timestamp: str,
    computedAt: str,
    tags: strings,
    geography,
    confidence: num,
    sectorImpacts: arrayOf(object({ sector: str, riskLevel: str, rationale: str })),
    timeHorizon: str,
    consecutivePeriods: num,
  },
  {
    patternConditions: arrayOf(object({ condition: str, met: bool }, { value: anything })),
    historicalContext: object({ nearestAnchor: str, similarity: num, outcome: str, lagWeeks: num, firstToBreak: str }),
  },
);
export const savedView = object({ id: str, name: str, geography, driver_ids: strings, question: str });
export const alert = object({ id: str, name: str, type: str, condition: str, active: bool, email: str, created_at: str }, { threshold: num, geography: str });
export const observations = arrayOf(object({ date: str, series_key: str, value: num }));
export const briefing = object({
  weekStart: str,
  headline: str,
  classification: str,
  score: num,
  sections: object({ summary: str, keySignals: str, historicalContext: str, implications: str, contrarianFlags: str, companyExposure: str, watchlist: str, keyDates: str }),
  companyExposure: object({ highRisk: strings, defensive: strings }),
  keyDates: arrayOf(object({ date: str, event: str, relevance: str, type: str, confirmed: bool })),
  generatedAt: str,
  narrativeSource: oneOf(...NARRATIVE_SOURCES),
  signalSynthesis: object({ note: str, convergenceFlag: str, forwardLook: str }),
  consumerOutlook: object({ stabilisation: num, moderateDeterioration: num, sharpDeterioration: num, horizon: str }),
  signalMomentum: arrayOf(object({ label: str, direction: str })),
});
export const importPressure = object({
  sectorId: str,
  geography: oneOf("UK"),
  importPressureScore: num,
  pressureLevel: oneOf(...PRESSURE_LEVELS),
  pressureTrend: oneOf(...PRESSURE_TRENDS),
  categories: arrayOf(object({ category: str, euTradeWeightedYoY: num, ukYoY: num, priceGap: num, acceleration: num, euTrend: datedValues, ukTrend: datedValues })),
  exposedCompanies: arrayOf(object({ ticker: str, name: str, exposureLevel: str, rationale: str })),
  lastUpdated: str,
});
export const cpix = object({
  summary: object({ score: num, change: num, changePercent: num, previousScore: num, timestamp: str, latestDataDate: str, computedAt: str, classification: str }),
  drivers: arrayOf(object({ id: str, name: str, unit: str, description: str, direction: str, value: num, contribution: num, trend: arrayOf(num) })),
  geography,
  lastUpdated: str,
});
/** A notification wfkit serve recorded in place of sending it (its admin surface). */
export const notification = object(
  { id: str, alertId: str, alertName: str, type: str, condition: str, geography: str, email: str, channels: arrayOf(str), detail: str, period: str, periodStart: str, periodEnd: str, consecutivePeriods: num, notifiedAt: str, sent: bool },
  { threshold: num, whatsappNumber: str, signalIds: arrayOf(str) },
);
