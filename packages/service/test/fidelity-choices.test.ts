/**
 * What the two references leave "not shown", and wfkit serve's choice for each, over HTTP: the
 * routes the Workflows reference does not list are absent, the create response, no rate limit
 * on the Workflows API, and the values the sample data uses for the Consumer Signals
 * enumerations the reference does not list in full. Each choice is listed under Assumptions in
 * docs/service.md or docs/signals.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fidelityServer, type FidelityServer } from "./fidelity-server.js";
import { example } from "./helpers.js";

const V1 = "/api/v1/workflows";
let api: FidelityServer;
let workflow: string;
let version: string;
beforeAll(async () => {
  api = await fidelityServer();
  const created = await api.http("POST", V1, { body: { name: "choices" } });
  workflow = created.body.workflow.id;
  version = (await api.http("POST", `${V1}/${workflow}/versions`, { body: { scope: { graph: example("grocer-compare") } } })).body.version.id;
});
afterAll(async () => {
  await api.stop();
});

describe("the Workflows API's choices", () => {
  it("create answers 201 {workflow: {id, name}}: the reference's {workflow: {id}} and the name it was given", async () => {
    const reply = await api.http("POST", V1, { body: { name: "Grocers" } });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ workflow: { id: expect.stringMatching(/^wf_/), name: "Grocers" } });
  });

  it("the routes the reference does not show (read, list and edit workflows and versions) are absent: 404 route_not_found, or 405 where the path has other methods", async () => {
    for (const [method, path] of [
      ["GET", `${V1}/${workflow}`],
      ["PATCH", `${V1}/${workflow}`],
      ["PUT", `${V1}/${workflow}`],
      ["DELETE", `${V1}/${workflow}`],
      ["GET", `${V1}/${workflow}/versions/${version}`],
      ["PATCH", `${V1}/${workflow}/versions/${version}`],
    ]) {
      const reply = await api.http(method!, path!, method === "GET" || method === "DELETE" ? {} : { body: {} });
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.body.error).toBe("route_not_found");
    }
    for (const path of [V1, `${V1}/${workflow}/versions`]) {
      const reply = await api.http("GET", path);
      expect(reply.status, path).toBe(405);
      expect([reply.body.error, reply.headers.get("Allow")]).toEqual(["method_not_allowed", "POST"]);
    }
  });

  it("has no rate limit: 200 reads in a burst all answer 200, with no X-RateLimit headers", async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, () => api.http("GET", `${V1}/catalogue/parts`, { credential: api.keys.read })));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    const names = new Set<string>();
    for (const reply of replies) reply.headers.forEach((_, name) => names.add(name.toLowerCase()));
    expect([...names].filter((name) => name.startsWith("x-ratelimit") || name === "retry-after")).toEqual([]);
  });
});

describe("the Consumer Signals API's limits", () => {
  it("only the AI endpoints are limited: 60 reads of data, alerts and views in a burst all answer, with no rate-limit headers", async () => {
    const reads = [
      ...Array.from({ length: 20 }, () => api.http("GET", "/signals/api/cpix", { credential: api.jwt })),
      ...Array.from({ length: 20 }, () => api.http("GET", "/signals/api/alerts", { credential: null, alertToken: api.alertToken })),
      ...Array.from({ length: 20 }, () => api.http("GET", "/signals/api/views", { credential: null, alertToken: api.alertToken })),
    ];
    const replies = await Promise.all(reads);
    expect(replies.map((reply) => reply.status)).toEqual(Array(60).fill(200));
    const names = new Set<string>();
    for (const reply of replies) reply.headers.forEach((_, name) => names.add(name.toLowerCase()));
    expect([...names].filter((name) => name.startsWith("x-ratelimit") || name === "retry-after")).toEqual([]);
  });

  it("the AI endpoints' limit applies to every plan tier: the 11th request of a browser-plan user is refused too", async () => {
    const tiers = await fidelityServer({
      seed: { accounts: [{ id: "web", plan: "browser" }, { id: "none", plan: "starter" }], users: [{ id: "wes", account: "web" }, { id: "sam", account: "none" }] },
    });
    try {
      for (const user of ["wes", "sam"]) {
        const jwt = (await tiers.admin("POST", "/sessions", { user })).body.token;
        const statuses: number[] = [];
        for (let i = 0; i < 11; i++) statuses.push((await tiers.http("POST", "/signals/api/analyze", { credential: jwt, body: { question: "why?" } })).status);
        expect(statuses, user).toEqual([...Array(10).fill(200), 429]);
      }
    } finally {
      await tiers.stop();
    }
  });
});

describe("the Consumer Signals sample data's enumerations", () => {
  /** Every value of `field` anywhere in `value`. */
  const valuesOf = (value: unknown, field: string, into = new Set<string>()): Set<string> => {
    if (Array.isArray(value)) for (const item of value) valuesOf(item, field, into);
    else if (value && typeof value === "object")
      for (const [key, item] of Object.entries(value)) {
        if (key === field && typeof item === "string") into.add(item);
        valuesOf(item, field, into);
      }
    return into;
  };
  const get = async (path: string) => (await api.http("GET", `/signals${path}`, { credential: api.jwt })).body;

  it("use only the values docs/signals.md lists for direction, riskLevel, exposureLevel and convergenceFlag (the reference does not list them in full)", async () => {
    const [cpixUs, cpixUk, briefingUs, briefingUk, grocery, apparel, signalsUs, signalsUk] = await Promise.all([
      get("/api/cpix?geography=US"),
      get("/api/cpix?geography=UK"),
      get("/api/briefing/latest?geography=US"),
      get("/api/briefing/latest?geography=UK"),
      get("/api/sectors/grocery/import-pressure?geography=UK"),
      get("/api/sectors/apparel/import-pressure?geography=UK"),
      get("/api/signals?geography=US&periods=52"),
      get("/api/signals?geography=UK&periods=52"),
    ]);
    for (const value of valuesOf([cpixUs.drivers, cpixUk.drivers], "direction")) expect(["up", "down", "flat"]).toContain(value);
    for (const value of valuesOf([briefingUs.signalMomentum, briefingUk.signalMomentum], "direction")) expect(["rising", "falling", "stable"]).toContain(value);
    for (const value of valuesOf([signalsUs.signals, signalsUk.signals], "riskLevel")) expect(["high", "medium", "low"]).toContain(value);
    for (const value of valuesOf([grocery, apparel], "exposureLevel")) expect(["high", "moderate", "low"]).toContain(value);
    for (const value of valuesOf([briefingUs, briefingUk], "convergenceFlag")) expect(["converging", "mixed", "diverging"]).toContain(value);
    // Each list is used, so the documented values are the sample's, not invented.
    expect(valuesOf([cpixUs.drivers, cpixUk.drivers], "direction").size).toBeGreaterThan(1);
    expect(valuesOf([signalsUs.signals, signalsUk.signals], "riskLevel")).toEqual(new Set(["high", "medium", "low"]));
    expect(valuesOf([briefingUs, briefingUk], "convergenceFlag").size).toBeGreaterThan(1);
  });
});
