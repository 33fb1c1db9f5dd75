/**
 * The Consumer Signals client against the service's own API (`@wfkit/service`'s app,
 * in-process, behind a `fetch` that records each request: ../../../test/support/recording-fetch.ts):
 * every endpoint with its parameters, defaults and credential; every parameter check, made
 * before anything is sent; refusals; and the AI endpoints' shared limit, on a virtual clock
 * that is the service's clock, so its limiter and the client's waits share it. Expected data
 * is read from the sample data the service answers from.
 */
import fc from "fast-check";
import { SIGNALS_PARAMS } from "@wfkit/api";
import { afterEach, describe, expect, it } from "vitest";
import { Clock, createApp, signalsErrors, SIGNALS_BASE_PATH, WorkflowsService, type AiLimit } from "../../service/src/index.js";
import { aiAnswer, aiEventStream } from "../../service/src/signals/ai-stub.js";
import * as sample from "../../service/src/signals/sample.js";
import {
  AiRateLimiter,
  SignalsApiError,
  SignalsClient,
  SignalsNetworkError,
  SignalsProtocolError,
  SignalsRateLimitError,
  SignalsRequestError,
  type AiWait,
  type FetchLike,
  type SignalsClientOptions,
  type SignalsRequestCode,
  type Timing,
} from "../src/index.js";
import { closedPort } from "../../../test/support/hostile-server.js";
import { recordingFetch, type FailReads, type RecordedRequest } from "../../../test/support/recording-fetch.js";
import { numRuns } from "../../../test/support/num-runs.js";

const START = Date.UTC(2025, 0, 6, 9, 0, 0);
/** The client's base URL: the app answers in-process, so the host is never looked up. */
const BASE_URL = `http://signals.test${SIGNALS_BASE_PATH}`;
const AI_PATHS = ["/api/investigate", "/api/investigate/stream", "/api/analyze"];

/**
 * Virtual time on the service's manual clock: the clock moves only when every request in
 * flight has been answered and its answer handled, straight to the earliest wake-up asked
 * for, so waits never overlap a request (no latency in virtual time) and concurrent waits
 * (two clients' limiters) end in the order of their wake-up times. Waits asked for are
 * recorded; `random` plays the given values in turn.
 */
function virtualTime(clock: Clock, send: FetchLike, randoms: readonly number[] = [0.5]) {
  let inFlight = 0;
  let draws = 0;
  let driving = false;
  const sleeps: number[] = [];
  const sleepers: { wakeAt: number; resolve: () => void }[] = [];
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** Resolves once no request is in flight for a few turns of the event loop (so every answer was handled). */
  async function settle(): Promise<void> {
    let quiet = 0;
    for (let i = 0; i < 5_000 && quiet < 3; i++) {
      await tick();
      quiet = inFlight === 0 ? quiet + 1 : 0;
    }
    if (quiet < 3) throw new Error("requests still in flight after 5,000 turns of the event loop");
  }
  async function drive(): Promise<void> {
    if (driving) return;
    driving = true;
    try {
      while (sleepers.length) {
        await settle();
        sleepers.sort((a, b) => a.wakeAt - b.wakeAt);
        const next = sleepers.shift()!;
        clock.advance(next.wakeAt - clock.now());
        next.resolve();
      }
    } finally {
      driving = false;
    }
  }
  const timing: Timing = {
    now: () => clock.now(),
    random: () => randoms[draws++ % randoms.length]!,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        sleeps.push(ms);
        sleepers.push({ wakeAt: clock.now() + ms, resolve });
        void drive();
      }),
  };
  const fetch: FetchLike = async (input, init) => {
    inFlight++;
    try {
      const response = await send(input, init);
      const text = await response.text();
      return new Response(response.status === 204 ? null : text, { status: response.status, headers: response.headers });
    } finally {
      inFlight--;
    }
  };
  return { timing, fetch, sleeps, now: () => clock.now() };
}

interface ServiceOptions {
  /** The service's AI limit (default the reference's 10 per 60 s). */
  signalsAiLimit?: AiLimit;
  /** Answer GETs of a path with a status first (the recorder does, before the service). */
  failReads?: FailReads;
}

