/**
 * What a client reads of an answer: at most `maxAnswerBytes` (16 MiB by default), counted as
 * the bytes arrive, the stream cancelled at the cap, whether the server declares its length
 * or streams without end; an answer over the cap is a `too_large` bad answer naming the
 * endpoint and the cap, never retried. A refusal over the cap is still the refusal its status
 * says. JSON nested deeper than `MAX_ANSWER_DEPTH` is refused before it is parsed. Real HTTP
 * on 127.0.0.1, both clients.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_ANSWER_BYTES,
  MAX_ANSWER_DEPTH,
  SignalsApiError,
  SignalsClient,
  SignalsProtocolError,
  WorkflowsApiError,
  WorkflowsClient,
  WorkflowsProtocolError,
} from "../src/index.js";
import { json, startHostileServer, stream, type HostileServer } from "../../../test/support/hostile-server.js";

const MiB = 1024 * 1024;
const RETRY = { baseDelayMs: 1, maxDelayMs: 5, budgetMs: 2_000, maxAttempts: 3 };

let server: HostileServer;
beforeEach(async () => {
  server = await startHostileServer();
});
afterEach(async () => {
  await server.close();
});

const workflows = (maxAnswerBytes?: number) => new WorkflowsClient({ baseUrl: server.url, credential: "secret", retry: RETRY, timeoutMs: 10_000, ...(maxAnswerBytes ? { maxAnswerBytes } : {}) });
const signals = (maxAnswerBytes?: number) => new SignalsClient({ baseUrl: server.url, jwt: "jwt", alertToken: "token", retry: RETRY, timeoutMs: 10_000, ...(maxAnswerBytes ? { maxAnswerBytes } : {}) });

async function failure(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, "the call should have failed").toBeInstanceOf(Error);
  return outcome as Error & Record<string, unknown>;
}

/** Waits (boundedly) until the server has seen the client go away. */
async function cutOff(): Promise<void> {
  for (let i = 0; i < 200 && server.written.cutOff === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("an answer over the cap", () => {
  it("16 MiB by default: an endless answer is cut off just past it, once, not retried", async () => {
    expect(DEFAULT_MAX_ANSWER_BYTES).toBe(16 * MiB);
    server.handle((_request, response) => stream(server, response, Buffer.alloc(64 * 1024, 0x20)));
    const error = await failure(workflows().runs());
    expect(error).toBeInstanceOf(WorkflowsProtocolError);
    expect(error).toMatchObject({ kind: "bad_answer", reason: "too_large", retryable: false, request: "GET /api/v1/workflows/runs?state=all" });
    expect(error.message).toBe(
      `GET /api/v1/workflows/runs?state=all: the answer from ${server.url} is larger than 16 MiB, the most this client reads of one answer; refused, and not asked again`,
    );
    await cutOff();
    expect(server.written.cutOff).toBe(1);
    expect(server.log).toHaveLength(1);
    // What the server got out before the client let go: the cap and the socket's buffers.
    expect(server.written.bytes).toBeLessThan(24 * MiB);
  });

  it("a smaller cap: streamed or declared, on both clients, each route kind", async () => {
    const cap = 256 * 1024;
    const calls: [string, () => Promise<unknown>][] = [
      ["Workflows GET", () => workflows(cap).templates()],
      ["Workflows run start", () => workflows(cap).startRun("wf_1", { idempotencyKey: "k" })],
      ["Signals GET", () => signals(cap).history()],
      ["Signals POST", () => signals(cap).createView({ name: "E", geography: "US", driver_ids: ["energy"], question: "q" })],
      ["Signals AI", () => signals(cap).investigate({ q: 1 })],
    ];
    for (const declared of [false, true])
      for (const [name, call] of calls) {
        server.log.length = 0;
        server.handle((_request, response) => stream(server, response, Buffer.alloc(16 * 1024, 0x20), 4 * cap, declared ? { "Content-Length": 4 * cap } : {}));
        const error = await failure(call());
        expect(error, name).toBeInstanceOf(name.startsWith("Workflows") ? WorkflowsProtocolError : SignalsProtocolError);
        expect(error, name).toMatchObject({ reason: "too_large" });
        expect(error.message, name).toContain("is larger than 256 KiB");
        expect(server.log, name).toHaveLength(1);
      }
  });

  it("exactly at the cap is taken; one byte over is not", async () => {
    const body = JSON.stringify({ runs: [] });
    const padded = body + " ".repeat(1000 - body.length);
    server.handle((_request, response) => json(response, padded));
    expect(await workflows(1000).runs()).toEqual({ runs: [] });
    server.handle((_request, response) => json(response, padded + " "));
    expect(await failure(workflows(1000).runs())).toMatchObject({ reason: "too_large" });
  });

  it("a refusal over the cap is still its status's refusal, without the body's message", async () => {
    server.handle((_request, response) => stream(server, response, Buffer.alloc(16 * 1024, 0x20), 2 * MiB, {}, 404));
    const refused = await failure(workflows(MiB).run("wf_1", "run_1"));
    expect(refused).toBeInstanceOf(WorkflowsApiError);
    expect(refused).toMatchObject({ status: 404, message: "The service answered 404 without an error message." });
    const signalsRefused = await failure(signals(MiB).views());
    expect(signalsRefused).toBeInstanceOf(SignalsApiError);
    expect(signalsRefused).toMatchObject({ status: 404, kind: "not_found" });
  });

  it("a refusal's message is cut to 500 characters", async () => {
    server.handle((_request, response) => json(response, { error: "nope", message: "x".repeat(100_000) }, 403));
    const refused = await failure(workflows().runs());
    expect(refused.message.length).toBeLessThan(600);
    expect(refused.message).toMatch(/… \(cut at 500 characters\)$/);
  });
});

describe("an answer nested too deep", () => {
  it(`more than ${MAX_ANSWER_DEPTH} levels is refused before parsing; a refusal that deep loses its body`, async () => {
    const deep = `{"runs": [${"[".repeat(MAX_ANSWER_DEPTH)}${"]".repeat(MAX_ANSWER_DEPTH)}]}`;
    server.handle((_request, response) => json(response, deep));
    const error = await failure(workflows().runs());
    expect(error).toMatchObject({ kind: "bad_answer", reason: "too_deep" });
    expect(server.log).toHaveLength(1);
    // Brackets inside strings do not count.
    server.handle((_request, response) => json(response, { runs: [], note: "[".repeat(10_000) + '\\"' + "{".repeat(10_000) }));
    expect(await workflows().runs()).toMatchObject({ runs: [] });
    // A million levels, as a refusal: no stack overflow anywhere (the Signals client redacts refusal bodies recursively).
    server.handle((_request, response) => json(response, "[".repeat(1_000_000) + "]".repeat(1_000_000), 400));
    expect(await failure(signals().views())).toMatchObject({ status: 400, body: undefined });
  });
});

describe("decoding", () => {
  it("UTF-8 split across chunks is read whole", async () => {
    const text = JSON.stringify({ runs: [{ runId: "run_1", workflowId: "wf_1", state: "succeeded", createdAt: "2025", question: "é€😀".repeat(5_000) }] });
    const bytes = Buffer.from(text, "utf8");
    server.handle((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      // Pieces of 7,007 bytes (an odd size): characters of two, three and four bytes are cut between pieces.
      let offset = 0;
      const next = () => {
        if (offset >= bytes.length) return void response.end();
        response.write(bytes.subarray(offset, offset + 7007));
        offset += 7007;
        setImmediate(next);
      };
      next();
    });
    expect((await workflows().runs()).runs[0]!.question).toBe("é€😀".repeat(5_000));
  });
});
