/**
 * Redirects, for both clients and every credential: a redirect to another origin is refused
 * (naming both origins) and the other origin hears nothing, whatever the status; a POST or
 * DELETE is never sent again after a redirect; a GET may follow a few redirects within its
 * origin. Real HTTP on 127.0.0.1, two servers: the service (A) and another origin (B).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_REDIRECTS, SignalsClient, SignalsProtocolError, WorkflowsClient, WorkflowsProtocolError } from "../src/index.js";
import { json, startHostileServer, type HostileServer } from "../../../test/support/hostile-server.js";

const SECRET = "wfk_secret_0123456789";
const JWT = "jwt-secret-abcdef";
const ALERT_TOKEN = "alert-secret-xyz";
const FAST = { baseDelayMs: 1, maxDelayMs: 2, budgetMs: 2_000, maxAttempts: 3 };
const STATUSES = [301, 302, 303, 307, 308] as const;
const VIEW = { id: "view_1", name: "Energy", geography: "US", driver_ids: ["energy"], question: "Still rising?" };
const RUNS = { runs: [{ runId: "run_1", workflowId: "wf_1", state: "succeeded", createdAt: "2025-01-01T00:00:00Z", question: null }] };

let a: HostileServer;
let b: HostileServer;
beforeEach(async () => {
  a = await startHostileServer();
  b = await startHostileServer((_request, response) => json(response, { ok: true, runId: "run_evil", host: "workflow_run", estimate: { costMinorUnits: 1 } }));
});
afterEach(async () => {
  await a.close();
  await b.close();
});

const workflows = (baseUrl: string) => new WorkflowsClient({ baseUrl, credential: SECRET, retry: FAST });
const signals = (baseUrl: string) => new SignalsClient({ baseUrl, jwt: JWT, alertToken: ALERT_TOKEN, retry: FAST, aiLimit: false });

/** Every kind of request both clients send, with the credential header it carries. */
const CALLS: { name: string; method: string; header: string; send: (baseUrl: string) => Promise<unknown> }[] = [
  { name: "Workflows GET (bearer)", method: "GET", header: "authorization", send: (url) => workflows(url).runs() },
  { name: "Workflows run start (bearer, body, Idempotency-Key)", method: "POST", header: "authorization", send: (url) => workflows(url).startRun("wf_1", { question: "q", idempotencyKey: "key-1" }) },
  { name: "Workflows create (bearer, body)", method: "POST", header: "authorization", send: (url) => workflows(url).createWorkflow("grocers") },
  { name: "Signals data GET (JWT)", method: "GET", header: "authorization", send: (url) => signals(url).cpix() },
  { name: "Signals views GET (X-Alert-Token)", method: "GET", header: "x-alert-token", send: (url) => signals(url).views() },
  { name: "Signals view create (X-Alert-Token, body)", method: "POST", header: "x-alert-token", send: (url) => signals(url).createView({ name: "Energy", geography: "US", driver_ids: ["energy"], question: "Still rising?" }) },
  { name: "Signals view delete (X-Alert-Token)", method: "DELETE", header: "x-alert-token", send: (url) => signals(url).deleteView("view_1") },
  { name: "Signals AI (JWT, body)", method: "POST", header: "authorization", send: (url) => signals(url).analyze({ question: "why?" }) },
];

async function failure(promise: Promise<unknown>): Promise<Error & { kind?: string; reason?: string; retryable?: boolean }> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, "the call should have failed").toBeInstanceOf(Error);
  return outcome as Error & { kind?: string; reason?: string };
}

describe("a redirect to another origin is refused, and that origin hears nothing", () => {
  for (const status of STATUSES)
    for (const call of CALLS)
      it(`${status} on ${call.name}`, async () => {
        a.handle((request, response) => {
          response.writeHead(status, { Location: `${b.url}${request.url}` });
          response.end();
        });
        const error = await failure(call.send(a.url));
        expect(error).toBeInstanceOf(call.name.startsWith("Workflows") ? WorkflowsProtocolError : SignalsProtocolError);
        expect(error).toMatchObject({ kind: "bad_answer", reason: "redirect", retryable: false });
        expect(error.message).toContain(`answered ${status}, redirecting to another origin, ${b.url}`);
        expect(error.message).toContain(`the configured one (${a.url})`);
        expect(b.log).toEqual([]);
        // Sent once, with its credential, to the configured origin only; never retried.
        expect(a.log).toHaveLength(1);
        expect(a.log[0]!.method).toBe(call.method);
        expect(a.log[0]!.headers[call.header]).toContain(call.header === "authorization" ? "Bearer " : ALERT_TOKEN);
        expect(error.message).not.toContain(SECRET);
        expect(error.message).not.toContain(JWT);
        expect(error.message).not.toContain(ALERT_TOKEN);
      });
});