/** The service on a manual clock at START, its app behind a recording fetch, and its two credentials for one user. */
async function startService(options: ServiceOptions = {}) {
  const clock = new Clock("manual", START);
  const service = await WorkflowsService.create({ clock, ...(options.signalsAiLimit ? { signalsAiLimit: options.signalsAiLimit } : {}) });
  running.push(service);
  const app = createApp(service);
  const recorder = recordingFetch((request) => app.fetch(request), { basePath: SIGNALS_BASE_PATH, now: () => clock.now(), ...(options.failReads ? { failReads: options.failReads } : {}) });
  const { jwt, alertToken } = service.signalsCredentials();
  if (!jwt || !alertToken) throw new Error("the service's seed gave no Consumer Signals credentials");
  /** A request straight to the app, not recorded (another process). */
  const direct = (path: string, init: RequestInit = {}) => app.request(SIGNALS_BASE_PATH + path, init);
  return {
    clock,
    jwt,
    alertToken,
    log: recorder.log,
    fetch: recorder.fetch as FetchLike,
    direct,
    /** Arrivals at the AI endpoints, in order. */
    aiLog: (): RecordedRequest[] => recorder.log.filter((entry) => AI_PATHS.includes(entry.path)),
    /** Uses up the current window of the JWT's user, as another process's burst would: AI requests until one is refused. */
    async exhaust(): Promise<void> {
      for (let sent = 0; sent <= 1_000; sent++) {
        const reply = await direct("/api/analyze", { method: "POST", headers: { Authorization: `Bearer ${jwt}`, "Content-Type": "application/json" }, body: JSON.stringify({ question: "another process" }) });
        await reply.text();
        if (reply.status === 429) return;
        expect(reply.status).toBe(200);
      }
      throw new Error("the AI limit never refused");
    },
  };
}
type Served = Awaited<ReturnType<typeof startService>>;

const running: WorkflowsService[] = [];
afterEach(() => {
  for (const service of running.splice(0)) service.close();
});

async function setup(serviceOptions: ServiceOptions = {}, clientOptions: Partial<SignalsClientOptions> = {}, randoms?: number[]) {
  const service = await startService(serviceOptions);
  const time = virtualTime(service.clock, service.fetch, randoms);
  const client = (options: Partial<SignalsClientOptions> = {}) =>
    new SignalsClient({ baseUrl: BASE_URL, jwt: service.jwt, alertToken: service.alertToken, fetch: time.fetch, timing: time.timing, ...clientOptions, ...options });
  return { service, time, client, baseUrl: BASE_URL };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => error,
  );
}

