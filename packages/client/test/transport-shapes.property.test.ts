/**
 * Every successful answer is checked against its endpoint's shape, for every endpoint of both
 * APIs: the smallest answer the references allow is taken; every field of it, made the wrong
 * type, null, or left out, is a `bad_answer` (WorkflowsProtocolError/SignalsProtocolError)
 * naming the endpoint and the field; so are `null`, an empty body, text that is not JSON,
 * and an array where an object belongs; arbitrary JSON never gets past the check into a
 * caller as anything else, nor fails as anything but a bad answer; and 200,000 runs are
 * checked with a loop, to the last one. Where a reference does not show a body, any passes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SIGNALS_SHAPES, WORKFLOWS_SHAPES } from "../src/answer-shapes.js";
import { BadAnswerError, SignalsClient, SignalsProtocolError, WorkflowsApiError, WorkflowsClient, WorkflowsProtocolError, type FetchLike } from "../src/index.js";
import { numRuns } from "../../../test/support/num-runs.js";

const BASE = "http://service.test";
const NO_RETRY = { maxAttempts: 1 };

/** A client whose every request is answered `status` with `text`. */
function answering(text: string, status = 200): FetchLike {
  return async () => new Response(status === 204 ? null : text, { status, headers: { "Content-Type": "application/json" } });
}
const workflows = (fetch: FetchLike) => new WorkflowsClient({ baseUrl: BASE, credential: "secret", fetch, retry: NO_RETRY });
const signals = (fetch: FetchLike) => new SignalsClient({ baseUrl: BASE, jwt: "jwt", alertToken: "token", fetch, retry: NO_RETRY, aiLimit: false });

const usage = { reservedMinorUnits: 10, drawnMinorUnits: 5 };
const RUN = { runId: "run_1", workflowId: "wf_1", state: "held", usage, childRuns: [{ nodeId: "compare", state: "succeeded" }], nodes: [{ nodeId: "compare", state: "held" }] };
const SIGNAL = {
  id: "sig_1",
  headline: "h",
  explanation: "e",
  source: "s",
  implication: "i",
  category: "energy",
  severity: "high",
  timestamp: "t",
  computedAt: "t",
  tags: ["energy"],
  geography: "US",
  confidence: 0.8,
  sectorImpacts: [{ sector: "retail", riskLevel: "elevated", rationale: "r" }],
  timeHorizon: "3 months",
  consecutivePeriods: 2,
};
const VIEW = { id: "view_1", name: "Energy", geography: "US", driver_ids: ["energy"], question: "q" };
const BRIEFING = {
  weekStart: "2025-01-06",
  headline: "h",
  classification: "stabilisation",
  score: 50,
  sections: { summary: "s", keySignals: "k", historicalContext: "h", implications: "i", contrarianFlags: "c", companyExposure: "e", watchlist: "w", keyDates: "d" },
  companyExposure: { highRisk: ["TSCO"], defensive: ["SBRY"] },
  keyDates: [{ date: "2025-01-10", event: "CPI", relevance: "high", type: "data", confirmed: true }],
  generatedAt: "t",
  narrativeSource: "ai",
  signalSynthesis: { note: "n", convergenceFlag: "c", forwardLook: "f" },
  consumerOutlook: { stabilisation: 0.5, moderateDeterioration: 0.3, sharpDeterioration: 0.2, horizon: "3 months" },
  signalMomentum: [{ label: "energy", direction: "up" }],
};

type Send = (fetch: FetchLike) => Promise<unknown>;

/**
 * Each route: how a client calls it, and the smallest answer its reference allows (every
 * field required; open values empty). `undefined` for a route whose answer is not shown.
 */
