/**
 * The Consumer Signals API of `wfkit serve`, over HTTP on loopback: every data endpoint's
 * answer held to the reference's fields (written out here from the reference, not from the
 * code), the sample-data mark, parameters, the two credentials, tiers, alerts and saved views
 * in the database across a restart, and the refusals' shape.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Clock, DEFAULT_SEED, SIGNALS_ROUTES, type Seed } from "../src/index.js";
import { signalsServer, type SignalsServer } from "./signals-server.js";
import { numRuns } from "../../../test/support/num-runs.js";

// ---- the reference's shapes (section 2 and the endpoint table) ------------------------------

type Spec = "string" | "number" | "boolean" | "any" | readonly [Spec] | { readonly [field: string]: Spec };
const point = { date: "string", value: "number" } as const;
const SIGNAL = {
  id: "string",
  headline: "string",
  explanation: "string",
  source: "string",
  implication: "string",
  category: "string",
  severity: "string",
  timestamp: "string",
  computedAt: "string",
  tags: ["string"],
  geography: "string",
  confidence: "number",
  sectorImpacts: [{ sector: "string", riskLevel: "string", rationale: "string" }],
  timeHorizon: "string",
  consecutivePeriods: "number",
} as const;
const SIGNAL_DETAIL = {
  ...SIGNAL,
  patternConditions: [{ condition: "string", value: "any", met: "boolean" }],
  historicalContext: { nearestAnchor: "string", similarity: "number", outcome: "string", lagWeeks: "number", firstToBreak: "string" },
} as const;
const CPIX = {
  summary: { score: "number", change: "number", changePercent: "number", previousScore: "number", timestamp: "string", latestDataDate: "string", computedAt: "string", classification: "string" },
  drivers: [{ id: "string", name: "string", unit: "string", description: "string", direction: "string", value: "number", contribution: "number", trend: ["number"] }],
  geography: "string",
  lastUpdated: "string",
} as const;
const HISTORY = { history: [point], count: "number", from: "string", to: "string", lastUpdated: "string" } as const;
const ACCURACY = { accuracy: [{ signalType: "string", rate: "number", partialRate: "number", sampleSize: "number", period: "string" }], count: "number" } as const;
const BRIEFING = {
  weekStart: "string",
  headline: "string",
  classification: "string",
  score: "number",
  sections: { summary: "string", keySignals: "string", historicalContext: "string", implications: "string", contrarianFlags: "string", companyExposure: "string", watchlist: "string", keyDates: "string" },
  companyExposure: { highRisk: ["string"], defensive: ["string"] },
  keyDates: [{ date: "string", event: "string", relevance: "string", type: "string", confirmed: "boolean" }],
  generatedAt: "string",
  narrativeSource: "string",
  signalSynthesis: { note: "string", convergenceFlag: "string", forwardLook: "string" },
  consumerOutlook: { stabilisation: "number", moderateDeterioration: "number", sharpDeterioration: "number", horizon: "string" },
  signalMomentum: [{ label: "string", direction: "string" }],
} as const;
const IMPORT_PRESSURE = {
  sectorId: "string",
  geography: "string",
  importPressureScore: "number",
  pressureLevel: "string",
  pressureTrend: "string",
  categories: [{ category: "string", euTradeWeightedYoY: "number", ukYoY: "number", priceGap: "number", acceleration: "number", euTrend: [point], ukTrend: [point] }],
  exposedCompanies: [{ ticker: "string", name: "string", exposureLevel: "string", rationale: "string" }],
  lastUpdated: "string",
} as const;
const CENSUS = { geography: "string", series: [{ month: "string", totalRetailSales: "number", yoyChange: "number", momChange: "number", categories: "any" }], lastUpdated: "string" } as const;
const OBSERVATION = { date: "string", series_key: "string", value: "number" } as const;
const VIEW = { id: "string", name: "string", geography: "string", driver_ids: ["string"], question: "string" } as const;

/** Every place where `value` has a field the spec lacks, lacks one it has, or has the wrong type. */
function mismatches(value: unknown, spec: Spec, at = ""): string[] {
  if (spec === "any") return [];
  if (typeof spec === "string") return typeof value === spec && (spec !== "number" || Number.isFinite(value)) ? [] : [`${at || "/"}: expected ${spec}, got ${JSON.stringify(value)}`];
  if (Array.isArray(spec)) {
    if (!Array.isArray(value)) return [`${at}: expected an array`];
    return value.flatMap((item, i) => mismatches(item, spec[0], `${at}/${i}`));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at}: expected an object`];
  const fields = spec as Record<string, Spec>;
  const extra = Object.keys(value).filter((key) => !(key in fields)).map((key) => `${at}/${key}: not in the reference`);
  const missing = Object.keys(fields).filter((key) => !(key in value)).map((key) => `${at}/${key}: missing`);
  return [...extra, ...missing, ...Object.keys(fields).filter((key) => key in value).flatMap((key) => mismatches((value as Record<string, unknown>)[key], fields[key]!, `${at}/${key}`))];
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

let signals: SignalsServer;
beforeAll(async () => {
  signals = await signalsServer();
});
afterAll(async () => {
  await signals.stop();
});

describe("data endpoints", () => {
  it("answer every endpoint with exactly the reference's fields, marked as sample data", async () => {
    const shapes: [string, Spec][] = [
      ["/api/signals", { signals: [SIGNAL_DETAIL], count: "number", lastUpdated: "string" }],
      ["/api/signals?geography=UK&periods=4", { signals: [SIGNAL_DETAIL], count: "number", lastUpdated: "string" }],
      ["/api/cpix", CPIX],
      ["/api/cpix?geography=UK", CPIX],
      ["/api/history", HISTORY],
      ["/api/signals/accuracy", ACCURACY],
      ["/api/briefing/latest?geography=US", BRIEFING],
      ["/api/briefing/latest?geography=UK", BRIEFING],
      ["/api/sectors/grocery/import-pressure?geography=UK", IMPORT_PRESSURE],
      ["/api/census-marts", CENSUS],
      ["/api/census-marts?geography=US", CENSUS],
      ["/api/housing", { housing: [OBSERVATION] }],
      ["/api/macro", { macro: [OBSERVATION] }],
    ];
    for (const [path, spec] of shapes) {
      const reply = await signals.call("GET", path);
      expect(reply.status, path).toBe(200);
      expect(mismatches(reply.body, spec), path).toEqual([]);
      expect(reply.headers.get("Wfkit-Sample-Data"), path).toBe("true");
    }
  });

  it("keeps to the reference's enumerations, date forms and ranges", async () => {
    const all = [...(await signals.call("GET", "/api/signals?periods=52")).body.signals, ...(await signals.call("GET", "/api/signals?geography=UK&periods=52")).body.signals];
    expect(all.length).toBeGreaterThan(4);
    for (const signal of all) {
      expect(["high", "medium", "low"]).toContain(signal.severity);
      expect(["US", "UK"]).toContain(signal.geography);
      expect(signal.timestamp).toMatch(ISO_INSTANT);
      expect(signal.computedAt).toMatch(ISO_INSTANT);
      expect(signal.source).toMatch(/sample/i);
    }
    for (const geography of ["US", "UK"]) {
      const briefing = (await signals.call("GET", `/api/briefing/latest?geography=${geography}`)).body;
      expect(["ai", "rule-based", "ai+search"]).toContain(briefing.narrativeSource);
      expect(briefing.score).toBeGreaterThanOrEqual(0);
      expect(briefing.score).toBeLessThanOrEqual(100);
      expect(new Date(`${briefing.weekStart}T00:00:00Z`).getUTCDay()).toBe(1); // a Monday
      expect(briefing.headline).toMatch(/sample/i);
    }
    const pressure = (await signals.call("GET", "/api/sectors/apparel/import-pressure?geography=UK")).body;
    expect(pressure.geography).toBe("UK");
    expect(["low", "moderate", "elevated", "high"]).toContain(pressure.pressureLevel);
    expect(["easing", "stable", "building"]).toContain(pressure.pressureTrend);
    expect(pressure.lastUpdated).toMatch(ISO_INSTANT);
    for (const observation of (await signals.call("GET", "/api/census-marts")).body.series) expect(observation.month).toMatch(/^\d{4}-\d{2}$/);
  });

  it("gives the history in chronological order between the effective dates, and a summary read off it", async () => {
    const now = new Date(signals.clock.now()).toISOString().slice(0, 10);
    const whole = (await signals.call("GET", "/api/history")).body;
    expect([whole.from, whole.to]).toEqual(["2020-01-01", now]);
    expect(whole.count).toBe(whole.history.length);
    const dates = whole.history.map((p: { date: string }) => p.date);
    expect(dates.every((date: string) => DAY.test(date))).toBe(true);
    expect([...dates].sort()).toEqual(dates);
    expect(new Set(dates).size).toBe(dates.length);
    // Weekly on Mondays from the first Monday of 2020 to the data set's date.
    expect(dates[0]).toBe("2020-01-06");
    expect((Date.parse(dates.at(-1)) - Date.parse(dates[0])) / (7 * 86_400_000) + 1).toBe(dates.length);

    const part = (await signals.call("GET", "/api/history?from=2024-03-01&to=2024-03-31")).body;
    expect([part.from, part.to, part.count]).toEqual(["2024-03-01", "2024-03-31", 4]);
    expect(part.history).toEqual(whole.history.filter((p: { date: string }) => p.date >= "2024-03-01" && p.date <= "2024-03-31"));

    const { summary } = (await signals.call("GET", "/api/cpix")).body;
    const [previous, latest] = whole.history.slice(-2);
    expect([summary.score, summary.previousScore, summary.latestDataDate]).toEqual([latest.value, previous.value, latest.date]);
    expect(summary.change).toBeCloseTo(latest.value - previous.value, 5);
    expect(summary.changePercent).toBeCloseTo(((latest.value - previous.value) / previous.value) * 100, 1);
    const uk = (await signals.call("GET", "/api/history?geography=UK")).body.history;
    expect(uk.map((p: { value: number }) => p.value)).not.toEqual(whole.history.map((p: { value: number }) => p.value));
  });

  it("filters signals by severity, category and recent weekly periods", async () => {
    const periods = async (n: number) => (await signals.call("GET", `/api/signals?periods=${n}`)).body.signals as { id: string; timestamp: string; severity: string; category: string }[];
    const [one, two, many] = [await periods(1), await periods(2), await periods(52)];
    expect(one.length).toBeGreaterThan(0);
    expect(one.length).toBeLessThan(two.length);
    expect(two.length).toBeLessThan(many.length);
    for (const signal of one) expect(two.map((s) => s.id)).toContain(signal.id);
    const newest = Math.max(...many.map((s) => Date.parse(s.timestamp)));
    expect(one.every((s) => newest - Date.parse(s.timestamp) < 7 * 86_400_000)).toBe(true);
    expect([...many].sort((a, b) => b.timestamp.localeCompare(a.timestamp)).map((s) => s.timestamp)).toEqual(many.map((s) => s.timestamp));
    const high = (await signals.call("GET", "/api/signals?periods=52&severity=high")).body;
    expect(high.signals.length).toBe(many.filter((s) => s.severity === "high").length);
    expect(high.count).toBe(high.signals.length);
    const energy = (await signals.call("GET", "/api/signals?periods=52&category=Energy")).body.signals;
    expect(energy.map((s: { id: string }) => s.id)).toEqual(many.filter((s) => s.category === "energy").map((s) => s.id));
  });

  it("gives patternConditions and historicalContext to higher-tier subscribers only", async () => {
    const seed: Seed = {
      accounts: [{ id: "pro", plan: "professional" }, { id: "free", plan: "starter" }],
      users: [{ id: "paid", account: "pro" }, { id: "basic", account: "free" }],
      alertTokens: [{ user: "paid" }],
    };
    const tiers = await signalsServer({ seed });
    try {
      const basicJwt = (await tiers.admin("/sessions", { user: "basic" })).body.token as string;
      const basic = (await tiers.call("GET", "/api/signals?periods=52", { jwt: basicJwt })).body;
      expect(mismatches(basic, { signals: [SIGNAL], count: "number", lastUpdated: "string" })).toEqual([]);
      const paid = (await tiers.call("GET", "/api/signals?periods=52")).body;
      expect(mismatches(paid, { signals: [SIGNAL_DETAIL], count: "number", lastUpdated: "string" })).toEqual([]);
      expect(paid.signals.map((s: { id: string }) => s.id)).toEqual(basic.signals.map((s: { id: string }) => s.id));
    } finally {
      await tiers.stop();
    }
  });

  it("refuses a parameter the reference does not allow, naming it, with a suggestion where one exists", async () => {
    const cases: [string, number, string, string | undefined][] = [
      ["/api/signals?geography=uk", 400, "geography", "UK"],
      ["/api/signals?geography=FR", 400, "geography", undefined],
      ["/api/signals?severity=critical", 400, "severity", undefined],
      ["/api/signals?severity=hgih", 400, "severity", "high"],
      ["/api/signals?periods=0", 400, "periods", undefined],
      ["/api/signals?periods=1.5", 400, "periods", undefined],
      ["/api/signals?periods=53", 400, "periods", undefined],
      ["/api/signals?geograpy=UK", 400, "geograpy", "geography"],
      ["/api/signals?geography=US&geography=UK", 400, "geography", undefined],
      ["/api/cpix?geography=GB", 400, "geography", "UK"],
      ["/api/history?from=2025-02-30", 400, "from", undefined],
      ["/api/history?to=31/12/2024", 400, "to", undefined],
      ["/api/history?from=2024-06-01&to=2024-01-01", 400, "from", undefined],
      ["/api/signals/accuracy?geography=US", 400, "geography", undefined],
      ["/api/briefing/latest", 400, "geography", undefined],
      ["/api/briefing/latest?geography=us", 400, "geography", "US"],
      ["/api/briefing/latest?geography=DE", 404, "geography", undefined],
      ["/api/sectors/grocery/import-pressure", 400, "geography", undefined],
      ["/api/sectors/grocery/import-pressure?geography=US", 400, "geography", undefined],
      ["/api/census-marts?geography=UK", 400, "geography", undefined],
      ["/api/housing?series_key=x", 400, "series_key", undefined],
    ];
    for (const [path, status, parameter, suggestion] of cases) {
      const reply = await signals.call("GET", path);
      expect(reply.status, path).toBe(status);
      expect(reply.body, path).toMatchObject({ ok: false, parameter, ...(suggestion !== undefined ? { suggestion } : {}) });
      expect(reply.body.error, path).toMatch(new RegExp(parameter));
      expect(reply.body.code, path).toMatch(/^[a-z_]+$/);
    }
    const sector = await signals.call("GET", "/api/sectors/furniture/import-pressure?geography=UK");
    expect(sector.status).toBe(404);
    expect(sector.body).toMatchObject({ ok: false, code: "sector_not_found" });
    expect(sector.body.error).toMatch(/`grocery`/);
  });
});

describe("credentials", () => {
  it("takes a JWT for data and the AI endpoints, and X-Alert-Token for alerts and views", async () => {
    const unauthenticated = (reply: { status: number; body: any }, pattern: RegExp) => {
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ ok: false, code: "unauthenticated" });
      expect(reply.body.error).toMatch(pattern);
    };
    const none = await signals.call("GET", "/api/cpix", { jwt: null });
    unauthenticated(none, /No credential was sent.*Authorization: Bearer <JWT>/);
    expect(none.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    const writeKey = signals.server.service.issuedKeys.find((key) => key.role === "write")!.key;
    unauthenticated(await signals.call("GET", "/api/cpix", { jwt: writeKey }), /not a JWT/);
    const [header, payload] = signals.jwt.split(".");
    unauthenticated(await signals.call("GET", "/api/cpix", { jwt: `${header}.${payload}.forged` }), /signature/);
    unauthenticated(await signals.call("GET", "/api/cpix", { jwt: null, alertToken: signals.alertToken }), /No credential/);
    unauthenticated(await signals.call("POST", "/api/investigate", { jwt: null, body: {} }), /No credential/);

    unauthenticated(await signals.call("GET", "/api/views"), /No alert token.*X-Alert-Token/);
    unauthenticated(await signals.withToken("GET", "/api/views", undefined, "wfat_unknown0123456789abcd"), /alert token is unknown/);
    unauthenticated(await signals.withToken("POST", "/api/alerts", {}, signals.jwt), /alert token is unknown/);
    expect((await signals.withToken("GET", "/api/views")).status).toBe(200);
  });

  it("refuses a JWT once it has expired on the service clock", async () => {
    const clock = new Clock("manual");
    const expiring = await signalsServer({ clock });
    try {
      expect((await expiring.call("GET", "/api/cpix")).status).toBe(200);
      clock.advance(12 * 60 * 60 * 1000);
      const reply = await expiring.call("GET", "/api/cpix");
      expect(reply.status).toBe(401);
      expect(reply.body.error).toMatch(/expired/);
    } finally {
      await expiring.stop();
    }
  });
});

describe("alerts and saved views", () => {
  const alert = { name: "Sector watch", type: "sector_pressure", condition: "above", threshold: 70, sector_id: "grocery", geography: "UK", email: "analyst@example.com", whatsapp_number: "+447700900123", min_consecutive: 2 };

  it("creates an alert (201, the full alert, active) and lists the caller's alerts", async () => {
    const created = await signals.withToken("POST", "/api/alerts", alert);
    expect(created.status).toBe(201);
    const { id, created_at, ...rest } = created.body;
    expect(id).toMatch(/^alert_/);
    expect(created_at).toMatch(ISO_INSTANT);
    expect(Date.parse(created_at)).toBe(signals.clock.now());
    expect(rest).toEqual({ ...alert, active: true });
    const digest = await signals.withToken("POST", "/api/alerts", { name: "Weekly", type: "weekly_digest", condition: "any", email: "analyst@example.com", $schema: "https://wfkit.dev/schema/alert.schema.json" });
    expect(digest.status).toBe(201);
    // No geography: the API's default; no threshold for a type without one; the editor's $schema is not kept.
    expect(Object.keys(digest.body).sort()).toEqual(["active", "condition", "created_at", "email", "geography", "id", "name", "type"]);
    expect(digest.body.geography).toBe("US");
    const listed = await signals.withToken("GET", "/api/alerts");
    expect(listed.body.map((a: { id: string }) => a.id)).toEqual([id, digest.body.id]);
  });

  it("creates, lists and deletes saved views, each user seeing only their own", async () => {
    const view = { name: "Energy squeeze", geography: "US", driver_ids: ["energy", "shelter"], question: "Is fuel pushing prices up?" };
    const created = await signals.withToken("POST", "/api/views", view);
    expect(created.status).toBe(201);
    expect(mismatches(created.body, VIEW)).toEqual([]);
    expect(created.body).toMatchObject(view);
    const listed = await signals.withToken("GET", "/api/views");
    expect(listed.body).toEqual([created.body]);

    const other = (await signals.admin("/alert-tokens", { user: DEFAULT_SEED.users[0]!.id })).body.token as string;
    expect(other).toMatch(/^wfat_/);
    // A second token of the same user reaches the same views.
    expect((await signals.withToken("GET", "/api/views", undefined, other)).body).toEqual([created.body]);
    expect((await signals.admin("/alert-tokens", { user: "nobody" })).status).toBe(404);

    const deleted = await signals.withToken("DELETE", `/api/views/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await signals.withToken("GET", "/api/views")).body).toEqual([]);
    const again = await signals.withToken("DELETE", `/api/views/${created.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ ok: false, code: "view_not_found" });
  });

  it("keeps alerts and views to their user", async () => {
    const seed: Seed = { accounts: [{ id: "a", plan: "starter" }], users: [{ id: "ann", account: "a" }, { id: "bo", account: "a" }], alertTokens: [{ user: "ann" }, { user: "bo" }] };
    const two = await signalsServer({ seed });
    try {
      const [ann, bo] = two.server.service.issuedAlertTokens.map((issued) => issued.token);
      const view = (await two.withToken("POST", "/api/views", { name: "v", geography: "UK", driver_ids: [], question: "q" }, ann)).body;
      await two.withToken("POST", "/api/alerts", { name: "a", type: "signal_severity", condition: "high", email: "ann@example.com" }, ann);
      expect((await two.withToken("GET", "/api/views", undefined, bo)).body).toEqual([]);
      expect((await two.withToken("GET", "/api/alerts", undefined, bo)).body).toEqual([]);
      expect((await two.withToken("DELETE", `/api/views/${view.id}`, undefined, bo)).status).toBe(404);
      expect((await two.withToken("GET", "/api/views", undefined, ann)).body).toEqual([view]);
    } finally {
      await two.stop();
    }
  });

  it("answers a body that is not JSON, or too large, in this API's shape", async () => {
    const malformed = await signals.withToken("POST", "/api/alerts", "{oops");
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ ok: false, code: "malformed_json" });
    const empty = await signals.withToken("POST", "/api/views", "");
    expect(empty.status).toBe(400);
    expect(empty.body.ok).toBe(false);
    const large = await signals.withToken("POST", "/api/views", JSON.stringify({ name: "x".repeat(9 * 1024 * 1024) }));
    expect(large.status).toBe(413);
    expect(large.body).toMatchObject({ ok: false, code: "payload_too_large" });
  });
});

describe("routes", () => {
  it("answers an unknown route or method under /signals in this API's shape, and the Workflows API's in its own", async () => {
    const missing = await signals.call("GET", "/api/nothing");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ ok: false, code: "route_not_found" });
    const method = await signals.call("PUT", "/api/views/v1");
    expect(method.status).toBe(405);
    expect(method.headers.get("Allow")).toBe("DELETE");
    expect(method.body).toMatchObject({ ok: false, code: "method_not_allowed" });
    const workflows = await fetch(`${signals.server.baseUrl}/api/signals`);
    expect(workflows.status).toBe(404);
    const body = (await workflows.json()) as { error: string; message: string };
    expect(body.error).toBe("route_not_found");
    expect(body.message).toMatch(/Consumer Signals API under \/signals\/api/);
  });
});

describe("hostile requests", () => {
  it("get a JSON answer or a JSON refusal in this API's shape from every route, never a 500 or a stack", async () => {
    const text = fc.oneof(fc.constantFrom("US", "UK", "uk", "", "%00", "..", "__proto__", "constructor", "2024-02-29", "1e9", "-1"), fc.string({ maxLength: 12 }));
    const query = fc.array(fc.tuple(fc.constantFrom("geography", "severity", "category", "periods", "from", "to", "x", "__proto__"), text), { maxLength: 3 });
    const body = fc.oneof(fc.json({ maxDepth: 3 }), fc.string({ maxLength: 100 }), fc.constantFrom("", "{", "[]", "null", '{"__proto__":{"x":1}}', '{"driver_ids":{"length":1e9}}'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SIGNALS_ROUTES), fc.constantFrom("GET", "POST", "PUT", "DELETE"), text, query, body, async (route, method, param, pairs, rawBody) => {
        const search = pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join("&");
        const path = route.path.replace(/:[A-Za-z]+/g, encodeURIComponent(param) || "x") + (search ? `?${search}` : "");
        const reply = await signals.call(method, path, { alertToken: signals.alertToken, ...(method === "GET" ? {} : { body: rawBody }) });
        expect(reply.status, `${method} ${path}`).toBeLessThan(500);
        expect(reply.text).not.toMatch(/\n\s+at /);
        if (reply.status === 204 || reply.headers.get("Content-Type")?.startsWith("text/event-stream")) return;
        expect(reply.body, `${method} ${path}`).toEqual(expect.anything());
        if (reply.status >= 400) {
          expect(reply.body.ok).toBe(false);
          expect(reply.body.error).toEqual(expect.any(String));
          if (reply.status !== 429) expect(reply.body.code).toEqual(expect.any(String));
        }
      }),
      { numRuns: numRuns(300) },
    );
  });
});

describe("the database", () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(path.join(tmpdir(), "wfkit-signals-"));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("keeps alerts, views and alert tokens across a restart, and a reset empties them and restores the seed's token", async () => {
    const db = path.join(directory, "signals.db");
    const first = await signalsServer({ db });
    const token = first.alertToken;
    const alert = (await first.withToken("POST", "/api/alerts", { name: "CPIX up", type: "cpix_change", condition: "rises_by", threshold: 2, email: "a@example.com" })).body;
    const view = (await first.withToken("POST", "/api/views", { name: "v", geography: "UK", driver_ids: ["food"], question: "q" })).body;
    await first.stop();

    const second = await signalsServer({ db });
    try {
      // A random token is shown at the first start only; the one from then still works.
      expect(second.server.service.signalsCredentials().alertToken).toBeNull();
      expect((await second.withToken("GET", "/api/alerts", undefined, token)).body).toEqual([alert]);
      expect((await second.withToken("GET", "/api/views", undefined, token)).body).toEqual([view]);
      const reset = await second.admin("/reset");
      expect(reset.body.alertTokens).toHaveLength(1);
      const fresh = reset.body.alertTokens[0].token as string;
      expect((await second.withToken("GET", "/api/views", undefined, fresh)).body).toEqual([]);
      expect((await second.withToken("GET", "/api/alerts", undefined, fresh)).body).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});
