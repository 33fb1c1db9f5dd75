/** Credentials, products, plans, regions, scopes and the acceptance gate, in-process. */
import { describe, expect, it } from "vitest";
import { harness } from "./helpers.js";
import type { Seed } from "../src/index.js";

const PARTS = "/api/v1/workflows/catalogue/parts";

const seed: Seed = {
  accounts: [
    { id: "pro", plan: "professional" },
    { id: "web", plan: "browser" },
    { id: "none", plan: "starter" },
  ],
  organisations: [{ id: "org" }],
  users: [
    { id: "alice", account: "pro", organisation: "org" },
    { id: "bob", account: "pro", organisation: "org" },
    { id: "carol", account: "pro" },
    { id: "wendy", account: "web" },
    { id: "nina", account: "none" },
  ],
  apiKeys: [
    { id: "read", user: "alice", scopes: ["read:workflows"], role: "read", secret: "readsecret0123456789" },
    { id: "write", user: "alice", scopes: ["write:workflows"], role: "write", secret: "writesecret0123456789" },
    { id: "bobwrite", user: "bob", scopes: ["write:workflows"], secret: "bobsecret0123456789" },
    { id: "carolwrite", user: "carol", scopes: ["write:workflows"], secret: "carolsecret0123456789" },
    { id: "other", user: "alice", scopes: ["write:workflows"], products: ["product_signals"], secret: "othersecret0123456789" },
    { id: "noscope", user: "alice", scopes: [], secret: "noscopesecret0123456789" },
    { id: "web", user: "wendy", scopes: ["write:workflows"], secret: "websecret0123456789" },
    { id: "none", user: "nina", scopes: ["write:workflows"], secret: "nonesecret0123456789" },
    { id: "expiring", user: "alice", scopes: ["read:workflows"], expiresAt: "2026-01-01T01:00:00Z", secret: "expiringsecret0123456789" },
    { id: "office", user: "alice", scopes: ["read:workflows"], ipAllowlist: ["10.1.0.0/16", "2001:db8::1"], secret: "officesecret0123456789" },
  ],
  oauthTokens: [{ user: "alice", token: "wfo_oauthtoken0123456789" }],
};
const key = (id: string, secret: string) => `wfk_${id}_${secret}`;

describe("credentials", () => {
  it("refuses a request without a credential, with a malformed header, or with an unknown key: 401 UNAUTHENTICATED", async () => {
    const { call } = await harness({ seed });
    for (const [credential, headers] of [
      [null, {}],
      [null, { Authorization: "Basic abc" }],
      ["wfk_read_wrongsecret0123456789", {}],
      ["wfk_nosuchkey_readsecret0123456789", {}],
      ["not-a-credential", {}],
      ["a.b.c", {}],
    ] as const) {
      const reply = await call("GET", PARTS, { credential, headers });
      expect(reply.status, String(credential)).toBe(401);
      expect(reply.body.error).toBe("UNAUTHENTICATED");
      expect(reply.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    }
  });

  it("stores only a hash of a key's secret", async () => {
    const { service } = await harness({ seed });
    const rows = service.store.all("SELECT * FROM api_keys");
    expect(rows.length).toBe(seed.apiKeys!.length);
    for (const row of rows) expect(JSON.stringify(row)).not.toContain("secret0123456789");
  });

  it("refuses a valid key whose products lack product_research", async () => {
    const { call } = await harness({ seed });
    const reply = await call("GET", PARTS, { credential: key("other", "othersecret0123456789") });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ error: "product_not_allowed", required_product: "product_research" });
  });

  it("honours a key's expiry on the service clock", async () => {
    const { call, admin } = await harness({ seed });
    const credential = key("expiring", "expiringsecret0123456789");
    expect((await call("GET", PARTS, { credential })).status).toBe(200);
    await admin("/clock/advance", { ms: 60 * 60 * 1000 });
    const reply = await call("GET", PARTS, { credential });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/expired/);
  });

  it("honours a key's IP allowlist (addresses and CIDR blocks, IPv4 and IPv6)", async () => {
    const { call } = await harness({ seed });
    const credential = key("office", "officesecret0123456789");
    expect((await call("GET", PARTS, { credential, ip: "10.1.200.3" })).status).toBe(200);
    expect((await call("GET", PARTS, { credential, ip: "::ffff:10.1.0.9" })).status).toBe(200);
    expect((await call("GET", PARTS, { credential, ip: "2001:db8::1" })).status).toBe(200);
    const refused = await call("GET", PARTS, { credential, ip: "10.2.0.1" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("ip_not_allowed");
    expect((await call("GET", PARTS, { credential, ip: "2001:db8::2" })).status).toBe(403);
  });

  it("keeps honouring a revoked key until its credential cache entry is 60 s old, then refuses it", async () => {
    const { call, admin } = await harness({ seed });
    const credential = key("read", "readsecret0123456789");
    expect((await call("GET", PARTS, { credential })).status).toBe(200); // cached now
    expect((await admin("/keys/read/revoke")).status).toBe(200);
    await admin("/clock/advance", { ms: 59_999 });
    expect((await call("GET", PARTS, { credential })).status).toBe(200);
    await admin("/clock/advance", { ms: 1 });
    const reply = await call("GET", PARTS, { credential });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/revoked/);
  });

  it("refuses a revoked key at once when it was not cached", async () => {
    const { call, admin } = await harness({ seed });
    await admin("/keys/read/revoke");
    expect((await call("GET", PARTS, { credential: key("read", "readsecret0123456789") })).status).toBe(401);
  });

  it("accepts session JWTs it signed, not scope-limited, and refuses tampered or expired ones", async () => {
    const { call, admin } = await harness({ seed });
    const token = (await admin("/sessions", { user: "alice" })).body.token as string;
    expect((await call("POST", "/api/v1/workflows", { credential: token, body: { name: "by session" } })).status).toBe(201);
    const [header, payload] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ sub: "bob", typ: "session", exp: 4_000_000_000 })).toString("base64url");
    expect((await call("GET", PARTS, { credential: `${header}.${forged}.${token.split(".")[2]}` })).status).toBe(401);
    expect(payload).toBeTruthy();
    await admin("/clock/advance", { ms: 13 * 60 * 60 * 1000 });
    const expired = await call("GET", PARTS, { credential: token });
    expect(expired.status).toBe(401);
  });

  it("accepts OAuth access tokens, which resolve to the user and carry no scopes", async () => {
    const { call } = await harness({ seed });
    const reply = await call("POST", "/api/v1/workflows", { credential: "wfo_oauthtoken0123456789", body: { name: "by oauth" } });
    expect(reply.status).toBe(201);
  });
});

