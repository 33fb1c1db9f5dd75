/**
 * The signals client against the real local service: `wfkit serve` (the built CLI) as a child
 * process over loopback, its AI limit shortened by `--signals-ai-limit` (the default stays 10
 * per 60 s), real time and real randomness. A burst of 30 AI requests completes; no request is
 * resent before the Retry-After of the 429 that refused it; every wait's jitter is in [0, 2] s;
 * with its own count the client draws no 429 at all. Data and alert calls use the credentials
 * the `--json` line prints.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JITTER_MS, SignalsClient, SignalsRequestError, type AiWait, type FetchLike } from "@wfkit/client";
import { serve, type Served } from "../support/serve-process.js";

const WINDOW_MS = 2_000;
/** Timers may fire up to a millisecond early against `Date.now`'s rounding. */
const TIMER_SLACK_MS = 2;

interface Sent {
  question: string;
  sentAt: number;
  answeredAt: number;
  status: number;
  retryAfterMs: number | undefined;
}

let served: Served;

beforeAll(async () => {
  served = await serve(["--signals-ai-limit", `10/${WINDOW_MS / 1000}s`]);
}, 60_000);

afterAll(async () => {
  await served?.stop();
});

/** A fetch that records when each AI request left and what came back. */
function recordingFetch(log: Sent[]): FetchLike {
  return async (input, init) => {
    const sentAt = Date.now();
    const response = await fetch(input, init);
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { question?: string }) : {};
    if (body.question !== undefined) {
      const retryAfter = response.headers.get("retry-after");
      log.push({ question: body.question, sentAt, answeredAt: Date.now(), status: response.status, retryAfterMs: retryAfter === null ? undefined : Number(retryAfter) * 1000 });
    }
    return response;
  };
}

function burst(client: SignalsClient, count: number) {
  const budget = { budgetMs: 60_000, maxAttempts: 30 };
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const payload = { question: `q${i}` };
      if (i % 3 === 0) return client.investigate(payload, { budget });
      if (i % 3 === 1) return client.analyze(payload, { budget });
      return client.investigateStream(payload, { budget }).then(async (stream) => ({ ...stream, text: await stream.response.text() }));
    }),
  );
}

describe("the signals client against wfkit serve", () => {
  it("a burst of 30 with no count of its own completes; resends keep Retry-After plus 0-2 s of jitter", async () => {
    const log: Sent[] = [];
    const waits: AiWait[] = [];
    const client = new SignalsClient({ baseUrl: served.signalsBaseUrl, jwt: served.keys.jwt!, fetch: recordingFetch(log), aiLimit: false, onAiWait: (wait) => waits.push(wait) });
    const results = await burst(client, 30);

    expect(results).toHaveLength(30);
    expect(log.filter((entry) => entry.status === 200)).toHaveLength(30);
    const refusals = log.filter((entry) => entry.status === 429);
    expect(refusals.length).toBeGreaterThanOrEqual(20);
    for (const refusal of refusals) expect(refusal.retryAfterMs).toBeGreaterThan(0);

    // Per question, every send after a 429 waited out that 429's Retry-After.
    const lastRefusal = new Map<string, Sent>();
    let resends = 0;
    for (const entry of [...log].sort((a, b) => a.sentAt - b.sentAt)) {
      const refusal = lastRefusal.get(entry.question);
      if (refusal) {
        expect(entry.sentAt).toBeGreaterThanOrEqual(refusal.answeredAt + refusal.retryAfterMs! - TIMER_SLACK_MS);
        resends++;
      }
      if (entry.status === 429) lastRefusal.set(entry.question, entry);
      else lastRefusal.delete(entry.question);
    }
    expect(resends).toBe(refusals.length);

    const retryWaits = waits.filter((wait) => wait.kind === "retry-after");
    expect(retryWaits).toHaveLength(refusals.length);
    for (const wait of retryWaits) {
      if (wait.kind !== "retry-after") continue;
      expect(wait.jitterMs).toBeGreaterThanOrEqual(0);
      expect(wait.jitterMs).toBeLessThanOrEqual(MAX_JITTER_MS);
      expect(wait.waitedMs).toBeGreaterThanOrEqual(wait.retryAfterMs + wait.jitterMs - TIMER_SLACK_MS);
      expect(wait.rateLimit).toMatchObject({ limit: 10, remaining: 0 });
    }
    // Real randomness: the jitters are not all one value.
    expect(new Set(retryWaits.map((wait) => (wait.kind === "retry-after" ? wait.jitterMs : -1))).size).toBeGreaterThan(1);
  }, 90_000);

  it("with its own count set to the service's limit, a burst of 30 draws no 429", async () => {
    // A fresh window: the previous test's answers must have aged out of the service's count.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100));
    const log: Sent[] = [];
    const client = new SignalsClient({ baseUrl: served.signalsBaseUrl, jwt: served.keys.jwt!, fetch: recordingFetch(log), aiLimit: { requests: 10, windowMs: WINDOW_MS } });
    const results = await burst(client, 30);
    expect(results.every((result) => result.attempts === 1)).toBe(true);
    expect(log.map((entry) => entry.status)).toEqual(Array(30).fill(200));
    // Never more than ten sent within one window (read here a few milliseconds after the
    // client's limiter stamped each send, hence the slack).
    const times = log.map((entry) => entry.sentAt);
    for (const at of times) expect(times.filter((other) => other >= at && other < at + WINDOW_MS - 20).length).toBeLessThanOrEqual(10);
  }, 90_000);

  it("reads data with the printed JWT and saves an alert with the printed alert token; a faulty body is never sent", async () => {
    const client = new SignalsClient({ baseUrl: served.signalsBaseUrl, jwt: served.keys.jwt!, alertToken: served.keys.alertToken! });
    const index = await client.cpix({ geography: "UK" });
    expect(typeof index.summary.score).toBe("number");
    const valid = (JSON.parse(readFileSync(new URL("../../packages/core/test/fixtures/alert-geography/valid.json", import.meta.url), "utf8")) as { input: Record<string, unknown> }).input;
    const created = await client.createAlert(valid);
    expect(created).toMatchObject({ name: valid.name, type: valid.type, condition: valid.condition, threshold: valid.threshold });
    expect(created.id).toEqual(expect.any(String));
    await expect(client.createAlert({ ...valid, geography: "FR" })).rejects.toBeInstanceOf(SignalsRequestError);
  });
});