const ROUTES: Record<string, { send: Send; minimal: unknown; /** Fields that may be left out (a map's entries). */ removable?: string[] }> = {
  "GET /api/v1/workflows/catalogue/parts": { send: (f) => workflows(f).parts(), minimal: { parts: [{ requires: ["a"], produces: ["b"] }] } },
  "POST /api/v1/workflows/catalogue/resolve-subjects": {
    send: (f) => workflows(f).resolveSubjects(["TSCO"]),
    minimal: { subjects: [{ canonicalId: "cmp_tesco", kind: "company", label: "Tesco", identifiers: [] }], unresolved: [{ hint: "x", reason: "ambiguous" }] },
  },
  "POST /api/v1/workflows/catalogue/validate-definition": { send: (f) => workflows(f).validateDefinition({}), minimal: { ok: true, estimate: { costMinorUnits: 1 } } },
  "GET /api/v1/workflows/templates": { send: (f) => workflows(f).templates(), minimal: [{ id: "t", name: "T", definition: {} }] },
  "POST /api/v1/workflows": { send: (f) => workflows(f).createWorkflow("w"), minimal: { workflow: { id: "wf_1" } } },
  "POST /api/v1/workflows/{wf}/versions": { send: (f) => workflows(f).saveVersion("wf_1", { scope: { graph: {} } }), minimal: { version: { id: "ver_1" } } },
  "POST /api/v1/workflows/{wf}/versions/{version}/publish": { send: (f) => workflows(f).publish("wf_1", "ver_1"), minimal: undefined },
  "POST /api/v1/workflows/{wf}/run": { send: (f) => workflows(f).startRun("wf_1"), minimal: { ok: true, runId: "run_1", host: "workflow_run", estimate: { costMinorUnits: 1 } } },
  "GET /api/v1/workflows/{wf}/runs/{run}": { send: (f) => workflows(f).run("wf_1", "run_1"), minimal: RUN },
  "GET /api/v1/workflows/{wf}/runs": { send: (f) => workflows(f).workflowRuns("wf_1"), minimal: { runs: [{ runId: "r", workflowId: "w", state: "queued", createdAt: "t" }] } },
  "GET /api/v1/workflows/runs": { send: (f) => workflows(f).runs(), minimal: { runs: [{ runId: "r", workflowId: "w", state: "queued", createdAt: "t" }] } },
  "POST /api/v1/workflows/{wf}/runs/{run}/deliver": { send: (f) => workflows(f).deliver("wf_1", "run_1"), minimal: { run: RUN } },
  "POST /api/v1/workflows/{wf}/runs/{run}/cancel": { send: (f) => workflows(f).cancel("wf_1", "run_1"), minimal: { run: RUN } },

  "GET /api/signals": { send: (f) => signals(f).signals(), minimal: { signals: [SIGNAL], count: 1, lastUpdated: "t" } },
  "GET /api/cpix": {
    send: (f) => signals(f).cpix(),
    minimal: {
      summary: { score: 1, change: 1, changePercent: 1, previousScore: 1, timestamp: "t", latestDataDate: "d", computedAt: "c", classification: "rising_pressure" },
      drivers: [{ id: "energy", name: "Energy", unit: "index", description: "d", direction: "up", value: 1, contribution: 0.1, trend: [1] }],
      geography: "US",
      lastUpdated: "t",
    },
  },
  "GET /api/history": { send: (f) => signals(f).history(), minimal: { history: [{ date: "2025-01-01", value: 1 }], count: 1, from: "f", to: "t", lastUpdated: "u" } },
  "GET /api/signals/accuracy": { send: (f) => signals(f).accuracy(), minimal: { accuracy: [{ signalType: "s", rate: 0.5, partialRate: 0.2, sampleSize: 10, period: "p" }], count: 1 } },
  "GET /api/briefing/latest": { send: (f) => signals(f).briefing(), minimal: BRIEFING },
  "GET /api/sectors/{sectorId}/import-pressure": {
    send: (f) => signals(f).importPressure("grocery"),
    minimal: {
      sectorId: "grocery",
      geography: "UK",
      importPressureScore: 50,
      pressureLevel: "moderate",
      pressureTrend: "stable",
      categories: [{ category: "c", euTradeWeightedYoY: 1, ukYoY: 1, priceGap: 0, acceleration: 0, euTrend: [{ date: "d", value: 1 }], ukTrend: [{ date: "d", value: 1 }] }],
      exposedCompanies: [{ ticker: "TSCO", name: "Tesco", exposureLevel: "high", rationale: "r" }],
      lastUpdated: "t",
    },
  },
  "GET /api/census-marts": {
    send: (f) => signals(f).census(),
    minimal: { geography: "US", series: [{ month: "2025-01", totalRetailSales: 1, yoyChange: 1, momChange: 1, categories: { food: 1 } }], lastUpdated: "t" },
    removable: ["series[0].categories.food"],
  },
  "GET /api/housing": { send: (f) => signals(f).housing(), minimal: { housing: [{ date: "d", series_key: "k", value: 1 }] } },
  "GET /api/macro": { send: (f) => signals(f).macro(), minimal: { macro: [{ date: "d", series_key: "k", value: 1 }] } },
  "POST /api/alerts": {
    send: (f) => signals(f).createAlert({ name: "a", type: "cpix_threshold", condition: "above", threshold: 60, email: "a@example.com" }),
    minimal: { id: "alert_1", name: "a", type: "cpix_threshold", condition: "above", active: true, email: "a@example.com", created_at: "t" },
  },
  "GET /api/alerts": { send: (f) => signals(f).alerts(), minimal: undefined },
  "GET /api/views": { send: (f) => signals(f).views(), minimal: [VIEW] },
  "POST /api/views": { send: (f) => signals(f).createView({ name: "Energy", geography: "US", driver_ids: ["energy"], question: "q" }), minimal: VIEW },
  "DELETE /api/views/{id}": { send: (f) => signals(f).deleteView("view_1"), minimal: undefined },
  "POST /api/investigate": { send: (f) => signals(f).investigate({}), minimal: undefined },
  "POST /api/analyze": { send: (f) => signals(f).analyze({}), minimal: undefined },
};

