/**
 * What a successful answer of each endpoint must look like, in one table keyed by route
 * (`ANSWER_SHAPES`), from the two references' shapes: the fields they list, with the types
 * they give. The transport (`http.ts`) checks every 2xx answer against its route's shape
 * before a client returns it, so code that reads an answer (the CLI's rendering) meets only
 * the types `api-types.ts` promises, or a `bad_answer` error naming the endpoint.
 *
 * Hand-written guards, not a schema compiler: a few hundred bytes in a browser bundle. Each
 * guard walks only as deep as its shape (never into open values such as a node's `output`),
 * and walks arrays with a loop, so 200,000 runs cost a loop, not a stack. Where a reference
 * says a body is "not shown", any JSON passes. Fields beyond those listed are allowed.
 */

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

// ---- the Workflows API --------------------------------------------------------------------

const strings = arrayOf(str);
const estimate = object({ costMinorUnits: num });
/** A fault as the service lists it (validation warnings, a 400's faults). */
export const fault = object({ code: str, severity: str, message: str }, { pointer: str, nodeId: nullable(str) });
const failure = object({ code: str, message: str });
const runSummary = object({ runId: str, workflowId: str, state: str, createdAt: str }, { versionId: str, question: nullable(str), updatedAt: str, finishedAt: nullable(str) });
const run = object(
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

export const WORKFLOWS_SHAPES = {
  "GET /api/v1/workflows/catalogue/parts": object({ parts: arrayOf(object({ requires: strings, produces: strings })) }, { catalogueVersion: num }),
  "POST /api/v1/workflows/catalogue/resolve-subjects": object({
    subjects: arrayOf(object({ canonicalId: str, kind: str, label: str, identifiers: arrayOf(anything) })),
    unresolved: arrayOf(object({ hint: str, reason: str }, { candidates: arrayOf(object({ canonicalId: str, label: str, ticker: str })) })),
  }),
  "POST /api/v1/workflows/catalogue/validate-definition": object({ ok: oneOf(true), estimate }, { definition: present, warnings: arrayOf(fault) }),
  "GET /api/v1/workflows/templates": arrayOf(object({ id: str, name: str, definition: object({}) }, { description: str })),
  "POST /api/v1/workflows": object({ workflow: object({ id: str }, { name: str }) }),
  "POST /api/v1/workflows/{wf}/versions": object({ version: object({ id: str }, { estimate }) }),
  /** Not shown in the reference. */
  "POST /api/v1/workflows/{wf}/versions/{version}/publish": anything,
  "POST /api/v1/workflows/{wf}/run": object({ ok: oneOf(true), runId: str, host: str, estimate }),
  "GET /api/v1/workflows/{wf}/runs/{run}": run,
  "GET /api/v1/workflows/{wf}/runs": object({ runs: arrayOf(runSummary) }),
  "GET /api/v1/workflows/runs": object({ runs: arrayOf(runSummary) }),
  /** Not shown in the reference: the local service's `{ok, run}`, which wfkit reads. */
  "POST /api/v1/workflows/{wf}/runs/{run}/deliver": object({ run }),
  "POST /api/v1/workflows/{wf}/runs/{run}/cancel": object({ run }),
} satisfies Record<string, Guard>;

export type WorkflowsRoute = keyof typeof WORKFLOWS_SHAPES;

// ---- the Consumer Signals API -------------------------------------------------------------

const geography = oneOf("US", "UK");
const datedValues = arrayOf(object({ date: str, value: num }));
const signal = object(
  {
    id: str,
    headline: str,
    explanation: str,
    source: str,
    implication: str,
    category: str,
    severity: oneOf("high", "medium", "low"),
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
const savedView = object({ id: str, name: str, geography, driver_ids: strings, question: str });
const alert = object({ id: str, name: str, type: str, condition: str, active: bool, email: str, created_at: str }, { threshold: num, geography: str });
const observations = arrayOf(object({ date: str, series_key: str, value: num }));

export const SIGNALS_SHAPES = {
  "GET /api/signals": object({ signals: arrayOf(signal), count: num, lastUpdated: str }),
  "GET /api/cpix": object({
    summary: object({ score: num, change: num, changePercent: num, previousScore: num, timestamp: str, latestDataDate: str, computedAt: str, classification: str }),
    drivers: arrayOf(object({ id: str, name: str, unit: str, description: str, direction: str, value: num, contribution: num, trend: arrayOf(num) })),
    geography,
    lastUpdated: str,
  }),
  "GET /api/history": object({ history: datedValues, count: num, from: str, to: str, lastUpdated: str }),
  "GET /api/signals/accuracy": object({ accuracy: arrayOf(object({ signalType: str, rate: num, partialRate: num, sampleSize: num, period: str })), count: num }),
  "GET /api/briefing/latest": object({
    weekStart: str,
    headline: str,
    classification: str,
    score: num,
    sections: object({ summary: str, keySignals: str, historicalContext: str, implications: str, contrarianFlags: str, companyExposure: str, watchlist: str, keyDates: str }),
    companyExposure: object({ highRisk: strings, defensive: strings }),
    keyDates: arrayOf(object({ date: str, event: str, relevance: str, type: str, confirmed: bool })),
    generatedAt: str,
    narrativeSource: oneOf("ai", "rule-based", "ai+search"),
    signalSynthesis: object({ note: str, convergenceFlag: str, forwardLook: str }),
    consumerOutlook: object({ stabilisation: num, moderateDeterioration: num, sharpDeterioration: num, horizon: str }),
    signalMomentum: arrayOf(object({ label: str, direction: str })),
  }),
  "GET /api/sectors/{sectorId}/import-pressure": object({
    sectorId: str,
    geography: oneOf("UK"),
    importPressureScore: num,
    pressureLevel: oneOf("low", "moderate", "elevated", "high"),
    pressureTrend: oneOf("easing", "stable", "building"),
    categories: arrayOf(object({ category: str, euTradeWeightedYoY: num, ukYoY: num, priceGap: num, acceleration: num, euTrend: datedValues, ukTrend: datedValues })),
    exposedCompanies: arrayOf(object({ ticker: str, name: str, exposureLevel: str, rationale: str })),
    lastUpdated: str,
  }),
  "GET /api/census-marts": object({
    geography: oneOf("US"),
    series: arrayOf(object({ month: str, totalRetailSales: num, yoyChange: num, momChange: num, categories: recordOf(num) })),
    lastUpdated: str,
  }),
  "GET /api/housing": object({ housing: observations }),
  "GET /api/macro": object({ macro: observations }),
  "POST /api/alerts": alert,
  /** Its answer is not shown in the reference. */
  "GET /api/alerts": anything,
  "GET /api/views": arrayOf(savedView),
  "POST /api/views": savedView,
  /** `204` with no content; whatever comes is not read. */
  "DELETE /api/views/{id}": anything,
  /** The AI endpoints' answers are not shown in the reference. */
  "POST /api/investigate": anything,
  "POST /api/analyze": anything,
} satisfies Record<string, Guard>;

export type SignalsRoute = keyof typeof SIGNALS_SHAPES;