describe("data endpoints", () => {
  it("each sends its path, its query with the defaults, and the JWT as Bearer only", async () => {
    const { client, service } = await setup();
    const api = client();
    const ids = (answer: { signals: { id: string }[] }) => answer.signals.map((signal) => signal.id);
    const periods = SIGNALS_PARAMS.periods.default;
    expect(ids(await api.signals())).toEqual(ids(sample.signals({ geography: "US", periods, detail: false })));
    const filtered = ids(sample.signals({ geography: "UK", severity: "medium", category: "food", periods: 3, detail: false }));
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.length).toBeLessThan(ids(sample.signals({ geography: "UK", periods: 3, detail: false })).length);
    expect(ids(await api.signals({ geography: "UK", severity: "medium", category: "food", periods: 3 }))).toEqual(filtered);
    expect(await api.cpix()).toEqual(sample.cpix("US"));
    // A `from` alone is not compared with the default `to`: the service knows its current
    // date, the client does not, so a `from` after it is sent, and the service refuses it.
    const tomorrow = sample.dateOf(START + 86_400_000);
    const late = await rejection(api.history({ from: tomorrow }));
    expect(late).toBeInstanceOf(SignalsApiError);
    expect(late).toMatchObject({ status: 400, request: "GET /api/history", body: { code: "invalid_parameter", parameter: "from" } });
    const history = await api.history({ from: "2024-01-01", to: "2024-03-01" });
    expect(history).toEqual(sample.history("US", "2024-01-01", "2024-03-01"));
    expect(history.history[0]).toEqual({ date: "2024-01-01", value: expect.any(Number) });
    expect(await api.history()).toEqual(sample.history("US", SIGNALS_PARAMS.from.default, sample.dateOf(START)));
    expect(await api.accuracy()).toEqual(sample.accuracy());
    expect(await api.briefing()).toEqual(sample.briefing("US"));
    expect(await api.importPressure("grocery")).toEqual(sample.importPressure("grocery"));
    expect(await api.census()).toEqual({ geography: "US", series: sample.census(), lastUpdated: sample.SAMPLE_AS_OF });
    expect(await api.housing()).toEqual({ housing: sample.housing() });
    expect(await api.macro()).toEqual({ macro: sample.macro() });

    const sent = service.log.map(({ method, path, query }) => `${method} ${path} ${new URLSearchParams(query).toString()}`.trim());
    expect(sent).toEqual([
      "GET /api/signals geography=US",
      "GET /api/signals geography=UK&severity=medium&category=food&periods=3",
      "GET /api/cpix geography=US",
      `GET /api/history geography=US&from=${tomorrow}`,
      "GET /api/history geography=US&from=2024-01-01&to=2024-03-01",
      "GET /api/history geography=US",
      "GET /api/signals/accuracy",
      "GET /api/briefing/latest geography=US",
      "GET /api/sectors/grocery/import-pressure geography=UK",
      "GET /api/census-marts geography=US",
      "GET /api/housing",
      "GET /api/macro",
    ]);
    expect(service.log.map((entry) => entry.status)).toEqual([200, 200, 200, 400, ...Array(8).fill(200)]);
    expect(service.log.every((entry) => entry.authorization === `Bearer ${service.jwt}` && entry.alertToken === undefined)).toBe(true);
  });

  it("a read answered 503 is tried again with backoff; a 401 is final, with its kind", async () => {
    const { client, service, time } = await setup({ failReads: { path: "/api/cpix", status: 503, times: 2 } });
    expect((await client().cpix()).summary.score).toBe(sample.cpix("US").summary.score);
    expect(service.log.map((entry) => entry.status)).toEqual([503, 503, 200]);
    expect(time.sleeps).toHaveLength(2);
    const refused = await rejection(client({ jwt: "wrong" }).signals());
    expect(refused).toBeInstanceOf(SignalsApiError);
    // The service's own refusal of that credential, asked for directly.
    const direct = (await (await service.direct("/api/signals?geography=US", { headers: { Authorization: "Bearer wrong" } })).json()) as { error: string; code: string };
    expect(direct.code).toBe("unauthenticated");
    expect(refused).toMatchObject({ status: 401, kind: "unauthenticated", retryable: false, request: "GET /api/signals", message: direct.error, body: direct });
    expect(service.log).toHaveLength(4);
    expect(service.log[3]).toMatchObject({ path: "/api/signals", authorization: "Bearer wrong", status: 401 });
  });

  it("no answer is a network error naming the address, an answer that is not JSON a bad answer; credentials never appear", async () => {
    const { client, service, baseUrl } = await setup();
    const { jwt, alertToken } = service;
    // These two go over the network: the service's app answers any address in-process.
    const network: FetchLike = (input, init) => globalThis.fetch(input, init);
    const lines: string[] = [];
    // A port nothing listens on (port 9, which this test once used, is one fetch never connects to: see below).
    const port = await closedPort();
    const closed = client({ baseUrl: `http://127.0.0.1:${port}/cs`, fetch: network, retry: { maxAttempts: 2 }, debug: (line) => lines.push(line) });
    const error = await rejection(closed.cpix());
    expect(error).toBeInstanceOf(SignalsNetworkError);
    expect((error as Error).message).toMatch(new RegExp(`^no answer from http://127\\.0\\.0\\.1:${port}/cs to GET /api/cpix: `));
    // A port fetch blocks (9, "discard") cannot succeed: named as such, and not tried again.
    const blockedLines: string[] = [];
    const blocked = await rejection(client({ baseUrl: "http://127.0.0.1:9/cs", fetch: network, retry: { maxAttempts: 2 }, debug: (line) => blockedLines.push(line) }).cpix());
    expect(blocked).toMatchObject({ kind: "network", reason: "blocked_port", retryable: false });
    expect((blocked as Error).message).toBe("no answer from http://127.0.0.1:9/cs to GET /api/cpix: fetch never connects to port 9 (one of the ports it blocks), so this cannot succeed");
    expect(blockedLines.some((line) => line.startsWith("retry"))).toBe(false);
    const html: FetchLike = async () => new Response("<html>proxy</html>", { status: 200 });
    const notJson = await rejection(client({ fetch: html }).cpix());
    expect(notJson).toBeInstanceOf(SignalsProtocolError);
    expect((notJson as Error).message).toBe(`GET /api/cpix answered 200 with a body that is not JSON; is ${baseUrl} the Consumer Signals API?`);
    const echo: FetchLike = async () => new Response(JSON.stringify({ error: `bad token ${jwt} / ${alertToken}` }), { status: 403 });
    const echoed = await rejection(client({ fetch: echo }).views());
    expect((echoed as Error).message).toBe("bad token [redacted] / [redacted]");
    expect(lines.join("\n")).not.toContain(jwt);
    expect(lines.some((line) => line.startsWith("retry 1 of GET /api/cpix"))).toBe(true);
    expect(service.log).toEqual([]);
  });
});