const CHECKED = Object.entries(ROUTES).filter(([, route]) => route.minimal !== undefined) as [string, { send: Send; minimal: unknown; removable?: string[] }][];

async function outcome(promise: Promise<unknown>): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

async function badAnswer(send: Send, text: string, route: string): Promise<BadAnswerError> {
  const result = await outcome(send(answering(text)));
  expect(result.ok, `${route} took ${text.slice(0, 80)}`).toBe(false);
  const error = (result as { error: unknown }).error;
  expect(error, route).toBeInstanceOf(route.includes("/api/v1/") ? WorkflowsProtocolError : SignalsProtocolError);
  return error as BadAnswerError;
}

/** Every path to a value in `value`: each key of an object, the first item of an array. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  if (Array.isArray(value)) {
    if (value.length) out.push([...at, 0], ...paths(value[0], [...at, 0]));
  } else if (value !== null && typeof value === "object") {
    for (const [key, field] of Object.entries(value)) out.push([...at, key], ...paths(field, [...at, key]));
  }
  return out;
}

/** `value` with the value at `path` replaced (or removed, for `undefined`). */
function changed(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (replacement === undefined) delete parent[last];
  else parent[last] = replacement;
  return copy;
}

/** A value of another JSON type than `value`'s. */
function wrongType(value: unknown): unknown {
  if (typeof value === "string") return 42;
  if (typeof value === "number") return "1";
  if (typeof value === "boolean") return "true";
  if (Array.isArray(value)) return {};
  return [];
}

const where = (path: (string | number)[]) => path.reduce<string>((text, step) => (typeof step === "number" ? `${text}[${step}]` : text ? `${text}.${step}` : step), "");

describe("the table covers every endpoint", () => {
  it("each route of both clients is in ANSWER_SHAPES and called here", () => {
    expect(Object.keys(ROUTES).sort()).toEqual([...Object.keys(WORKFLOWS_SHAPES), ...Object.keys(SIGNALS_SHAPES)].sort());
  });
});

describe("the smallest answer each reference allows is taken", () => {
  for (const [route, { send, minimal }] of CHECKED)
    it(route, async () => {
      const result = await outcome(send(answering(JSON.stringify(minimal))));
      expect(result, route).toMatchObject({ ok: true });
    });
});

describe("hostile 200 answers are a bad answer naming the endpoint", () => {
  for (const [route, { send, minimal }] of CHECKED)
    it(route, async () => {
      const bodies: [string, string][] = [
        ["null", "the answer is null where"],
        ["", "the answer is empty where"],
        ["   ", "the answer is empty where"],
        [Array.isArray(minimal) ? "{}" : "[]", Array.isArray(minimal) ? "the answer is an object where an array belongs" : "the answer is an array where an object belongs"],
        ['"text"', 'the answer is the string "text" where'],
        ["42", "the answer is a number where"],
      ];
      for (const [text, says] of bodies) {
        const error = await badAnswer(send, text, route);
        expect(error.message).toContain(says);
        expect(error.message).toContain(`(not the shape the reference gives ${route})`);
        expect(error).toMatchObject({ kind: "bad_answer", reason: "shape", retryable: false });
      }
      const html = await badAnswer(send, "<html>a proxy's page</html>", route);
      expect(html).toMatchObject({ reason: "not_json" });
      expect(html.message).toMatch(/answered 200 with a body that is not JSON; is http:\/\/service\.test the (Workflows|Consumer Signals) API\?$/);
    });
});

