/**
 * The AI endpoints' shared limit (10 requests per 60 s per user, across investigate,
 * investigate/stream and analyze), from the client's side:
 *
 * - `AiRateLimiter` counts this process's sends in a sliding window and holds a request back
 *   until it may go, so a burst waits before sending instead of drawing 429s. A sliding log of
 *   send times never lets more than `requests` go in any `windowMs` span, so it stays within
 *   the service's limit whether the service counts in fixed or sliding windows.
 * - After a 429 the limiter is paused until `Retry-After` plus the request's jitter: the limit
 *   is shared, so every AI request of this process waits, not just the refused one.
 * - Waits are taken one at a time, in arrival order, on the injected clock: with a manual
 *   clock a test sees every wait exactly.
 */
import { AI_RATE_LIMIT } from "@wfkit/api";
import type { Timing } from "../retry.js";

/** What the service said about the limit: the `429` headers (also read on any answer that has them). */
export interface RateLimitInfo {
  /** `X-RateLimit-Limit`: requests allowed per window. */
  limit?: number;
  /** `X-RateLimit-Remaining`: requests left in the window. */
  remaining?: number;
  /** `X-RateLimit-Reset`: when the window resets, Unix seconds. */
  resetAt?: number;
  /** `Retry-After`: seconds to wait before retrying. */
  retryAfterSeconds?: number;
}

const wholeNumber = (text: string | null) => (text !== null && /^\s*\d{1,12}\s*$/.test(text) ? Number(text) : undefined);

/** The rate-limit headers of an answer, or undefined when it has none of them. */
export function rateLimitOf(headers: Headers): RateLimitInfo | undefined {
  const info: RateLimitInfo = {};
  const limit = wholeNumber(headers.get("X-RateLimit-Limit"));
  const remaining = wholeNumber(headers.get("X-RateLimit-Remaining"));
  const resetAt = wholeNumber(headers.get("X-RateLimit-Reset"));
  const retryAfterSeconds = wholeNumber(headers.get("Retry-After"));
  if (limit !== undefined) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (resetAt !== undefined) info.resetAt = resetAt;
  if (retryAfterSeconds !== undefined) info.retryAfterSeconds = retryAfterSeconds;
  return Object.keys(info).length ? info : undefined;
}

export interface AiLimit {
  requests: number;
  windowMs: number;
}

/** The reference's limit: 10 requests per 60-second window, shared by the three AI endpoints. */
export const AI_LIMIT: AiLimit = { requests: AI_RATE_LIMIT.requests, windowMs: AI_RATE_LIMIT.windowMs };

/** The most a 429's wait adds to `Retry-After`, at random: the reference recommends 0 to 2 s. */
export const MAX_JITTER_MS: number = AI_RATE_LIMIT.maxJitterMs;

/**
 * How long to wait after a 429 before the next AI request: `Retry-After` seconds, else the
 * time to `X-RateLimit-Reset`, else a whole window; then a jitter of `random` × 2 s.
 */
export function retryAfterWait(info: RateLimitInfo | undefined, now: number, random: number, windowMs: number): { retryAfterMs: number; jitterMs: number } {
  let retryAfterMs: number;
  if (info?.retryAfterSeconds !== undefined) retryAfterMs = info.retryAfterSeconds * 1000;
  else if (info?.resetAt !== undefined) retryAfterMs = Math.max(0, info.resetAt * 1000 - now);
  else retryAfterMs = windowMs;
  return { retryAfterMs, jitterMs: Math.round(random * MAX_JITTER_MS) };
}

/** The limiter would have to wait past the caller's deadline: nothing was sent. */
export class LimiterDeadlineError extends Error {
  override readonly name = "LimiterDeadlineError";
  constructor(readonly readyAt: number) {
    super(`the AI endpoints' limit lets the next request go at ${new Date(readyAt).toISOString()}`);
  }
}

export interface AiRateLimiterOptions {
  /** The count to keep (default `AI_LIMIT`); `false` keeps none, and only pauses after a 429. */
  limit?: AiLimit | false;
  timing: Pick<Timing, "now" | "sleep">;
}

/**
 * One per user and process: pass the same limiter to every client that uses the same
 * credential, so their AI requests share one count as they share the service's limit.
 */
export class AiRateLimiter {
  readonly limit: AiLimit | false;
  private readonly timing: Pick<Timing, "now" | "sleep">;
  /** Send times (answer times once answered, see `answered`) within the last window, oldest first. */
  private readonly sent: number[] = [];
  private pausedUntil = Number.NEGATIVE_INFINITY;
  /** The turn of the last request to ask: each waits for the one before it. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(options: AiRateLimiterOptions) {
    this.limit = options.limit ?? AI_LIMIT;
    this.timing = options.timing;
  }

  /**
   * Waits until a request may be sent (its turn, then a free place in the window), then
   * counts it as sent and resolves with the time waited since the call (ms) and the send's
   * stamp, for `answered`. Rejects with `LimiterDeadlineError`, counting nothing, when the
   * request could go only after `deadline`; rejects when `signal` aborts.
   */
  acquire(deadline: number, signal?: AbortSignal): Promise<{ waitedMs: number; sentAt: number }> {
    const asked = this.timing.now();
    const turn = this.tail.then(() => this.waitForSlot(deadline, signal)).then((sentAt) => ({ waitedMs: sentAt - asked, sentAt }));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Moves a send's stamp to the time its answer came. The service counts a request when it
   * receives it, some time between the send and the answer; counted from the answer, this
   * process's window never ends before the service's does, so a burst paced by it draws no
   * 429 even when the sends of one window reached the service late.
   */
  answered(sentAt: number): void {
    if (!this.limit) return;
    const index = this.sent.indexOf(sentAt);
    if (index === -1) return;
    this.sent.splice(index, 1);
    const now = this.timing.now();
    let at = this.sent.length;
    while (at > 0 && this.sent[at - 1]! > now) at--;
    this.sent.splice(at, 0, now);
  }

  /** After a 429: no AI request of this process goes before `until` (ms on the limiter's clock). */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** When a request asked now could go (ms), without counting it. */
  readyAt(): number {
    const now = this.timing.now();
    this.forgetBefore(now);
    let ready = Math.max(now, this.pausedUntil);
    if (this.limit && this.sent.length >= this.limit.requests) ready = Math.max(ready, this.sent[this.sent.length - this.limit.requests]! + this.limit.windowMs);
    return ready;
  }

  private async waitForSlot(deadline: number, signal: AbortSignal | undefined): Promise<number> {
    // Each pass either sends or sleeps until the earliest time it could; a pause set by a 429
    // meanwhile moves that time, so it looks again after every sleep.
    for (;;) {
      if (signal?.aborted) throw signal.reason ?? new Error("aborted");
      const now = this.timing.now();
      const ready = this.readyAt();
      if (ready <= now) {
        if (this.limit) this.sent.push(now);
        return now;
      }
      if (ready > deadline) throw new LimiterDeadlineError(ready);
      await this.timing.sleep(ready - now, signal);
    }
  }

  private forgetBefore(now: number): void {
    if (!this.limit) return;
    const windowStart = now - this.limit.windowMs;
    let drop = 0;
    while (drop < this.sent.length && this.sent[drop]! <= windowStart) drop++;
    if (drop) this.sent.splice(0, drop);
  }
}