describe("admin surface", () => {
  it("needs the admin token and a loopback caller", async () => {
    const { call, service } = await harness({ seed });
    expect((await call("GET", "/__admin/state", { credential: service.adminToken, ip: "127.0.0.1" })).status).toBe(200);
    expect((await call("GET", "/__admin/state", { credential: service.adminToken, ip: "::1" })).status).toBe(200);
    const remote = await call("GET", "/__admin/state", { credential: service.adminToken, ip: "192.168.1.20" });
    expect(remote.status).toBe(403);
    expect(remote.body.error).toBe("admin_forbidden");
    expect((await call("GET", "/__admin/state", { credential: key("write", "writesecret0123456789"), ip: "127.0.0.1" })).status).toBe(403);
    expect((await call("POST", "/__admin/clock/advance", { credential: service.adminToken, body: { ms: -1 } })).status).toBe(400);
  });

  it("resets to the seed: data gone, the same keys work again, faults cleared", async () => {
    const { call, admin, published, service } = await harness({ seed });
    await published(undefined, key("write", "writesecret0123456789"));
    await admin("/faults", { resolver: "down" });
    await admin("/keys/write/revoke");
    await admin("/clock/advance", { ms: 60_000 });
    expect((await admin("/reset")).status).toBe(200);
    expect(service.store.get("SELECT count(*) AS n FROM workflows")!.n).toBe(0);
    expect(service.faults).toEqual({ usage: null, resolverDown: false });
    expect((await call("POST", "/api/v1/workflows", { credential: key("write", "writesecret0123456789"), body: { name: "again" } })).status).toBe(201);
  });
});