describe("every field of the smallest answer: of the wrong type, null, or left out", () => {
  for (const [route, { send, minimal, removable = [] }] of CHECKED)
    it(route, async () => {
      const all = paths(minimal);
      expect(all.length).toBeGreaterThan(0);
      for (const path of all) {
        const original = path.reduce<unknown>((value, step) => (value as Record<string | number, unknown>)[step], minimal);
        // An item of an array cannot be left out in JSON (it would be null): only fields are.
        const replacements = typeof path[path.length - 1] === "number" || removable.includes(where(path)) ? [wrongType(original), null] : [wrongType(original), null, undefined];
        for (const replacement of replacements) {
          const error = await badAnswer(send, JSON.stringify(changed(minimal, path, replacement)), route);
          // The path named reaches the field changed, or stops above it (a null item of an array).
          expect(error.message, `${route} ${where(path)} := ${JSON.stringify(replacement)}`).toContain(`\`${where(path)}`);
          expect(error.message).toContain(replacement === undefined ? "is missing where" : replacement === null ? "is null where" : "where");
        }
      }
    });
});

describe("arbitrary JSON", () => {
  it("is taken, or refused as a bad answer; nothing else ever comes out (every route)", async () => {
    for (const [route, { send }] of Object.entries(ROUTES))
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
          const result = await outcome(send(answering(JSON.stringify(value) ?? "")));
          if (!result.ok) expect(result.error, route).toBeInstanceOf(BadAnswerError);
        }),
        { numRuns: numRuns(40) },
      );
  });

  it("mutations of a valid answer deep inside: taken or a bad answer, never a crash", async () => {
    for (const [route, { send, minimal }] of CHECKED) {
      const all = paths(minimal);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...all), fc.jsonValue({ maxDepth: 2 }), async (path, replacement) => {
          const result = await outcome(send(answering(JSON.stringify(changed(minimal, path, replacement)))));
          if (!result.ok) expect(result.error, route).toBeInstanceOf(BadAnswerError);
        }),
        { numRuns: numRuns(30) },
      );
    }
  });
});

describe("large lists", () => {
  const runs = (n: number) => Array.from({ length: n }, (_, i) => ({ runId: `r${i}`, workflowId: "w", state: "succeeded", createdAt: "t" }));

  it("200,000 runs are checked to the last, with a loop", async () => {
    const many = runs(200_000);
    const started = Date.now();
    expect((await workflows(answering(JSON.stringify({ runs: many }))).runs()).runs).toHaveLength(200_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    (many[199_999] as Record<string, unknown>).state = 7;
    const error = await badAnswer((f) => workflows(f).runs(), JSON.stringify({ runs: many }), "GET /api/v1/workflows/runs");
    expect(error.message).toContain("`runs[199999].state` is a number where a string belongs");
  });
});

describe("refusals", () => {
  it("a 400's faults keep only entries of a fault's shape", async () => {
    const fault = { code: "part-unknown", severity: "error", message: "m", pointer: "/nodes/0", nodeId: "report" };
    const body = { error: "validation_failed", message: "invalid", faults: [null, 1, "x", [], { code: "x" }, { ...fault, severity: 3 }, fault] };
    const error = await outcome(workflows(answering(JSON.stringify(body), 400)).validateDefinition({}));
    expect((error as { error: unknown }).error).toBeInstanceOf(WorkflowsApiError);
    expect(((error as { error: WorkflowsApiError }).error.faults)).toEqual([fault]);
  });

  it("a refusal whose body is not an object is still its status's refusal", async () => {
    for (const text of ["null", "[]", '"x"', "", "<html>"]) {
      const error = (await outcome(workflows(answering(text, 403)).runs())) as { error: WorkflowsApiError };
      expect(error.error).toBeInstanceOf(WorkflowsApiError);
      expect(error.error).toMatchObject({ status: 403, code: "http_403" });
    }
  });
});
