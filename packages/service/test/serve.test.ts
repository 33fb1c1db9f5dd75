/**
 * `wfkit serve` as users run it: the built CLI as a child process on a free loopback port,
 * over real HTTP. Every endpoint and every row of the reference's error table; concurrency;
 * restart with --db; kill -9 during a stream of writes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { defaultCatalogue, validateDefinition } from "@wfkit/core";
import { bin, ensureBuilt, runCli } from "../../../test/support/built-cli.js";
import { http, serve, type Served } from "../../../test/support/serve-process.js";
import { example } from "./helpers.js";
import { signalsServer } from "./signals-server.js";
import type { Seed } from "../src/index.js";

const V1 = "/api/v1/workflows";
const secret = (name: string) => `${name}secret0123456789`;
const key = (id: string) => `wfk_${id}_${secret(id)}`;
const profileCost = validateDefinition(example("company-profile")).estimate.costMinorUnits;
const ALLOWANCE_RUNS = 50;

const seed: Seed = {
  accounts: [
    { id: "pro", plan: "professional" },
    { id: "web", plan: "browser" },
    { id: "none", plan: "starter" },
    { id: "far", plan: "enterprise", region: "ap-south" },
    { id: "gated", plan: "professional", acceptanceOutstanding: true },
    { id: "small", plan: "professional", allowanceMinorUnits: profileCost * ALLOWANCE_RUNS },
  ],
  organisations: [{ id: "org" }],
  users: [
    { id: "alice", account: "pro", organisation: "org" },
    { id: "bob", account: "pro", organisation: "org" },
    { id: "wendy", account: "web" },
    { id: "nina", account: "none" },
    { id: "fay", account: "far" },
    { id: "gus", account: "gated" },
    { id: "sam", account: "small" },
  ],
  apiKeys: [
    { id: "read", user: "alice", scopes: ["read:workflows"], role: "read", secret: secret("read") },
    { id: "write", user: "alice", scopes: ["write:workflows"], role: "write", secret: secret("write") },
    { id: "bob", user: "bob", scopes: ["write:workflows"], secret: secret("bob") },
    { id: "web", user: "wendy", scopes: ["write:workflows"], secret: secret("web") },
    { id: "none", user: "nina", scopes: ["write:workflows"], secret: secret("none") },
    { id: "far", user: "fay", scopes: ["write:workflows"], secret: secret("far") },
    { id: "gated", user: "gus", scopes: ["write:workflows"], secret: secret("gated") },
    { id: "small", user: "sam", scopes: ["write:workflows"], secret: secret("small") },
    { id: "signals", user: "alice", scopes: ["write:workflows"], products: ["product_signals"], secret: secret("signals") },
  ],
  alertTokens: [{ user: "alice", token: `wfat_${secret("alert")}` }],
};
const mocks = {
  delayMs: 20,
  cases: { weak: { parts: { "terminal.compare": { "1": { belowFloor: { "terminal.result": { score: 0.1 } } } } } }, slow: {} },
  // Long enough that a run of analyst-review is surely still open when the test cancels it.
  partDelayMs: { "review.analyst": 60_000 },
};

let directory: string;
const file = (name: string) => path.join(directory, name);
const running: Served[] = [];
async function start(args: string[] = []): Promise<Served> {
  const served = await serve(["--seed", file("seed.json"), "--mocks", file("mocks.json"), ...args], directory);
  running.push(served);
  return served;
}

beforeAll(() => {
  ensureBuilt();
  directory = mkdtempSync(path.join(tmpdir(), "wfkit-serve-"));
  writeFileSync(file("seed.json"), JSON.stringify(seed));
  writeFileSync(file("mocks.json"), JSON.stringify(mocks));
});
afterAll(async () => {
  await Promise.all(running.map((served) => served.stop("SIGKILL")));
  rmSync(directory, { recursive: true, force: true });
});

async function publishedWorkflow(baseUrl: string, credential: string, definition: unknown): Promise<string> {
  const wf = (await http(baseUrl, "POST", V1, credential, { name: "flow" })).body.workflow.id as string;
  const version = (await http(baseUrl, "POST", `${V1}/${wf}/versions`, credential, { scope: { graph: definition } })).body.version.id as string;
  expect((await http(baseUrl, "POST", `${V1}/${wf}/versions/${version}/publish`, credential)).status).toBe(200);
  return wf;
}

async function pollUntil(baseUrl: string, wf: string, runId: string, states: string[]): Promise<any> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const run = (await http(baseUrl, "GET", `${V1}/${wf}/runs/${runId}`, key("read"))).body;
    if (states.includes(run.state)) return run;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} never reached ${states.join("/")}`);
}

describe("wfkit serve over HTTP", () => {
  let server: Served;
  beforeAll(async () => {
    server = await start();
  });

  it("prints {baseUrl, signalsBaseUrl, keys, adminToken} first, with the seed's keys, a JWT and the alert token", () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.signalsBaseUrl).toBe(`${server.baseUrl}/signals`);
    expect(server.keys).toEqual({ read: key("read"), write: key("write"), jwt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), alertToken: `wfat_${secret("alert")}` });
    expect(JSON.parse(Buffer.from(server.keys.jwt!.split(".")[1]!, "base64url").toString("utf8"))).toMatchObject({ sub: "alice" });
    expect(server.adminToken).toMatch(/^wfa_/);
  });

  it("serves the Consumer Signals API with the printed JWT and alert token, from the same sample data in every process", async () => {
    const { signalsBaseUrl, keys } = server;
    const history = await fetch(`${signalsBaseUrl}/api/history?from=2025-01-01&to=2025-12-31`, { headers: { Authorization: `Bearer ${keys.jwt}` } });
    expect(history.status).toBe(200);
    expect(history.headers.get("Wfkit-Sample-Data")).toBe("true");
    // The same answer from a service in this process: the data set is deterministic.
    const here = await signalsServer();
    try {
      expect(await history.json()).toEqual((await here.call("GET", "/api/history?from=2025-01-01&to=2025-12-31")).body);
    } finally {
      await here.stop();
    }
    const view = await fetch(`${signalsBaseUrl}/api/views`, { method: "POST", headers: { "X-Alert-Token": keys.alertToken!, "Content-Type": "application/json" }, body: JSON.stringify({ name: "v", geography: "US", driver_ids: [], question: "q" }) });
    expect(view.status).toBe(201);
    const listed = await fetch(`${signalsBaseUrl}/api/views`, { headers: { "X-Alert-Token": keys.alertToken! } });
    expect(((await listed.json()) as { id: string }[]).map((v) => v.id)).toEqual([((await view.json()) as { id: string }).id]);
  });

  it("serves every endpoint", async () => {
    const { baseUrl } = server;
    const read = key("read");
    const write = key("write");
    expect((await http(baseUrl, "GET", `${V1}/catalogue/parts`, read)).body.parts.length).toBeGreaterThan(0);
    const safe = (await http(baseUrl, "GET", `${V1}/catalogue/parts?unattendedSafe=1`, read)).body.parts;
    expect(safe.every((part: { unattendedSafe: boolean }) => part.unattendedSafe)).toBe(true);
    const resolved = (await http(baseUrl, "POST", `${V1}/catalogue/resolve-subjects`, read, { hints: ["WMT", "plc"] })).body;
    expect(resolved.subjects.map((s: { canonicalId: string }) => s.canonicalId)).toEqual(["cmp_wmt"]);
    expect(resolved.unresolved[0].reason).toBe("ambiguous");
    const grocer = example("grocer-compare");
    expect((await http(baseUrl, "POST", `${V1}/catalogue/validate-definition`, read, { definition: grocer })).body).toMatchObject({ ok: true, estimate: validateDefinition(grocer).estimate });
    expect((await http(baseUrl, "POST", `${V1}/catalogue/validate-definition`, read, { definition: { schemaVersion: 1, nodes: [], edges: [] } })).status).toBe(400);
    expect((await http(baseUrl, "GET", `${V1}/templates`, read)).body.some((t: { id: string }) => t.id === "grocer-compare")).toBe(true);

    const created = await http(baseUrl, "POST", V1, write, { name: "grocers" });
    expect(created.status).toBe(201);
    const wf = created.body.workflow.id as string;
    expect((await http(baseUrl, "POST", `${V1}/${wf}/versions`, write, { scope: { graph: { schemaVersion: 1, nodes: [], edges: [] } } })).status).toBe(400);
    const version = await http(baseUrl, "POST", `${V1}/${wf}/versions`, write, { scope: { graph: grocer } });
    expect(version.status).toBe(201);
    expect((await http(baseUrl, "POST", `${V1}/${wf}/versions/${version.body.version.id}/publish`, write)).body.ok).toBe(true);

    const started = await http(baseUrl, "POST", `${V1}/${wf}/run`, write, { question: "Who wins on price?" }, { "Idempotency-Key": "every-endpoint" });
    expect(started.body).toMatchObject({ ok: true, host: "workflow_run", estimate: { costMinorUnits: validateDefinition(grocer).estimate.costMinorUnits } });
    const done = await pollUntil(baseUrl, wf, started.body.runId, ["succeeded", "failed"]);
    expect(done.state).toBe("succeeded");
    expect(done.childRuns.length).toBe(2);

    const weak = await http(baseUrl, "POST", `${V1}/${wf}/run`, write, {}, { "Wfkit-Mock-Case": "weak" });
    await pollUntil(baseUrl, wf, weak.body.runId, ["held"]);
    expect((await http(baseUrl, "GET", `${V1}/runs?state=open`, write)).body.runs.map((r: { runId: string }) => r.runId)).toEqual([weak.body.runId]);
    const delivered = await http(baseUrl, "POST", `${V1}/${wf}/runs/${weak.body.runId}/deliver`, write);
    expect(delivered.body).toMatchObject({ ok: true, run: { state: "succeeded" } });

    const review = await publishedWorkflow(baseUrl, write, example("analyst-review"));
    const cancelMe = await http(baseUrl, "POST", `${V1}/${review}/run`, write, {});
    const cancelled = await http(baseUrl, "POST", `${V1}/${review}/runs/${cancelMe.body.runId}/cancel`, write);
    expect(cancelled.body).toMatchObject({ ok: true, run: { state: "cancelled" } });
    expect((await http(baseUrl, "GET", `${V1}/${wf}/runs`, read)).body.runs).toHaveLength(2);
    expect((await http(baseUrl, "GET", `${V1}/runs?state=terminal`, read)).body.runs).toHaveLength(3);
    expect((await http(baseUrl, "GET", `${V1}/${review}/runs/${cancelMe.body.runId}`, key("bob"))).status).toBe(200);
  });

  it("answers every row of the error table with its code and body shape", async () => {
    const { baseUrl, adminToken } = server;
    const admin = (p: string, body: unknown) => http(baseUrl, "POST", `/__admin${p}`, adminToken, body);
    const parts = `${V1}/catalogue/parts`;
    const expectError = async (reply: Promise<{ status: number; body: any }>, status: number, fields: Record<string, unknown>) => {
      const { status: actual, body } = await reply;
      expect(actual, JSON.stringify(body)).toBe(status);
      expect(body).toMatchObject(fields);
      expect(typeof body.message).toBe("string");
    };
    await expectError(http(baseUrl, "GET", parts, null), 401, { error: "UNAUTHENTICATED" });
    await expectError(http(baseUrl, "GET", parts, "wfk_write_wrong0123456789abc"), 401, { error: "UNAUTHENTICATED" });
    await expectError(http(baseUrl, "GET", parts, key("web")), 402, { error: "plan_required", required_feature: "workflows_api" });
    await expectError(http(baseUrl, "GET", parts, key("none")), 402, { error: "plan_required", required_feature: "workflows" });
    await expectError(http(baseUrl, "POST", V1, key("read"), { name: "x" }), 403, { error: "insufficient_scope", required_scope: "write:workflows" });
    await expectError(http(baseUrl, "GET", parts, key("gated")), 403, { error: "GATE_REQUIRED" });
    await expectError(http(baseUrl, "GET", parts, key("far")), 503, { error: "workflows_unavailable" });
    await expectError(http(baseUrl, "GET", parts, key("signals")), 403, { error: "product_not_allowed" });

    const unpublished = (await http(baseUrl, "POST", V1, key("write"), { name: "draft" })).body.workflow.id;
    await expectError(http(baseUrl, "POST", `${V1}/${unpublished}/run`, key("write"), {}), 404, { error: "no_published_version" });

    const wf = await publishedWorkflow(baseUrl, key("write"), example("company-profile"));
    for (const reason of ["credit_policy_unconfigured", "platform_unavailable"]) {
      await admin("/faults", { usage: reason });
      await expectError(http(baseUrl, "POST", `${V1}/${wf}/run`, key("write"), {}), 503, { error: "research_capacity_unavailable", details: { reason } });
    }
    await admin("/faults", { usage: "up" });
    await admin("/accounts/pro", { allowanceMinorUnits: 0 });
    await expectError(http(baseUrl, "POST", `${V1}/${wf}/run`, key("write"), {}), 402, { error: "research_capacity_unavailable", details: { reason: "allowance_exhausted" } });
    await admin("/accounts/pro", { allowanceMinorUnits: 1_000_000 });

    await expectError(http(baseUrl, "POST", V1, key("write"), "{oops"), 400, { error: "malformed_json" });
    await expectError(http(baseUrl, "POST", V1, key("write"), { name: 7 }), 400, { error: "invalid_request", pointer: "/name" });
    await expectError(http(baseUrl, "POST", `${V1}/catalogue/validate-definition`, key("read"), JSON.stringify({ definition: "x".repeat(9 * 1024 * 1024) })), 413, { error: "payload_too_large" });
    await expectError(http(baseUrl, "GET", "/api/v1/nothing", key("read")), 404, { error: "route_not_found" });
    await expectError(http(baseUrl, "GET", `/__admin/state`, key("write")), 403, { error: "admin_forbidden" });

    // Revocation: honoured from the cache until the 60 s TTL, refused after it.
    await admin("/keys/bob/revoke", {});
    expect((await http(baseUrl, "GET", parts, key("bob"))).status).toBe(200);
    await admin("/clock/advance", { ms: 60_000 });
    await expectError(http(baseUrl, "GET", parts, key("bob")), 401, { error: "UNAUTHENTICATED" });
  });

  it("makes exactly one run and one reservation from 200 simultaneous requests with one Idempotency-Key", async () => {
    const { baseUrl } = server;
    const wf = await publishedWorkflow(baseUrl, key("write"), example("company-profile"));
    const before = (await http(baseUrl, "GET", "/__admin/state", server.adminToken)).body.accounts.find((a: { id: string }) => a.id === "pro").usedMinorUnits as number;
    const replies = await Promise.all(Array.from({ length: 200 }, () => http(baseUrl, "POST", `${V1}/${wf}/run`, key("write"), { question: "same" }, { "Idempotency-Key": "storm" })));
    expect(new Set(replies.map((reply) => reply.status))).toEqual(new Set([200]));
    expect(new Set(replies.map((reply) => reply.body.runId)).size).toBe(1);
    expect((await http(baseUrl, "GET", `${V1}/${wf}/runs`, key("read"))).body.runs).toHaveLength(1);
    const after = (await http(baseUrl, "GET", "/__admin/state", server.adminToken)).body.accounts.find((a: { id: string }) => a.id === "pro").usedMinorUnits as number;
    expect(after - before).toBe(profileCost);
  });

  it("makes exactly 50 runs from 200 simultaneous requests against an allowance for 50, never overdrawing", async () => {
    const { baseUrl } = server;
    const wf = await publishedWorkflow(baseUrl, key("small"), example("company-profile"));
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => http(baseUrl, "POST", `${V1}/${wf}/run`, key("small"), {}, { "Idempotency-Key": `distinct-${i}` })));
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(ALLOWANCE_RUNS);
    expect(replies.filter((reply) => reply.status === 402 && reply.body.error === "research_capacity_unavailable")).toHaveLength(200 - ALLOWANCE_RUNS);
    const account = (await http(baseUrl, "GET", "/__admin/state", server.adminToken)).body.accounts.find((a: { id: string }) => a.id === "small");
    expect(account.usedMinorUnits).toBe(account.allowanceMinorUnits);
  });
});

describe("wfkit serve --db", () => {
  it("keeps every acknowledged run across a clean restart (SIGTERM exits 0)", async () => {
    const db = file("restart.db");
    const first = await start(["--db", db]);
    const wf = await publishedWorkflow(first.baseUrl, key("write"), example("company-profile"));
    const runIds: string[] = [];
    for (let i = 0; i < 5; i++) runIds.push((await http(first.baseUrl, "POST", `${V1}/${wf}/run`, key("write"), { question: `run ${i}` })).body.runId);
    expect(await first.stop("SIGTERM")).toBe(0);
    const second = await start(["--db", db]);
    const listed = (await http(second.baseUrl, "GET", `${V1}/${wf}/runs`, key("read"))).body.runs.map((r: { runId: string }) => r.runId);
    expect(listed.sort()).toEqual([...runIds].sort());
    // Runs that were open when it stopped carry on after the restart.
    for (const runId of runIds) expect((await pollUntil(second.baseUrl, wf, runId, ["succeeded"])).state).toBe("succeeded");
    await second.stop();
  });

  it("holds every acknowledged write after kill -9 in the middle of a stream of writes", async () => {
    const db = file("crash.db");
    const first = await start(["--db", db]);
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async () => {
      while (!stop) {
        try {
          const reply = await http(first.baseUrl, "POST", V1, key("write"), { name: `w${acknowledged.length}` });
          if (reply.status === 201) acknowledged.push(reply.body.workflow.id);
        } catch {
          return; // the connection died with the process: not acknowledged
        }
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    while (acknowledged.length < 150) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill("SIGKILL");
    stop = true;
    await Promise.all(writers);
    await first.stop();
    const second = await start(["--db", db]);
    for (const wf of acknowledged) expect((await http(second.baseUrl, "GET", `${V1}/${wf}/runs`, key("read"))).status, wf).toBe(200);
    await second.stop();
  });

  it("refuses a database from a newer wfkit with a clear message (exit 2)", async () => {
    const { Store } = await import("../src/index.js");
    const db = file("newer.db");
    const store = await Store.open(db);
    store.transaction(() => store.run("UPDATE meta SET value = '999' WHERE key = 'schema_version'"));
    store.close();
    const result = runCli(["serve", "--port", "0", "--db", db]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/schema version 999, written by a newer wfkit.*Upgrade wfkit, or give another --db file/);
    expect(readFileSync(db).length).toBeGreaterThan(0);
  });
});

describe("wfkit serve's files and flags", () => {
  it("takes the AI endpoints' limit from --signals-ai-limit, and keeps a fixed alert token known across a restart", async () => {
    const db = file("signals.db");
    const served = await start(["--signals-ai-limit", "2/60s", "--db", db]);
    const ask = () => http(served.signalsBaseUrl, "POST", "/api/analyze", served.keys.jwt, {});
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("X-RateLimit-Limit")).toBe("2");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await served.stop("SIGTERM")).toBe(0);
    const reopened = await start(["--db", db]);
    expect(reopened.keys.alertToken).toBe(`wfat_${secret("alert")}`);
    expect((await http(reopened.signalsBaseUrl, "GET", "/api/alerts", null, undefined, { "X-Alert-Token": reopened.keys.alertToken! })).status).toBe(200);
    // The default limit again: not kept in the database.
    for (let i = 0; i < 10; i++) expect((await http(reopened.signalsBaseUrl, "POST", "/api/analyze", reopened.keys.jwt, {})).status).toBe(200);
    expect((await http(reopened.signalsBaseUrl, "POST", "/api/analyze", reopened.keys.jwt, {})).status).toBe(429);
    await reopened.stop();
  });

  it("prints the base URL, the persistence mode and the seeded keys for people, serves --catalogue's subjects, and stops on SIGINT", async () => {
    const catalogue = { ...defaultCatalogue, subjects: [{ canonicalId: "cmp_acme", kind: "company", label: "Acme Foods plc", identifiers: [{ type: "ticker", value: "ACME.L" }] }] };
    writeFileSync(file("catalogue.json"), JSON.stringify(catalogue));
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--catalogue", "catalogue.json"], { cwd: directory, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        if (stdout.includes("Stop with Ctrl-C.")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`exited with ${code}: ${stdout}`)));
    });
    const baseUrl = /the Workflows API at (http:\/\/127\.0\.0\.1:\d+) \(its routes under \/api\/v1\)/.exec(stdout)?.[1];
    expect(baseUrl).toBeDefined();
    expect(stdout).toMatch(/data: +in memory/);
    expect(stdout).toContain(`Consumer Signals API (SAMPLE data) at ${baseUrl}/signals (its routes under /api); AI endpoints limited to 10 per 1 min per user`);
    expect(stdout).toMatch(/signals JWT \(12 hours\): [\w-]+\.[\w-]+\.[\w-]+\n/);
    expect(stdout).toMatch(/alert token: wfat_\w+/);
    expect(stdout).toMatch(/admin token: wfa_/);
    const readKey = /read +(wfk_read_\S+)/.exec(stdout)?.[1];
    expect(stdout).toMatch(/write +wfk_write_\S+/);
    const resolved = await http(baseUrl!, "POST", `${V1}/catalogue/resolve-subjects`, readKey!, { hints: ["ACME", "TSCO"] });
    expect(resolved.body.subjects.map((s: { canonicalId: string }) => s.canonicalId)).toEqual(["cmp_acme"]);
    expect(resolved.body.unresolved).toEqual([{ hint: "TSCO", reason: "not_found" }]);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });

  it("reports a bad seed or mock file with its place, exit 2", () => {
    writeFileSync(file("bad-seed.json"), JSON.stringify({ accounts: [{ id: "a", plan: "gold" }], users: [] }));
    const seedResult = runCli(["serve", "--port", "0", "--seed", file("bad-seed.json")]);
    expect(seedResult.status).toBe(2);
    expect(seedResult.stderr).toMatch(/bad-seed.json is not valid: \/accounts\/0\/plan: must be equal to one of the allowed values \(starter, browser, professional, enterprise\); \/users: /);
    expect(seedResult.stderr.trimEnd().split("\n")).toHaveLength(1);
    writeFileSync(file("bad-mocks.json"), JSON.stringify({ cases: { a: { parts: { pack: { "1": { value: { wrong: 1 } } } } } } }));
    const mockResult = runCli(["serve", "--port", "0", "--mocks", file("bad-mocks.json")]);
    expect(mockResult.status).toBe(2);
    expect(mockResult.stderr).toMatch(/\/cases\/a\/parts\/pack\/1: part `pack` produces `pack.report`/);
    expect(runCli(["serve", "--port", "x"]).status).toBe(2);
    const limit = runCli(["serve", "--port", "0", "--signals-ai-limit", "ten a minute"]);
    expect(limit.status).toBe(2);
    expect(limit.stderr).toMatch(/--signals-ai-limit: `ten a minute` is not a limit; write MAX\/WINDOW/);
    const missing = runCli(["serve", "--port", "0", "--db", file("no/such/dir/service.db")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/cannot use .*service\.db as the database: its directory does not exist/);
  });
});
