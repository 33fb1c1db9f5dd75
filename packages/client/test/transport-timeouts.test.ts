/**
 * Timeouts, for both clients: a server that accepts and never answers, one that sends headers
 * and stalls, one that stalls a refusal's body; what is retried after a timeout (reads, a run
 * start with the same Idempotency-Key) and what is not (creating a workflow, a view); that a
 * call with retries ends within the larger of the timeout and the retry budget; that every
 * retry is announced; that a refused connection says so; and that the caller's own abort is
 * still an abort. Real HTTP on 127.0.0.1; every wait in these tests is bounded.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEFAULT_TIMEOUT_MS,
  SignalsClient,
  SignalsNetworkError,
  WorkflowsClient,
  WorkflowsNetworkError,
  type RetryNotice,
  type RetryPolicy,
} from "../src/index.js";
import { closedPort, json, startHostileServer, type HostileServer } from "../../../test/support/hostile-server.js";

const SECRET = "wfk_secret_0123456789";
const JWT = "jwt-secret-abcdef";
const ALERT_TOKEN = "alert-secret-xyz";
const TIMEOUT = 250;
const RETRY: Partial<RetryPolicy> = { baseDelayMs: 1, maxDelayMs: 5, budgetMs: 1_000, maxAttempts: 2 };

let server: HostileServer;
beforeEach(async () => {
  server = await startHostileServer();
});
afterEach(async () => {
  await server.close();
});

const never = () => server.handle(() => undefined);
const stallAfterHeaders = (status = 200) =>
  server.handle((_request, response) => {
    response.writeHead(status, { "Content-Type": "application/json" });
    response.write('{"runs": [');
  });

function workflows(options: { retry?: Partial<RetryPolicy>; onRetry?: (notice: RetryNotice) => void; baseUrl?: string } = {}) {
  return new WorkflowsClient({ baseUrl: options.baseUrl ?? server.url, credential: SECRET, timeoutMs: TIMEOUT, retry: options.retry ?? RETRY, ...(options.onRetry ? { onRetry: options.onRetry } : {}) });
}
function signals(options: { retry?: Partial<RetryPolicy>; onRetry?: (notice: RetryNotice) => void } = {}) {
  return new SignalsClient({ baseUrl: server.url, jwt: JWT, alertToken: ALERT_TOKEN, timeoutMs: TIMEOUT, retry: options.retry ?? RETRY, aiLimit: false, ...(options.onRetry ? { onRetry: options.onRetry } : {}) });
}

async function timed(promise: Promise<unknown>): Promise<{ error: Error & { kind?: string; reason?: string }; ms: number }> {
  const start = Date.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").toBeInstanceOf(Error);
  return { error: error as Error & { kind?: string; reason?: string }, ms: Date.now() - start };
}

describe("a server that accepts and never answers", () => {
  const CALLS: [string, () => Promise<unknown>, "retried" | "once"][] = [
    ["Workflows read", () => workflows().runs(), "retried"],
    ["Workflows run start", () => workflows().startRun("wf_1", { idempotencyKey: "key-1" }), "retried"],
    ["Workflows create", () => workflows().createWorkflow("x"), "once"],
    ["Workflows deliver", () => workflows().deliver("wf_1", "run_1"), "once"],
    ["Signals read (JWT)", () => signals().history(), "retried"],
    ["Signals read (alert token)", () => signals().views(), "retried"],
    ["Signals view create", () => signals().createView({ name: "E", geography: "US", driver_ids: ["energy"], question: "q" }), "once"],
    ["Signals AI", () => signals().analyze({ question: "why?" }), "once"],
  ];
  for (const [name, call, retried] of CALLS)
    it(`${name}: times out${retried === "retried" ? ", tried again" : ", sent once"}`, async () => {
      never();
      const { error, ms } = await timed(call());
      expect(error).toBeInstanceOf(name.startsWith("Workflows") ? WorkflowsNetworkError : SignalsNetworkError);
      expect(error).toMatchObject({ kind: "network", reason: "timeout" });
      expect(error.message).toMatch(/: timed out: nothing more within 0\.\d+ s/);
      expect(server.log).toHaveLength(retried === "retried" ? 2 : 1);
      expect(ms).toBeLessThan(TIMEOUT * 2 + 1_500);
    });

  it("a run start timed out is sent again with the same Idempotency-Key, and its answer taken", async () => {
    server.handle((request, response) => {
      if (server.log.length === 1) return; // the first start gets no answer
      json(response, { ok: true, runId: "run_1", host: "workflow_run", estimate: { costMinorUnits: 5 } });
    });
    const started = await workflows().startRun("wf_1", { idempotencyKey: "key-1" });
    expect(started.runId).toBe("run_1");
    expect(server.log.map((entry) => entry.headers["idempotency-key"])).toEqual(["key-1", "key-1"]);
  });

  it("a call ends within the larger of the timeout and the retry budget, however many attempts it may make", async () => {
    never();
    const { error, ms } = await timed(workflows({ retry: { baseDelayMs: 1, maxDelayMs: 5, budgetMs: 900, maxAttempts: 100 } }).runs());
    expect(error).toMatchObject({ reason: "timeout" });
    expect(server.log.length).toBeGreaterThanOrEqual(3);
    expect(ms).toBeGreaterThanOrEqual(850);
    expect(ms).toBeLessThan(900 + 600);
    // The last attempt had only what was left of the budget.
    expect(error.message).toContain("(what was left of the call's budget)");
  });

  it("every retry is announced before its wait, with what failed", async () => {
    never();
    const notices: RetryNotice[] = [];
    await timed(signals({ retry: { ...RETRY, maxAttempts: 3 }, onRetry: (notice) => notices.push(notice) }).cpix());
    expect(notices.map((notice) => notice.attempt)).toEqual([2, 3]);
    for (const notice of notices) {
      expect(notice.request).toBe("GET /api/cpix");
      expect(notice.message).toContain(`no answer from ${server.url} to GET /api/cpix: timed out`);
      expect(notice.delayMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("the caller's abort is an abort, not a timeout, and ends the request at once", async () => {
    never();
    const controller = new AbortController();
    const client = new WorkflowsClient({ baseUrl: server.url, credential: SECRET, timeoutMs: 10_000, retry: RETRY });
    setTimeout(() => controller.abort(), 50);
    const { error, ms } = await timed(client.runs("all", { signal: controller.signal }));
    expect(error).toMatchObject({ kind: "aborted" });
    expect(ms).toBeLessThan(2_000);
  });
});

describe("a server that sends headers and stalls", () => {
  it("the timeout covers the body: a stalled answer times out (reads are tried again)", async () => {
    stallAfterHeaders();
    const { error } = await timed(workflows().runs());
    expect(error).toMatchObject({ kind: "network", reason: "timeout" });
    expect(error.message).toContain("the answer stalled: nothing more within");
    expect(server.log).toHaveLength(2);
    stallAfterHeaders();
    const signal = await timed(signals().views());
    expect(signal.error).toMatchObject({ kind: "network", reason: "timeout" });
  });

  it("so does a refusal whose body stalls", async () => {
    stallAfterHeaders(404);
    const { error } = await timed(workflows({ retry: { ...RETRY, maxAttempts: 1 } }).run("wf_1", "run_1"));
    expect(error).toMatchObject({ kind: "network", reason: "timeout" });
  });

  it("a body that trickles a byte at a time still ends at the timeout", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      const timer = setInterval(() => response.write(" "), 20);
      response.on("close", () => clearInterval(timer));
    });
    const { error, ms } = await timed(workflows({ retry: { ...RETRY, maxAttempts: 1 } }).runs());
    expect(error).toMatchObject({ reason: "timeout" });
    expect(ms).toBeLessThan(TIMEOUT + 1_000);
  });
});

describe("a connection refused", () => {
  it("says so (ECONNREFUSED) from the first retry on, and is tried again where safe", async () => {
    const port = await closedPort();
    const notices: RetryNotice[] = [];
    const { error } = await timed(workflows({ baseUrl: `http://127.0.0.1:${port}`, retry: { ...RETRY, maxAttempts: 3 }, onRetry: (notice) => notices.push(notice) }).runs());
    expect(error).toMatchObject({ kind: "network", reason: "refused" });
    expect(error.message).toBe(`no answer from http://127.0.0.1:${port} to GET /api/v1/workflows/runs?state=all: connection refused (ECONNREFUSED): nothing listens at that address`);
    expect(notices).toHaveLength(2);
    expect(notices[0]!.message).toContain("connection refused (ECONNREFUSED)");
  });
});

describe("the defaults", () => {
  it("30 s per request", () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
  });

  it("a timeout too long for a timer is as long as a timer allows, not zero", async () => {
    server.handle((_request, response) => setTimeout(() => json(response, { runs: [] }), 100));
    const client = new WorkflowsClient({ baseUrl: server.url, credential: SECRET, timeoutMs: 1e12, retry: { maxAttempts: 1 } });
    expect(await client.runs()).toEqual({ runs: [] });
  });

  it("an answer that arrives in pieces within the timeout is taken", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.write('{"runs": []');
      setTimeout(() => response.end("}"), 50);
    });
    expect(await workflows().runs()).toEqual({ runs: [] });
  });
});
