/**
 * A Consumer Signals API for tests, over loopback HTTP (Hono on @hono/node-server): every
 * endpoint of the reference with small fixed data, its two credentials, and the AI
 * endpoints' shared limit with the reference's exact 429 (headers and body), counted in
 * fixed windows on an injected clock. Every request is logged with its arrival time, so a
 * test can check what was sent, with which credential, and when.
 */
import { serve, type ServerType } from "@hono/node-server";
import { Hono, type Context } from "hono";
import type { AddressInfo } from "node:net";

export interface SignalsServerOptions {
  jwt: string;
  alertToken: string;
  /** The clock the limiter counts on (ms). */
  now: () => number;
  /** The AI limit (default 10 per 60 s). */
  limit?: { requests: number; windowMs: number };
  /** The path the API is served under (default `/cs`): the client's base URL ends with it. */
  basePath?: string;
  /** Answer every GET of these paths with this status first, this many times (to test retries). */
  failReads?: { path: string; status: number; times: number };
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  alertToken: string | undefined;
  body: unknown;
  at: number;
  status: number;
  /** The 429's Retry-After, seconds. */
  retryAfter?: number;
}

export interface SignalsServer {
  baseUrl: string;
  log: LoggedRequest[];
  /** Arrivals at the AI endpoints, in order. */
  aiLog(): LoggedRequest[];
  /** Uses up the current window of a user (another process's burst). */
  exhaust(jwt: string): void;
  close(): Promise<void>;
}

const SIGNALS = [
  { id: "sig_energy", headline: "Energy prices climbing", category: "energy", severity: "high", geography: "US" },
  { id: "sig_rent", headline: "Rents firming", category: "housing", severity: "medium", geography: "US" },
  { id: "sig_wages", headline: "Wage growth cooling", category: "labour", severity: "low", geography: "US" },
  { id: "sig_food_uk", headline: "Food import costs rising", category: "food", severity: "high", geography: "UK" },
].map((signal) => ({
  explanation: "Sample explanation.",
  source: "sample",
  implication: "Sample implication.",
  timestamp: "2025-01-06T08:00:00Z",
  computedAt: "2025-01-06T08:00:00Z",
  tags: [signal.category],
  confidence: 0.8,
  sectorImpacts: [{ sector: "retail", riskLevel: "elevated", rationale: "Sample." }],
  timeHorizon: "3 months",
  consecutivePeriods: 2,
  ...signal,
}));

export const SAMPLE_DRIVERS = [
  { id: "energy", name: "Energy", unit: "index", description: "Energy prices", direction: "up", value: 61.2, contribution: 0.31, trend: [52, 54, 55, 58, 61.2] },
  { id: "shelter", name: "Shelter", unit: "index", description: "Rents", direction: "flat", value: 48.9, contribution: 0.12, trend: [49, 49.2, 48.7, 49.1, 48.9] },
];

export const SAMPLE_BRIEFING = {
  weekStart: "2025-01-06",
  headline: "Pressure builds in energy",
  classification: "moderate_deterioration",
  score: 58,
  sections: {
    summary: "Energy leads a broad rise.",
    keySignals: "Energy, rents.",
    historicalContext: "Like early 2022.",
    implications: "Margins tighten.",
    contrarianFlags: "Wages cooling.",
    companyExposure: "Grocers exposed.",
    watchlist: "Gas futures.",
    keyDates: "CPI on the 15th.",
  },
  companyExposure: { highRisk: ["TSCO"], defensive: ["ULVR"] },
  keyDates: [{ date: "2025-01-15", event: "CPI release", relevance: "high", type: "data", confirmed: true }],
  generatedAt: "2025-01-06T06:00:00Z",
  narrativeSource: "rule-based",
  signalSynthesis: { note: "Converging.", convergenceFlag: "converging", forwardLook: "Rising." },
  consumerOutlook: { stabilisation: 0.3, moderateDeterioration: 0.5, sharpDeterioration: 0.2, horizon: "3 months" },
  signalMomentum: [{ label: "energy", direction: "up" }],
};

