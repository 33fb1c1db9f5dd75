/**
 * The client against the service app in-process (a `fetch` that calls `app.request`): every
 * endpoint, every row of the error table, and the retry rules with injected faults.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Clock, createApp, WorkflowsService, type MockFile } from "../../service/src/index.js";
import { backoffDelay, DEFAULT_RETRY, WorkflowsApiError, WorkflowsClient, WorkflowsNetworkError, type FetchLike, type Timing } from "../src/index.js";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const example = (name: string) => JSON.parse(readFileSync(`${repoRoot}examples/${name}.json`, "utf8")) as Record<string, unknown>;
const WEAK_COMPARE: MockFile = { delayMs: 10, cases: { default: { parts: { "terminal.compare": { "1": { belowFloor: { "terminal.result": { score: 0.2 } } } } } } } };

/** A service on a manual clock, and clients whose sleeps move that clock instead of waiting. */
async function setup(mocks: MockFile = { delayMs: 10 }) {
  const clock = new Clock("manual");
  const service = await WorkflowsService.create({ clock, mocks });
  const app = createApp(service);
  const appFetch: FetchLike = (input, init) => Promise.resolve(app.request(input, init));
  const key = (role: "read" | "write") => service.issuedKeys.find((k) => k.role === role)!.key;
  const sleeps: number[] = [];
  const timing: Timing = {
    now: () => clock.now(),
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
    },
  };
  const client = (credential = key("write"), fetch: FetchLike = appFetch, debug?: (line: string) => void) =>
    new WorkflowsClient({ baseUrl: "http://service.test", credential, fetch, timing, ...(debug ? { debug } : {}) });
  const admin = (path: string, body: unknown = {}) =>
    app.request(`/__admin${path}`, { method: "POST", headers: { Authorization: `Bearer ${service.adminToken}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { service, clock, client, key, admin, appFetch, sleeps };
}

async function refusal(promise: Promise<unknown>): Promise<WorkflowsApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkflowsApiError);
  return error as WorkflowsApiError;
}

describe("every endpoint through the client", () => {
  it("catalogue, subjects, validation, templates", async () => {
    const { client, key } = await setup();
    const api = client(key("read"));
    const parts = await api.parts();
    expect(parts.catalogueVersion).toBe(1);
    expect(parts.parts.map((p) => p.partId)).toContain("terminal.compare");
    const safe = await api.parts({ unattendedSafe: true });
    expect(safe.parts.length).toBeLessThan(parts.parts.length);
    expect(safe.parts.every((p) => p.unattendedSafe)).toBe(true);
    const resolved = await api.resolveSubjects(["TSCO", "zzz-no-such-company"]);
    expect(resolved.subjects.map((s) => s.canonicalId)).toEqual(["cmp_tesco"]);
    expect(resolved.unresolved).toEqual([{ hint: "zzz-no-such-company", reason: "not_found" }]);
    const valid = await api.validateDefinition(example("grocer-compare"));
    expect(valid.ok).toBe(true);
    expect(valid.estimate.costMinorUnits).toBeGreaterThan(0);
    const invalid = await refusal(api.validateDefinition({ schemaVersion: 1, nodes: [{ id: "x", kind: "gate", belowFloor: "hold" }], edges: [] }));
    expect(invalid.kind).toBe("validation_failed");
    expect(invalid.status).toBe(400);
    expect(invalid.faults!.length).toBeGreaterThan(0);
    expect(invalid.retryable).toBe(false);
    const templates = await api.templates();
    expect(templates.map((t) => t.id)).toContain("grocer-compare");
  });

  it("create, save, publish, run, poll, list, deliver, cancel", async () => {
    const { client, clock } = await setup(WEAK_COMPARE);
    const api = client();
    const { workflow } = await api.createWorkflow("grocers");
    expect(workflow.name).toBe("grocers");
    const { version } = await api.saveVersion(workflow.id, { scope: { graph: example("grocer-compare") } });
    expect(version.published).toBe(false);
    const published = await api.publish(workflow.id, version.id);
    expect(published.workflow.publishedVersionId).toBe(version.id);
    const started = await api.startRun(workflow.id, { question: "who is cheaper?" });
    expect(started.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(started.replayed).toBe(false);
    expect(started.estimate.costMinorUnits).toBe(version.estimate.costMinorUnits);
    const seen: string[] = [];
    const held = await api.waitForRun(workflow.id, started.runId, { onProgress: (run) => seen.push(run.state) });
    expect(held.state).toBe("held");
    expect(seen.length).toBeGreaterThan(1);
    expect(held.childRuns.map((c) => c.partId)).toEqual(["terminal.compare", "pack"]);
    expect((await api.run(workflow.id, started.runId)).state).toBe("held");
    expect((await api.runs("open")).runs.map((r) => r.runId)).toEqual([started.runId]);
    const delivered = await api.deliver(workflow.id, started.runId);
    expect(delivered.ok).toBe(true);
    clock.advance(100);
    expect((await api.run(workflow.id, started.runId)).state).toBe("succeeded");
    expect((await api.runs("terminal")).runs.map((r) => r.runId)).toEqual([started.runId]);
    const second = await api.startRun(workflow.id);
    const cancelled = await api.cancel(workflow.id, second.runId);
    expect(cancelled.run.state).toBe("cancelled");
    expect((await api.workflowRuns(workflow.id)).runs).toHaveLength(2);
  });

  it("a start with the same key is the same run, marked replayed", async () => {
    const { client, service } = await setup();
    const api = client();
    const { workflow } = await api.createWorkflow("w");
    const { version } = await api.saveVersion(workflow.id, { scope: { graph: example("grocer-compare") } });
    await api.publish(workflow.id, version.id);
    const first = await api.startRun(workflow.id, { idempotencyKey: "key-1" });
    const again = await api.startRun(workflow.id, { idempotencyKey: "key-1" });
    expect(again.runId).toBe(first.runId);
    expect(again.replayed).toBe(true);
    expect(service.ownedRuns("usr_owner", "all").runs).toHaveLength(1);
  });
});

describe("the error table as typed values", () => {
  it("one kind per row, with the fields a caller acts on", async () => {
    const { client, key, admin } = await setup();
    const api = client();
    const { workflow } = await api.createWorkflow("w");

    const unauthenticated = await refusal(client("wfk_nobody_secret").parts());
    expect([unauthenticated.status, unauthenticated.kind]).toEqual([401, "unauthenticated"]);

    const scope = await refusal(client(key("read")).createWorkflow("x"));
    expect([scope.status, scope.kind, scope.requiredScope]).toEqual([403, "insufficient_scope", "write:workflows"]);

    const unpublished = await refusal(api.startRun(workflow.id));
    expect([unpublished.status, unpublished.kind]).toEqual([404, "no_published_version"]);

    const { version } = await api.saveVersion(workflow.id, { scope: { graph: example("grocer-compare") } });
    await api.publish(workflow.id, version.id);

    await admin("/accounts/acct_default", { allowanceMinorUnits: 1 });
    const exhausted = await refusal(api.startRun(workflow.id));
    expect([exhausted.status, exhausted.kind, exhausted.reason, exhausted.retryable]).toEqual([402, "allowance_exhausted", "allowance_exhausted", false]);
    await admin("/accounts/acct_default", { allowanceMinorUnits: 100_000 });

    await admin("/faults", { usage: "platform_unavailable" });
    const outage = await refusal(client(key("write")).startRun(workflow.id));
    expect([outage.status, outage.kind, outage.reason, outage.retryable]).toEqual([503, "usage_unavailable", "platform_unavailable", true]);
    await admin("/faults", { usage: "up" });

    await admin("/accounts/acct_default", { acceptanceOutstanding: true });
    const gate = await refusal(api.parts());
    expect([gate.status, gate.kind]).toEqual([403, "gate_required"]);
    await admin("/accounts/acct_default", { acceptanceOutstanding: false });

    await admin("/accounts/acct_default", { region: "ap" });
    const region = await refusal(api.parts());
    expect([region.status, region.kind]).toEqual([503, "workflows_unavailable"]);
    await admin("/accounts/acct_default", { region: "eu" });

    const other = await refusal(api.run("wf_missing", "run_missing"));
    expect([other.status, other.kind, other.code]).toEqual([404, "other", "workflow_not_found"]);

    await admin("/accounts/acct_default", { plan: "browser" });
    const plan = await refusal(api.parts());
    expect([plan.status, plan.kind, plan.requiredFeature]).toEqual([402, "plan_required", "workflows_api"]);
  });
});

describe("retries", () => {
  it("backoff grows, is capped, and keeps jitter within its step", () => {
    const waits = [0, 1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffDelay(DEFAULT_RETRY, attempt, 0.999));
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(Math.max(...waits)).toBeLessThanOrEqual(DEFAULT_RETRY.maxDelayMs);
    expect(backoffDelay(DEFAULT_RETRY, 2, 0)).toBe(DEFAULT_RETRY.baseDelayMs * 2);
  });

  it("503 research_capacity_unavailable on run start, then success: retried, one run", async () => {
    const { client, admin, service, sleeps, appFetch } = await setup();
    const api = client();
    const { workflow } = await api.createWorkflow("w");
    const { version } = await api.saveVersion(workflow.id, { scope: { graph: example("grocer-compare") } });
    await api.publish(workflow.id, version.id);
    await admin("/faults", { usage: "credit_policy_unconfigured" });
    let starts = 0;
    // The usage system comes back after the second refused start.
    const flaky: FetchLike = async (input, init) => {
      const response = await appFetch(input, init);
      if (input.endsWith("/run") && ++starts === 2) await admin("/faults", { usage: "up" });
      return response;
    };
    const started = await client(undefined, flaky).startRun(workflow.id);
    expect(starts).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]!).toBeGreaterThan(sleeps[0]!);
    expect(service.ownedRuns("usr_owner", "all").runs.map((r) => r.runId)).toEqual([started.runId]);
  });

  it("a network drop after the start was sent: retried with the same key, exactly one run", async () => {
    const { client, service, appFetch } = await setup();
    const api = client();
    const { workflow } = await api.createWorkflow("w");
    const { version } = await api.saveVersion(workflow.id, { scope: { graph: example("grocer-compare") } });
    await api.publish(workflow.id, version.id);
    const keys: (string | null)[] = [];
    let dropped = false;
    const dropping: FetchLike = async (input, init) => {
      if (input.endsWith("/run")) keys.push(new Headers(init.headers).get("Idempotency-Key"));
      const response = await appFetch(input, init);
      if (input.endsWith("/run") && !dropped) {
        dropped = true; // the service started the run; the answer is lost on the way back
        throw new TypeError("fetch failed");
      }
      return response;
    };
    const started = await client(undefined, dropping).startRun(workflow.id);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[0]).toBe(started.idempotencyKey);
    expect(started.replayed).toBe(true);
    expect(service.ownedRuns("usr_owner", "all").runs).toHaveLength(1);
  });

  it("4xx answers are never retried; a lost answer to a non-repeatable write is not resent", async () => {
    const { client, key, appFetch } = await setup();
    let calls = 0;
    const counting: FetchLike = (input, init) => (calls++, appFetch(input, init));
    await refusal(client(key("read"), counting).createWorkflow("x"));
    expect(calls).toBe(1);
    let sends = 0;
    const down: FetchLike = () => (sends++, Promise.reject(new TypeError("fetch failed")));
    await expect(client(undefined, down).createWorkflow("x")).rejects.toBeInstanceOf(WorkflowsNetworkError);
    expect(sends).toBe(1);
  });

  it("network failures on reads stop at the time budget", async () => {
    const { client, sleeps } = await setup();
    let sends = 0;
    const down: FetchLike = () => (sends++, Promise.reject(new TypeError("fetch failed")));
    await expect(client(undefined, down).parts()).rejects.toBeInstanceOf(WorkflowsNetworkError);
    expect(sends).toBeGreaterThan(2);
    expect(sends).toBeLessThanOrEqual(DEFAULT_RETRY.maxAttempts);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(DEFAULT_RETRY.budgetMs);
  });

  it("an aborted signal stops retries and polling", async () => {
    const { client } = await setup();
    const controller = new AbortController();
    controller.abort();
    await expect(client().parts({ signal: controller.signal })).rejects.toMatchObject({ kind: "aborted" });
    await expect(client().waitForRun("w", "r", { signal: controller.signal })).rejects.toMatchObject({ kind: "aborted" });
  });
});

describe("credentials", () => {
  it("never in debug lines or error messages", async () => {
    const { client, key } = await setup();
    const secret = key("write");
    const lines: string[] = [];
    const leaky: FetchLike = () => Promise.reject(new TypeError(`connect failed for Bearer ${secret}`));
    const error = await client(secret, leaky, (line) => lines.push(line))
      .createWorkflow("x")
      .catch((e: unknown) => e as Error);
    await client(secret, undefined, (line) => lines.push(line)).parts();
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join("\n")).not.toContain(secret);
    expect((error as Error).message).toContain("[redacted]");
    expect((error as Error).message).not.toContain(secret);
  });
});