describe("plans", () => {
  it("lets the browser-only tier use Workflows with a session but not with a key (402 plan_required workflows_api)", async () => {
    const { call, admin } = await harness({ seed });
    const session = (await admin("/sessions", { user: "wendy" })).body.token as string;
    expect((await call("GET", PARTS, { credential: session })).status).toBe(200);
    const reply = await call("GET", PARTS, { credential: key("web", "websecret0123456789") });
    expect(reply.status).toBe(402);
    expect(reply.body).toMatchObject({ error: "plan_required", required_feature: "workflows_api" });
    expect(typeof reply.body.message).toBe("string");
  });

  it("does not let the browser-only tier create keys", async () => {
    const { admin } = await harness({ seed });
    const reply = await admin("/keys", { user: "wendy", scopes: ["read:workflows"] });
    expect(reply.status).toBe(402);
    expect(reply.body.required_feature).toBe("workflows_api");
    expect((await admin("/keys", { user: "alice", scopes: ["read:workflows"] })).status).toBe(201);
  });

  it("refuses a plan without Workflows at all (402 plan_required workflows), even in the browser", async () => {
    const { call, admin } = await harness({ seed });
    const session = (await admin("/sessions", { user: "nina" })).body.token as string;
    for (const credential of [session, key("none", "nonesecret0123456789")]) {
      const reply = await call("GET", PARTS, { credential });
      expect(reply.status).toBe(402);
      expect(reply.body).toMatchObject({ error: "plan_required", required_feature: "workflows" });
    }
  });
});

describe("scopes", () => {
  it("needs write:workflows on mutating routes, and read:workflows (implied by write) on reads", async () => {
    const { call } = await harness({ seed });
    const read = key("read", "readsecret0123456789");
    const write = key("write", "writesecret0123456789");
    const refused = await call("POST", "/api/v1/workflows", { credential: read, body: { name: "x" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "write:workflows" });
    expect((await call("GET", PARTS, { credential: write })).status).toBe(200);
    const none = await call("GET", PARTS, { credential: key("noscope", "noscopesecret0123456789") });
    expect(none.body).toMatchObject({ error: "insufficient_scope", required_scope: "read:workflows" });
  });

  it("classifies validate-definition and resolve-subjects as reads although they are POSTs", async () => {
    const { call } = await harness({ seed });
    const read = key("read", "readsecret0123456789");
    expect((await call("POST", "/api/v1/workflows/catalogue/validate-definition", { credential: read, body: { definition: {} } })).status).toBe(400);
    expect((await call("POST", "/api/v1/workflows/catalogue/resolve-subjects", { credential: read, body: { hints: ["TSCO"] } })).status).toBe(200);
  });
});

describe("account conditions", () => {
  it("answers 503 workflows_unavailable outside the Workflows regions", async () => {
    const { call, admin } = await harness({ seed });
    await admin("/accounts/pro", { region: "ap-south" });
    const reply = await call("GET", PARTS, { credential: key("read", "readsecret0123456789") });
    expect(reply.status).toBe(503);
    expect(reply.body.error).toBe("workflows_unavailable");
  });

  it("answers 403 GATE_REQUIRED while an acceptance is outstanding, and serves again once it is cleared", async () => {
    const { call, admin } = await harness({ seed });
    const credential = key("read", "readsecret0123456789");
    await admin("/accounts/pro", { acceptanceOutstanding: true });
    const reply = await call("GET", PARTS, { credential });
    expect(reply.status).toBe(403);
    expect(reply.body.error).toBe("GATE_REQUIRED");
    await admin("/accounts/pro", { acceptanceOutstanding: false });
    expect((await call("GET", PARTS, { credential })).status).toBe(200);
  });
});

describe("ownership", () => {
  it("lets organisation members read a workflow's runs but not run, cancel or deliver; hides it from others", async () => {
    const { call, clock, published } = await harness({ seed });
    const alice = key("write", "writesecret0123456789");
    const bob = key("bobwrite", "bobsecret0123456789");
    const carol = key("carolwrite", "carolsecret0123456789");
    const wf = await published(undefined, alice);
    const run = await call("POST", `/api/v1/workflows/${wf}/run`, { credential: alice, body: {} });
    expect(run.status).toBe(200);
    const runId = run.body.runId as string;
    expect((await call("GET", `/api/v1/workflows/${wf}/runs/${runId}`, { credential: bob })).status).toBe(200);
    expect((await call("GET", `/api/v1/workflows/${wf}/runs`, { credential: bob })).status).toBe(200);
    for (const path of [`/api/v1/workflows/${wf}/run`, `/api/v1/workflows/${wf}/runs/${runId}/cancel`, `/api/v1/workflows/${wf}/runs/${runId}/deliver`]) {
      const reply = await call("POST", path, { credential: bob });
      expect(reply.status, path).toBe(403);
      expect(reply.body.error).toBe("not_owner");
    }
    expect((await call("GET", `/api/v1/workflows/${wf}/runs/${runId}`, { credential: carol })).body.error).toBe("workflow_not_found");
    // Runs across owned workflows: Bob owns none.
    expect((await call("GET", "/api/v1/workflows/runs", { credential: bob })).body.runs).toEqual([]);
    clock.advance(0);
  });
});