/** Weekly points from `from` to `to`: a deterministic wave around 50. */
export function sampleHistory(from: string, to: string): { date: string; value: number }[] {
  const points: { date: string; value: number }[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`), i = 0; t <= end && i < 2000; t += 7 * 86_400_000, i++)
    points.push({ date: new Date(t).toISOString().slice(0, 10), value: Math.round((50 + 10 * Math.sin(i / 6) + i / 20) * 10) / 10 });
  return points;
}

export async function startSignalsServer(options: SignalsServerOptions): Promise<SignalsServer> {
  const limit = options.limit ?? { requests: 10, windowMs: 60_000 };
  const log: LoggedRequest[] = [];
  const windows = new Map<string, { start: number; count: number }>();
  const views = new Map<string, { id: string; name: string; geography: string; driver_ids: string[]; question: string }>();
  let failuresLeft = options.failReads?.times ?? 0;
  let nextId = 1;

  const basePath = options.basePath ?? "/cs";
  const app = new Hono<{ Variables: { entry: LoggedRequest } }>().basePath(basePath);
  type C = Context<{ Variables: { entry: LoggedRequest } }>;
  const bodyOf = (c: C) => c.get("entry").body as Record<string, unknown>;
  const dataAuth = (c: C) => c.req.header("Authorization") === `Bearer ${options.jwt}`;
  const alertAuth = (c: C) => c.req.header("X-Alert-Token") === options.alertToken;
  const unauthenticated = (c: C) => c.json({ error: "unauthenticated", message: "Missing or invalid credential." }, 401);

  app.use("*", async (c, next) => {
    const text = c.req.method === "POST" ? await c.req.text() : "";
    const entry: LoggedRequest = {
      method: c.req.method,
      path: new URL(c.req.url).pathname.slice(basePath.length),
      query: c.req.query(),
      authorization: c.req.header("Authorization"),
      alertToken: c.req.header("X-Alert-Token"),
      body: text ? JSON.parse(text) : undefined,
      at: options.now(),
      status: 0,
    };
    log.push(entry);
    c.set("entry", entry);
    if (options.failReads && c.req.method === "GET" && entry.path === options.failReads.path && failuresLeft > 0) {
      failuresLeft--;
      entry.status = options.failReads.status;
      return c.json({ error: "unavailable" }, options.failReads.status as 503);
    }
    await next();
    entry.status = c.res.status;
    const retryAfter = c.res.headers.get("Retry-After");
    if (retryAfter !== null) entry.retryAfter = Number(retryAfter);
  });

  // ---- data ----
  app.get("/api/signals", (c) => {
    if (!dataAuth(c)) return unauthenticated(c);
    const { geography = "US", severity, category } = c.req.query();
    const signals = SIGNALS.filter((s) => s.geography === geography && (!severity || s.severity === severity) && (!category || s.category === category));
    return c.json({ signals, count: signals.length, lastUpdated: "2025-01-06T08:00:00Z" });
  });
  app.get("/api/cpix", (c) => {
    if (!dataAuth(c)) return unauthenticated(c);
    const summary = { score: 57.4, change: 1.2, changePercent: 2.1, previousScore: 56.2, timestamp: "2025-01-06T08:00:00Z", latestDataDate: "2025-01-03", computedAt: "2025-01-06T08:00:00Z", classification: "rising_pressure" };
    return c.json({ summary, drivers: SAMPLE_DRIVERS, geography: c.req.query("geography") ?? "US", lastUpdated: "2025-01-06T08:00:00Z" });
  });
  app.get("/api/history", (c) => {
    if (!dataAuth(c)) return unauthenticated(c);
    const from = c.req.query("from") ?? "2020-01-01";
    const to = c.req.query("to") ?? new Date(options.now()).toISOString().slice(0, 10);
    const history = sampleHistory(from, to);
    return c.json({ history, count: history.length, from, to, lastUpdated: "2025-01-06T08:00:00Z" });
  });
  app.get("/api/signals/accuracy", (c) => {
    if (!dataAuth(c)) return unauthenticated(c);
    return c.json({ accuracy: [{ signalType: "energy", rate: 0.7, partialRate: 0.2, sampleSize: 40, period: "2023-01-01/2024-12-31" }], count: 1 });
  });
  app.get("/api/briefing/latest", (c) => {
    if (!dataAuth(c)) return unauthenticated(c);
    if (!c.req.query("geography")) return c.json({ error: "geography is required" }, 400);
    return c.json(SAMPLE_BRIEFING);
  });
  app.get("/api/sectors/:sectorId/import-pressure", (c) => {
    if (!dataAuth(c)) return unauthenticated(c);
    if (c.req.query("geography") !== "UK") return c.json({ error: "import pressure is available for UK only" }, 400);
    if (c.req.param("sectorId") !== "grocery") return c.json({ error: "no such sector" }, 404);
    return c.json({ sectorId: "grocery", geography: "UK", importPressureScore: 64, pressureLevel: "elevated", pressureTrend: "building", categories: [], exposedCompanies: [], lastUpdated: "2025-01-06T08:00:00Z" });
  });
  app.get("/api/census-marts", (c) => {
    if (!dataAuth(c)) return unauthenticated(c);
    return c.json({ geography: "US", series: [{ month: "2024-12", totalRetailSales: 720_000, yoyChange: 3.1, momChange: 0.4, categories: { grocery: 80_000 } }], lastUpdated: "2025-01-06T08:00:00Z" });
  });
  app.get("/api/housing", (c) => (dataAuth(c) ? c.json({ housing: [{ date: "2024-12-01", series_key: "house_prices", value: 101.2 }] }) : unauthenticated(c)));
  app.get("/api/macro", (c) => (dataAuth(c) ? c.json({ macro: [{ date: "2024-12-01", series_key: "uk_sentiment", value: -18 }] }) : unauthenticated(c)));

  // ---- alerts and views ----
  app.post("/api/alerts", async (c) => {
    if (!alertAuth(c)) return unauthenticated(c);
    return c.json({ id: `alert_${nextId++}`, active: true, created_at: new Date(options.now()).toISOString(), threshold: null, geography: "US", ...bodyOf(c) }, 201);
  });
  app.get("/api/alerts", (c) => (alertAuth(c) ? c.json({ alerts: [] }) : unauthenticated(c)));
  app.get("/api/views", (c) => (alertAuth(c) ? c.json([...views.values()]) : unauthenticated(c)));
  app.post("/api/views", async (c) => {
    if (!alertAuth(c)) return unauthenticated(c);
    const view = { id: `view_${nextId++}`, ...(bodyOf(c) as { name: string; geography: string; driver_ids: string[]; question: string }) };
    views.set(view.id, view);
    return c.json(view, 201);
  });
  app.delete("/api/views/:id", (c) => {
    if (!alertAuth(c)) return unauthenticated(c);
    if (!views.delete(c.req.param("id"))) return c.json({ error: "not_found", message: `No saved view ${c.req.param("id")}.` }, 404);
    return c.body(null, 204);
  });

  // ---- AI, one shared limit per user ----
  const ai = (stream: boolean) => (c: C) => {
    const user = c.req.header("Authorization");
    if (user !== `Bearer ${options.jwt}` && !user?.startsWith("Bearer other-")) return unauthenticated(c);
    const now = options.now();
    let window = windows.get(user);
    if (!window || now >= window.start + limit.windowMs) windows.set(user, (window = { start: now, count: 0 }));
    const reset = window.start + limit.windowMs;
    c.header("X-RateLimit-Limit", String(limit.requests));
    c.header("X-RateLimit-Reset", String(Math.ceil(reset / 1000)));
    if (window.count >= limit.requests) {
      const seconds = Math.ceil((reset - now) / 1000);
      c.header("Retry-After", String(seconds));
      c.header("X-RateLimit-Remaining", "0");
      return c.json({ ok: false, error: `Rate limit exceeded. Try again in ${seconds} seconds.` }, 429);
    }
    window.count++;
    c.header("X-RateLimit-Remaining", String(limit.requests - window.count));
    const body = bodyOf(c);
    if (stream) return c.body(`data: ${JSON.stringify({ echo: body })}\n\n`, 200, { "Content-Type": "text/event-stream" });
    return c.json({ ok: true, echo: body });
  };
  app.post("/api/investigate", ai(false));
  app.post("/api/analyze", ai(false));
  app.post("/api/investigate/stream", ai(true));

  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    log,
    aiLog: () => log.filter((entry) => entry.path.startsWith("/api/investigate") || entry.path === "/api/analyze"),
    exhaust: (jwt) => windows.set(`Bearer ${jwt}`, { start: options.now(), count: limit.requests }),
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