describe("alerts and views", () => {
  it("send the alert token as X-Alert-Token only, judge bodies first, and leave $schema out", async () => {
    const { client, service } = await setup();
    const api = client();
    const alert = await api.createAlert({
      $schema: "https://wfkit.dev/schema/alert.schema.json",
      name: "CPIX above 60",
      type: "cpix_threshold",
      condition: "above",
      threshold: 60,
      email: "analyst@example.com",
      note: "kept",
    });
    expect(alert).toMatchObject({ id: expect.stringMatching(/\S/), name: "CPIX above 60", type: "cpix_threshold", condition: "above", threshold: 60, email: "analyst@example.com", active: true });
    expect(service.log[0]!.body).toEqual({ name: "CPIX above 60", type: "cpix_threshold", condition: "above", threshold: 60, email: "analyst@example.com", note: "kept" });
    const view = await api.createView({ name: "Energy", geography: "US", driver_ids: ["energy"], question: "Still rising?" });
    expect(view).toMatchObject({ name: "Energy", geography: "US", driver_ids: ["energy"], question: "Still rising?" });
    expect(await api.views()).toEqual([view]);
    await api.deleteView(view.id);
    expect(await api.views()).toEqual([]);
    expect(await api.alerts()).toEqual([alert]);
    const missing = await rejection(api.deleteView(view.id));
    expect(missing).toMatchObject({ status: 404, kind: "not_found", message: signalsErrors.viewNotFound(view.id).message });
    expect(service.log.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      "POST /api/alerts 201",
      "POST /api/views 201",
      "GET /api/views 200",
      `DELETE /api/views/${view.id} 204`,
      "GET /api/views 200",
      "GET /api/alerts 200",
      `DELETE /api/views/${view.id} 404`,
    ]);
    expect(service.log.every((entry) => entry.alertToken === service.alertToken && entry.authorization === undefined)).toBe(true);
  });

  it("a body with errors is refused before sending, with every fault from core's rules", async () => {
    const { client, service } = await setup();
    const error = (await rejection(client().createAlert({ name: "x", type: "sector_presure", condition: "above", email: "analyst@example" }))) as SignalsRequestError;
    expect(error).toBeInstanceOf(SignalsRequestError);
    expect(error.code).toBe("body-invalid");
    expect(error.faults!.map((fault) => fault.code).sort()).toEqual(["alert-email", "alert-type-unknown"]);
    expect(error.message).toMatch(/^The alert body has 2 error\(s\), so it was not sent/);
    const view = (await rejection(client().createView({ name: "v", geography: "uk", driver_ids: [1], question: "q" }))) as SignalsRequestError;
    expect(view.faults!.map((fault) => `${fault.code} ${fault.pointer}`).sort()).toEqual(["view-field-type /driver_ids/0", "view-geography /geography"]);
    expect(service.log).toEqual([]);
  });
});

