/**
 * "A separate assistant surface exists under /anya, gated by the anya entitlement and not by
 * the scopes below. Its contents are not shown." and "A key granted these scopes is not thereby
 * granted the assistant surface." Over HTTP against wfkit serve: the gate, and nothing behind it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loadSeed, type Seed } from "../src/index.js";
import { fidelityServer, type FidelityServer } from "./fidelity-server.js";

let api: FidelityServer | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

/** One account with the entitlement (`ana`) and one without (`ben`), each with a read and a write key. */
const seed: Seed = {
  accounts: [
    { id: "with", plan: "professional", entitlements: ["anya"] },
    { id: "without", plan: "enterprise" },
    { id: "web", plan: "browser", entitlements: ["anya"] },
  ],
  users: [
    { id: "ana", account: "with" },
    { id: "ben", account: "without" },
    { id: "wes", account: "web" },
  ],
  apiKeys: [
    { id: "anaread", user: "ana", scopes: ["read:workflows"], secret: "anaread0123456789ab", role: "read" },
    { id: "anawrite", user: "ana", scopes: ["write:workflows"], secret: "anawrite0123456789ab", role: "write" },
    { id: "ananone", user: "ana", scopes: [], secret: "ananone0123456789ab" },
    { id: "benwrite", user: "ben", scopes: ["write:workflows"], secret: "benwrite0123456789ab" },
  ],
  oauthTokens: [{ user: "ana", token: "wfo_anaoauth0123456789" }],
};
const key = (id: string) => `wfk_${id}_${seed.apiKeys!.find((k) => k.id === id)!.secret}`;
const PATHS = [
  ["GET", "/anya"],
  ["GET", "/anya/"],
  ["POST", "/anya/chat"],
  ["DELETE", "/anya/sessions/1"],
] as const;

describe("the /anya gate", () => {
  it("a caller whose account lacks the anya entitlement gets 402 plan_required with required_feature anya, on every method and path", async () => {
    api = await fidelityServer({ seed });
    for (const [method, path] of PATHS) {
      const reply = await api.http(method, path, { credential: key("benwrite"), ...(method === "POST" ? { body: {} } : {}) });
      expect(reply.status, `${method} ${path}`).toBe(402);
      expect(reply.body).toEqual({ error: "plan_required", message: expect.stringContaining("gated by the `anya` entitlement"), required_feature: "anya" });
    }
    // The default seed's account (professional, no grant) has no entitlement either.
    await api.stop();
    api = await fidelityServer();
    expect((await api.http("GET", "/anya", { credential: api.keys.write })).body).toMatchObject({ error: "plan_required", required_feature: "anya" });
  });

  it("a caller with it passes whatever its key's scopes (read-only, write, none) and whatever its credential kind; behind the gate is 404 not_shown", async () => {
    api = await fidelityServer({ seed });
    const session = (await api.admin("POST", "/sessions", { user: "ana" })).body.token;
    const browserSession = (await api.admin("POST", "/sessions", { user: "wes" })).body.token;
    for (const credential of [key("anaread"), key("anawrite"), key("ananone"), session, "wfo_anaoauth0123456789", browserSession])
      for (const [method, path] of PATHS) {
        const reply = await api.http(method, path, { credential, ...(method === "POST" ? { body: { question: "hi" } } : {}) });
        expect(reply.status, `${method} ${path}`).toBe(404);
        expect(reply.body).toEqual({ error: "not_shown", message: expect.stringContaining("passed the assistant surface's gate") });
      }
    // The same read-only key is refused for scope on a Workflows write: the scopes still hold there.
    expect((await api.http("POST", "/api/v1/workflows", { credential: key("anaread"), body: { name: "x" } })).body).toMatchObject({ error: "insufficient_scope" });
  });

  it("asks who is calling first: 401 without a credential, or with one it does not know", async () => {
    api = await fidelityServer({ seed });
    expect((await api.http("GET", "/anya", { credential: null })).status).toBe(401);
    expect((await api.http("GET", "/anya/x", { credential: "wfk_nobody_0123456789abcdef" })).body).toMatchObject({ error: "UNAUTHENTICATED" });
  });

  it("the entitlement comes from the seed (`entitlements`), and the admin surface grants or takes it away", async () => {
    api = await fidelityServer({ seed });
    expect((await api.admin("GET", "/state")).body.accounts.map((a: { id: string; entitlements: string[] }) => [a.id, a.entitlements])).toEqual([
      ["web", ["anya"]],
      ["with", ["anya"]],
      ["without", []],
    ]);
    expect((await api.admin("POST", "/accounts/without", { entitlements: ["anya"] })).body.account.entitlements).toEqual(["anya"]);
    expect((await api.http("GET", "/anya", { credential: key("benwrite") })).status).toBe(404);
    await api.admin("POST", "/accounts/with", { entitlements: [] });
    // At once: the credential cache holds who a key is, not what the account holds.
    expect((await api.http("GET", "/anya", { credential: key("anaread") })).status).toBe(402);
    expect((await api.admin("POST", "/accounts/with", { entitlements: ["assistant"] })).status).toBe(400);
    // A reset applies the seed again, grants included.
    await api.admin("POST", "/reset");
    expect((await api.http("GET", "/anya", { credential: key("anaread") })).status).toBe(404);
  });

  it("the seed file's schema takes `entitlements: [\"anya\"]` and refuses an entitlement it does not know", () => {
    expect(loadSeed({ accounts: [{ id: "a", plan: "professional", entitlements: ["anya"] }], users: [{ id: "u", account: "a" }] }, "seed.json").accounts[0]!.entitlements).toEqual(["anya"]);
    expect(() => loadSeed({ accounts: [{ id: "a", plan: "professional", entitlements: ["assistant"] }], users: [{ id: "u", account: "a" }] }, "seed.json")).toThrow(
      /seed\.json is not valid: \/accounts\/0\/entitlements\/0: must be equal to one of the allowed values \(anya\)/,
    );
  });
});