describe("what counts as another origin", () => {
  const elsewhere = (): [string, (url: string) => string][] => [
    ["another port", (path) => `${b.url}${path}`],
    ["another host name for the same address", (path) => `http://localhost:${a.port}${path}`],
    ["another scheme, same host and port", (path) => `https://127.0.0.1:${a.port}${path}`],
    ["a protocol-relative address", (path) => `//localhost:${a.port}${path}`],
    ["a non-HTTP scheme", () => "file:///etc/passwd"],
  ];
  it("each is refused for a GET, with the alert token", async () => {
    for (const [what, target] of elsewhere()) {
      a.log.length = 0;
      a.handle((request, response) => {
        response.writeHead(302, { Location: target(request.url) });
        response.end();
      });
      const error = await failure(signals(a.url).views());
      expect(error, what).toMatchObject({ reason: "redirect" });
      expect(error.message, what).toContain("redirecting to another origin");
      expect(a.log, what).toHaveLength(1);
    }
    expect(b.log).toEqual([]);
  });
});

describe("within the origin", () => {
  it("a GET follows a redirect (relative or absolute) and keeps its credential", async () => {
    for (const location of ["/moved/runs", `${"http://127.0.0.1"}:PORT/moved/runs`]) {
      a.log.length = 0;
      a.handle((request, response) => {
        if (request.url.startsWith("/moved/")) return json(response, RUNS);
        response.writeHead(301, { Location: location.replace("PORT", String(a.port)) });
        response.end();
      });
      expect((await workflows(a.url).runs()).runs[0]!.runId).toBe("run_1");
      expect(a.log.map((entry) => entry.url)).toEqual(["/api/v1/workflows/runs?state=all", "/moved/runs"]);
      expect(a.log[1]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    }
  });

  it("a POST or DELETE is refused, even within the origin, and sent once", async () => {
    for (const status of STATUSES) {
      a.log.length = 0;
      a.handle((_request, response) => {
        response.writeHead(status, { Location: "/elsewhere" });
        response.end();
      });
      const start = await failure(workflows(a.url).startRun("wf_1", { idempotencyKey: "key-1" }));
      expect(start.message).toContain(`answered ${status}, redirecting to /elsewhere; refused: a POST is never sent again after a redirect`);
      const del = await failure(signals(a.url).deleteView("view_1"));
      expect(del.message).toContain("a DELETE is never sent again after a redirect");
      expect(a.log.map((entry) => entry.method)).toEqual(["POST", "DELETE"]);
    }
  });

  it(`a loop ends after ${MAX_REDIRECTS} redirects`, async () => {
    a.handle((_request, response) => {
      response.writeHead(302, { Location: "/again" });
      response.end();
    });
    const error = await failure(workflows(a.url).templates());
    expect(error.message).toContain(`redirected more than ${MAX_REDIRECTS} times; refused`);
    expect(a.log).toHaveLength(MAX_REDIRECTS + 1);
  });

  it("a redirect without a Location, or with one that is no address, is refused", async () => {
    a.handle((_request, response) => {
      response.writeHead(307);
      response.end();
    });
    expect((await failure(signals(a.url).views())).message).toContain("answered 307 (a redirect) without a Location; refused");
    a.handle((_request, response) => {
      response.writeHead(302, { Location: "http://[not an address" });
      response.end();
    });
    expect((await failure(signals(a.url).views())).message).toContain("with a Location that is not an address; refused");
  });
});

describe("why: what fetch does when left to follow", () => {
  it("it carries X-Alert-Token and the body of a POST to another origin on a 307", async () => {
    a.handle((request, response) => {
      response.writeHead(307, { Location: `${b.url}${request.url}` });
      response.end();
    });
    await fetch(`${a.url}/api/views`, { method: "POST", headers: { "X-Alert-Token": ALERT_TOKEN, "Content-Type": "application/json" }, body: JSON.stringify(VIEW) });
    expect(b.log).toHaveLength(1);
    expect(b.log[0]!.headers["x-alert-token"]).toBe(ALERT_TOKEN);
    expect(JSON.parse(b.log[0]!.body)).toEqual(VIEW);
  });
});