describe("parameters are checked before sending", () => {
  const cases: [string, (api: SignalsClient) => Promise<unknown>, SignalsRequestCode, string, string | undefined][] = [
    ["geography in lower case", (api) => api.signals({ geography: "uk" as "UK" }), "geography-invalid", "geography", "UK"],
    ["GB for the UK", (api) => api.cpix({ geography: "GB" as "UK" }), "geography-invalid", "geography", "UK"],
    ["a geography the service does not cover", (api) => api.briefing({ geography: "FR" as "UK" }), "geography-invalid", "geography", undefined],
    ["import pressure outside the UK", (api) => api.importPressure("grocery", { geography: "US" }), "geography-unsupported", "geography", "UK"],
    ["census outside the US", (api) => api.census({ geography: "UK" }), "geography-unsupported", "geography", "US"],
    ["a severity in capitals", (api) => api.signals({ severity: "HIGH" as "high" }), "severity-invalid", "severity", "high"],
    ["no periods", (api) => api.signals({ periods: 0 }), "periods-invalid", "periods", undefined],
    ["a fraction of a period", (api) => api.signals({ periods: 1.5 }), "periods-invalid", "periods", undefined],
    ["an empty category", (api) => api.signals({ category: " " }), "text-invalid", "category", undefined],
    ["a date not on the calendar", (api) => api.history({ from: "2024-02-30" }), "date-invalid", "from", undefined],
    ["a date in another form", (api) => api.history({ to: "03/01/2024" }), "date-invalid", "to", undefined],
    ["from after to", (api) => api.history({ from: "2024-05-01", to: "2024-04-01" }), "date-range-reversed", "from", undefined],
    ["to before the default from", (api) => api.history({ to: "2019-12-31" }), "date-range-reversed", "to", undefined],
    ["an empty sector", (api) => api.importPressure(""), "identifier-invalid", "sectorId", undefined],
    ["a view id with spaces around it", (api) => api.deleteView(" view_1 "), "identifier-invalid", "id", "view_1"],
  ];
  it.each(cases)("%s", async (_name, call, code, parameter, suggestion) => {
    const { client, service } = await setup();
    const error = (await rejection(call(client()))) as SignalsRequestError;
    expect(error).toBeInstanceOf(SignalsRequestError);
    expect({ code: error.code, parameter: error.parameter, suggestion: error.suggestion }).toEqual({ code, parameter, suggestion });
    // What, why and what to do: the message names the parameter and ends with an instruction.
    expect(error.message).toContain(`\`${parameter}\``);
    expect(error.message).toMatch(/\b(Pass|leave)\b.*\.$/);
    expect(service.log).toEqual([]);
  });

  it("a call without its credential is refused, naming the one it needs", async () => {
    const { client, service } = await setup();
    const noJwt = (await rejection(client({ jwt: undefined }).cpix())) as SignalsRequestError;
    expect([noJwt.code, noJwt.parameter]).toEqual(["credential-missing", "jwt"]);
    const noToken = (await rejection(client({ alertToken: undefined }).views())) as SignalsRequestError;
    expect([noToken.code, noToken.parameter, noToken.request]).toEqual(["credential-missing", "alertToken", "GET /api/views"]);
    expect(service.log).toEqual([]);
  });

  it("dates: exactly the real calendar days of YYYY-MM-DD are accepted", async () => {
    const { client, service } = await setup();
    const api = client({ fetch: async () => new Response('{"history":[],"count":0,"from":"","to":"","lastUpdated":""}') });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2020, max: 2024 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), async (year, month, day) => {
        const text = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
        const real = month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
        const outcome = await api.history({ from: text, to: "2024-12-31" }).then(
          () => "sent",
          (error: SignalsRequestError) => error.code,
        );
        expect(outcome).toBe(real ? "sent" : "date-invalid");
      }),
      { numRuns: numRuns(200) },
    );
    expect(service.log).toEqual([]);
  });
});

