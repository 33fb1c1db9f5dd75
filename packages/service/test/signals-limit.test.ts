/**
 * The AI endpoints' shared limit, over HTTP on loopback with the service's clock under the
 * test's control: the 11th request in a window is refused with the reference's 429 body and
 * headers, and after `X-RateLimit-Reset` requests pass again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Clock, DEFAULT_AI_LIMIT, parseAiLimit, type ServerOptions } from "../src/index.js";
import { signalsServer, type SignalsReply, type SignalsServer } from "./signals-server.js";

const AI_ROUTES = ["/api/investigate", "/api/investigate/stream", "/api/analyze"] as const;
const running: SignalsServer[] = [];
async function start(options: ServerOptions = {}): Promise<SignalsServer> {
  const server = await signalsServer(options);
  running.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

const header = (reply: SignalsReply, name: string) => reply.headers.get(name);
const seconds = (ms: number) => Math.ceil(ms / 1000);

describe("the AI endpoints' shared limit", () => {
  it("refuses the 11th request in 60 s with the reference's 429 body and headers, and lets one through after X-RateLimit-Reset", async () => {
    expect(DEFAULT_AI_LIMIT).toEqual({ max: 10, windowMs: 60_000 });
    // A window that opens off a whole second, so the rounding of Reset and Retry-After shows.
    const clock = new Clock("manual", Date.UTC(2026, 0, 1, 9, 0, 0, 250));
    const signals = await start({ clock });
    const opened = clock.now();
    const end = opened + 60_000;
    for (let i = 0; i < 10; i++) {
      // Round-robin over the three endpoints: they share one count.
      const reply = await signals.call("POST", AI_ROUTES[i % 3]!, { body: { question: `q${i}` } });
      expect(reply.status, `request ${i + 1}`).toBe(200);
      expect(header(reply, "X-RateLimit-Limit")).toBe("10");
      expect(header(reply, "X-RateLimit-Remaining")).toBe(String(9 - i));
      expect(header(reply, "X-RateLimit-Reset")).toBe(String(seconds(end)));
      clock.advance(1000);
    }
    const refused = await signals.call("POST", "/api/analyze", { body: {} });
    expect(refused.status).toBe(429);
    expect(Object.keys(refused.body).sort()).toEqual(["error", "ok"]);
    expect(refused.body.ok).toBe(false);
    const wait = seconds(end - clock.now()); // 50 s: ten requests a second apart
    expect(wait).toBe(50);
    expect(refused.body.error).toMatch(new RegExp(`\\b${wait} seconds`));
    expect(header(refused, "Retry-After")).toBe(String(wait));
    expect(header(refused, "X-RateLimit-Limit")).toBe("10");
    expect(header(refused, "X-RateLimit-Remaining")).toBe("0");
    expect(header(refused, "X-RateLimit-Reset")).toBe(String(seconds(end)));

    // Refusals do not count, and the wait shrinks as time passes.
    clock.advance(end - 1 - clock.now());
    const last = await signals.call("POST", "/api/investigate", { body: {} });
    expect(last.status).toBe(429);
    expect(header(last, "Retry-After")).toBe("1");

    // At X-RateLimit-Reset (a whole second, on or after the window's end) a new window opens.
    const reset = Number(header(refused, "X-RateLimit-Reset")) * 1000;
    clock.advance(reset - clock.now());
    const again = await signals.call("POST", "/api/investigate", { body: {} });
    expect(again.status).toBe(200);
    expect(header(again, "X-RateLimit-Remaining")).toBe("9");
    expect(Number(header(again, "X-RateLimit-Reset"))).toBe(seconds(reset + 60_000));
  });

  it("counts per user, and only requests that are authenticated", async () => {
    const signals = await start();
    for (let i = 0; i < 10; i++) expect((await signals.call("POST", "/api/analyze", { body: {} })).status).toBe(200);
    expect((await signals.call("POST", "/api/analyze", { body: {} })).status).toBe(429);
    expect((await signals.call("POST", "/api/analyze", { jwt: null, body: {} })).status).toBe(401);
    const service = signals.server.service;
    service.store.transaction(() => service.store.run("INSERT INTO users (id, account_id, name) VALUES ('other', 'acct_default', 'Other')"));
    const other = (await signals.admin("/sessions", { user: "other" })).body.token as string;
    const reply = await signals.call("POST", "/api/investigate", { jwt: other, body: {} });
    expect(reply.status).toBe(200);
    expect(header(reply, "X-RateLimit-Remaining")).toBe("9");
    // Other endpoints are not limited.
    expect((await signals.call("GET", "/api/cpix")).status).toBe(200);
    expect((await signals.withToken("GET", "/api/views")).status).toBe(200);
  });

  it("takes its max and window from the service's options", async () => {
    const clock = new Clock("manual");
    const signals = await start({ clock, signalsAiLimit: { max: 3, windowMs: 2000 } });
    for (let i = 0; i < 3; i++) expect((await signals.call("POST", "/api/investigate", { body: {} })).status).toBe(200);
    const refused = await signals.call("POST", "/api/investigate", { body: {} });
    expect(refused.status).toBe(429);
    expect([header(refused, "Retry-After"), header(refused, "X-RateLimit-Limit")]).toEqual(["2", "3"]);
    expect(refused.body.error).toMatch(/3 requests per 2 seconds/);
    clock.advance(2000);
    expect((await signals.call("POST", "/api/investigate", { body: {} })).status).toBe(200);
  });

  it("a reset of the service forgets the counts", async () => {
    const signals = await start({ signalsAiLimit: { max: 1, windowMs: 60_000 } });
    expect((await signals.call("POST", "/api/analyze", { body: {} })).status).toBe(200);
    expect((await signals.call("POST", "/api/analyze", { body: {} })).status).toBe(429);
    await signals.admin("/reset");
    expect((await signals.call("POST", "/api/analyze", { body: {} })).status).toBe(200);
  });
});

describe("the AI stubs", () => {
  it("answer the same request with the same sample text, and stream it as server-sent events", async () => {
    const signals = await start();
    const ask = { question: "What is driving prices?", geography: "UK" };
    const first = await signals.call("POST", "/api/investigate", { body: ask });
    const second = await signals.call("POST", "/api/investigate", { body: ask });
    expect(first.body).toEqual(second.body);
    expect(first.body.ok).toBe(true);
    expect(first.body.answer).toMatch(/stub/);
    expect(first.body.answer).toContain(ask.question);
    expect(first.headers.get("Wfkit-Sample-Data")).toBe("true");
    const ukSignals = (await signals.call("GET", "/api/signals?geography=UK")).body.signals.map((s: { id: string }) => s.id);
    expect(first.body.signalIds).toEqual(ukSignals);
    expect((await signals.call("POST", "/api/analyze", { body: ask })).body.answer).toMatch(/^Sample analysis/);

    const stream = await signals.call("POST", "/api/investigate/stream", { body: ask });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const events = stream.text
      .trim()
      .split("\n\n")
      .map((block) => {
        const [eventLine, dataLine] = block.split("\n");
        return { event: eventLine!.replace(/^event: /, ""), data: JSON.parse(dataLine!.replace(/^data: /, "")) };
      });
    expect(events.at(-1)).toEqual({ event: "done", data: { ok: true, signalIds: ukSignals } });
    expect(events.slice(0, -1).map((event) => event.data.text).join("")).toBe(first.body.answer);
  });
});

describe("parseAiLimit (--signals-ai-limit)", () => {
  it("reads MAX/WINDOW with ms, s or m", () => {
    expect(parseAiLimit("10/60s")).toEqual({ ok: true, limit: { max: 10, windowMs: 60_000 } });
    expect(parseAiLimit("3/2s")).toEqual({ ok: true, limit: { max: 3, windowMs: 2000 } });
    expect(parseAiLimit("100/500ms")).toEqual({ ok: true, limit: { max: 100, windowMs: 500 } });
    expect(parseAiLimit("20/1m")).toEqual({ ok: true, limit: { max: 20, windowMs: 60_000 } });
  });

  it("explains what is wrong with anything else", () => {
    for (const text of ["10", "10/60", "ten/60s", "10/60h", "-1/60s", ""]) {
      const parsed = parseAiLimit(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/MAX\/WINDOW/);
    }
    const zero = parseAiLimit("0/60s");
    expect(zero).toMatchObject({ ok: false });
    if (!zero.ok) expect(zero.message).toMatch(/at least 1 request/);
    const long = parseAiLimit("10/2000m");
    if (!long.ok) expect(long.message).toMatch(/24 hours/);
    expect(long.ok).toBe(false);
  });
});