describe("the AI endpoints' shared limit", () => {
  const burst = (api: SignalsClient, count: number, tag = "") =>
    Promise.all(
      Array.from({ length: count }, (_, i) => {
        const payload = { question: `${tag}${i}` };
        return i % 3 === 0 ? api.investigate(payload) : i % 3 === 1 ? api.analyze(payload) : api.investigateStream(payload).then(async (s) => ({ ...s, body: await s.response.text() }));
      }),
    );

  /** Every request resent after a 429 arrived no earlier than that 429's Retry-After. */
  function expectRetryAfterKept(service: Served) {
    const lastRefusal = new Map<string, { at: number; retryAfter: number }>();
    let checked = 0;
    for (const entry of service.aiLog()) {
      const key = (entry.body as { question: string }).question;
      const refusal = lastRefusal.get(key);
      if (refusal) {
        expect(entry.at).toBeGreaterThanOrEqual(refusal.at + refusal.retryAfter * 1000);
        checked++;
      }
      if (entry.status === 429) lastRefusal.set(key, { at: entry.at, retryAfter: entry.retryAfter! });
      else lastRefusal.delete(key);
    }
    return checked;
  }

  it("a burst of 30 by one process waits on the client's own count: all answered, no 429", async () => {
    const { client, service, time } = await setup();
    const waits: AiWait[] = [];
    const results = await burst(client({ onAiWait: (wait) => waits.push(wait) }), 30);
    expect(results).toHaveLength(30);
    expect(results.every((result) => result.attempts === 1)).toBe(true);
    const log = service.aiLog();
    expect(log.map((entry) => entry.status)).toEqual(Array(30).fill(200));
    // Ten per window: at the start, one window later, two windows later.
    expect(log.map((entry) => (entry.at - START) / 60_000)).toEqual([...Array(10).fill(0), ...Array(10).fill(1), ...Array(10).fill(2)]);
    expect(waits.every((wait) => wait.kind === "throttled")).toBe(true);
    expect(waits.map((wait) => wait.waitedMs).sort((a, b) => a - b)).toEqual([...Array(10).fill(60_000), ...Array(10).fill(120_000)]);
    expect(time.sleeps).toEqual([60_000, 60_000]);
  });

  it("a burst of 30 without a count of its own: 429s, each wait Retry-After plus 0-2 s of jitter, all answered", async () => {
    const randoms = [0, 0.25, 0.5, 0.75, 0.9995];
    const { client, service } = await setup({}, {}, randoms);
    const waits: AiWait[] = [];
    const results = await burst(client({ aiLimit: false, onAiWait: (wait) => waits.push(wait) }), 30);
    expect(results).toHaveLength(30);
    // Each answer is the service's stub's answer to that request's own body.
    results.forEach((result, i) => {
      const payload = { question: String(i) };
      if (i % 3 === 2) expect((result as { body: string }).body).toBe(aiEventStream(aiAnswer("investigate/stream", payload)));
      else expect(result.body).toEqual(aiAnswer(i % 3 === 0 ? "investigate" : "analyze", payload));
    });
    const log = service.aiLog();
    expect(log.filter((entry) => entry.status === 200)).toHaveLength(30);
    const refusals = log.filter((entry) => entry.status === 429);
    expect(refusals.length).toBeGreaterThan(0);
    expect(waits.filter((wait) => wait.kind === "retry-after")).toHaveLength(refusals.length);
    expect(expectRetryAfterKept(service)).toBe(refusals.length);
    for (const wait of waits) {
      if (wait.kind !== "retry-after") continue;
      expect(wait.jitterMs).toBeGreaterThanOrEqual(0);
      expect(wait.jitterMs).toBeLessThanOrEqual(2_000);
      expect(randoms.map((r) => Math.round(r * 2_000))).toContain(wait.jitterMs);
      expect(wait.retryAfterMs).toBe(wait.rateLimit!.retryAfterSeconds! * 1000);
      expect(wait.waitedMs).toBeGreaterThanOrEqual(wait.retryAfterMs + wait.jitterMs);
      expect(wait.rateLimit).toMatchObject({ limit: 10, remaining: 0 });
    }
    // Each draw of the random source became one wait's jitter, in turn.
    const jitters = waits.flatMap((wait) => (wait.kind === "retry-after" ? [wait.jitterMs] : []));
    expect(new Set(jitters)).toEqual(new Set(randoms.map((r) => Math.round(r * 2_000))));
  });

  it("two processes of one user share the service's limit: both bursts complete, resends keep Retry-After", async () => {
    const { client, service } = await setup({}, {}, [0.1, 0.6, 0.3]);
    const [first, second] = await Promise.all([burst(client(), 15, "a"), burst(client(), 15, "b")]);
    expect(first.length + second.length).toBe(30);
    const log = service.aiLog();
    expect(log.filter((entry) => entry.status === 200)).toHaveLength(30);
    const refusals = log.filter((entry) => entry.status === 429).length;
    expect(refusals).toBeGreaterThan(0);
    expect(expectRetryAfterKept(service)).toBe(refusals);
    // Never more than ten answered in one of the service's windows.
    const answered = log.filter((entry) => entry.status === 200).map((entry) => entry.at);
    for (const at of answered) expect(answered.filter((other) => other >= at && other < at + 60_000).length).toBeLessThanOrEqual(10);
  });

  it("exposes X-RateLimit-* on answers and stops at the budget with the 429's headers", async () => {
    const { client, service, time } = await setup();
    const api = client();
    const answered = await api.analyze({ question: "q" });
    expect(answered.rateLimit).toEqual({ limit: 10, remaining: 9, resetAt: Math.ceil((START + 60_000) / 1000) });
    expect(api.lastRateLimit).toEqual(answered.rateLimit);
    await service.exhaust();
    const other = client({ aiLimit: false });
    const error = (await rejection(other.investigate({ question: "late" }, { budget: { budgetMs: 30_000 } }))) as SignalsRateLimitError;
    expect(error).toBeInstanceOf(SignalsRateLimitError);
    expect(error).toMatchObject({ origin: "service", attempts: 1, retryAt: START + 60_000, rateLimit: { limit: 10, remaining: 0, retryAfterSeconds: 60, resetAt: (START + 60_000) / 1000 } });
    expect(error.message).toMatch(/the service asks to wait 60 s .*past this call's budget of 30 s/);
    expect(time.sleeps).toEqual([]);
  });

  it("stops after the call's attempts", async () => {
    const { client, service } = await setup({ signalsAiLimit: { max: 1, windowMs: 1_000 } });
    const onePerSecond = client({ aiLimit: false });
    await service.exhaust();
    const tired = (await rejection(Promise.all([onePerSecond.analyze({ question: "x" }, { budget: { maxAttempts: 2 } }), onePerSecond.analyze({ question: "y" }, { budget: { maxAttempts: 2 } })]))) as SignalsRateLimitError;
    expect(tired).toMatchObject({ origin: "service", attempts: 2 });
    expect(tired.message).toMatch(/refused with 429 2 time\(s\), the most this call's budget allows/);
  });

  it("refuses unsent when its own count would hold a request past the budget", async () => {
    const { client, service, time } = await setup();
    const counted = client({ aiLimit: { requests: 2, windowMs: 60_000 } });
    await counted.analyze({ question: "1" });
    await counted.analyze({ question: "2" });
    expect(counted.aiReadyAt()).toBe(START + 60_000);
    const held = (await rejection(counted.analyze({ question: "3" }, { budget: { budgetMs: 10_000 } }))) as SignalsRateLimitError;
    expect(held).toMatchObject({ origin: "client", attempts: 0, rateLimit: undefined, retryAt: START + 60_000 });
    expect(held.message).toBe(
      "POST /api/analyze was not sent: this process has used the AI endpoints' shared limit (2 requests per window per user, across investigate, investigate/stream and analyze), and the next request could go only at 2025-01-06T09:01:00.000Z, in 60 s, past this call's budget of 10 s. Send fewer AI requests at once, or give the call a larger budget.",
    );
    expect(service.aiLog()).toHaveLength(2);
    expect(time.sleeps).toEqual([]);
  });

  it("one limiter shared by two clients keeps one count", async () => {
    const service = await startService();
    const time = virtualTime(service.clock, service.fetch);
    const limiter = new AiRateLimiter({ limit: { requests: 3, windowMs: 10_000 }, timing: time.timing });
    const make = () => new SignalsClient({ baseUrl: BASE_URL, jwt: service.jwt, fetch: time.fetch, timing: time.timing, aiLimiter: limiter });
    const [a, b] = [make(), make()];
    await Promise.all([a.analyze({ question: "a1" }), b.analyze({ question: "b1" }), a.analyze({ question: "a2" }), b.analyze({ question: "b2" })]);
    expect(service.aiLog().map((entry) => entry.at - START)).toEqual([0, 0, 0, 10_000]);
  });

  it("the client's count never lets more than N requests go in any window (property, manual clock)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 25 }),
        async (requests, windowMs, gaps) => {
          let now = 0;
          const timing = { now: () => now, sleep: async (ms: number) => void (now += ms) };
          const limiter = new AiRateLimiter({ limit: { requests, windowMs }, timing });
          const sent: number[] = [];
          for (const gap of gaps) {
            now += gap;
            await limiter.acquire(Number.POSITIVE_INFINITY);
            sent.push(now);
          }
          for (let i = requests; i < sent.length; i++) expect(sent[i]! - sent[i - requests]!).toBeGreaterThanOrEqual(windowMs);
          // And it waits no longer than it must: each request (asked `gap` after the last send)
          // goes when asked, or one window after the send N before it.
          for (let i = 0; i < sent.length; i++) {
            const asked = (i > 0 ? sent[i - 1]! : 0) + gaps[i]!;
            expect(sent[i]).toBe(Math.max(asked, i >= requests ? sent[i - requests]! + windowMs : 0));
          }
        },
      ),
      { numRuns: numRuns(200) },
    );
  });
});
