/**
 * The shared limit of the AI endpoints (investigate, investigate/stream, analyze): at most
 * `max` requests per window per user, on the service's clock. A window opens with a user's
 * first request and lasts `windowMs`; `X-RateLimit-Reset` is its end in Unix seconds (rounded
 * up, so a request made at that second is in a new window), and `Retry-After` the whole
 * seconds from now to that end (rounded up, at least 1). Only requests let through count.
 * The counts live in memory: a restart starts every user afresh.
 */
import type { Clock } from "../clock.js";
import type { AiLimit } from "./policy.js";

export interface RateDecision {
  allowed: boolean;
  /** `X-RateLimit-Limit`, `-Remaining`, `-Reset`, and `Retry-After` when refused. */
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

/** Windows kept before ended ones are swept (the number of users is small; this bounds it anyway). */
const SWEEP_AT = 10_000;

export class AiRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    readonly limit: AiLimit,
  ) {}

  /** Counts one request of `userId` if the limit allows it. */
  take(userId: string): RateDecision {
    const now = this.clock.now();
    let window = this.windows.get(userId);
    if (!window || now >= window.start + this.limit.windowMs) {
      if (this.windows.size >= SWEEP_AT) this.sweep(now);
      window = { start: now, count: 0 };
      this.windows.set(userId, window);
    }
    const endMs = window.start + this.limit.windowMs;
    const headers: Record<string, string> = {
      "X-RateLimit-Limit": String(this.limit.max),
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(Math.ceil(endMs / 1000)),
    };
    if (window.count >= this.limit.max) {
      const retryAfterSeconds = Math.max(1, Math.ceil((endMs - now) / 1000));
      return { allowed: false, headers: { ...headers, "Retry-After": String(retryAfterSeconds) }, retryAfterSeconds };
    }
    window.count++;
    headers["X-RateLimit-Remaining"] = String(this.limit.max - window.count);
    return { allowed: true, headers, retryAfterSeconds: 0 };
  }

  /** Forgets every window (admin reset). */
  clear(): void {
    this.windows.clear();
  }

  private sweep(now: number): void {
    for (const [userId, window] of this.windows) if (now >= window.start + this.limit.windowMs) this.windows.delete(userId);
  }
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/** `--signals-ai-limit MAX/WINDOW`: `10/60s`, `3/2s`, `100/500ms`, `20/1m`. */
export function parseAiLimit(text: string): { ok: true; limit: AiLimit } | { ok: false; message: string } {
  const match = /^(\d{1,6})\/(\d{1,9})(ms|s|m)$/.exec(text.trim());
  const usage = "write MAX/WINDOW, a whole number of requests per a window in ms, s or m (for example 10/60s, the default)";
  if (!match) return { ok: false, message: `\`${text}\` is not a limit; ${usage}` };
  const max = Number(match[1]);
  const windowMs = Number(match[2]) * UNIT_MS[match[3] as keyof typeof UNIT_MS];
  if (max < 1) return { ok: false, message: `the limit must allow at least 1 request per window (got ${max}); ${usage}` };
  if (windowMs < 1 || windowMs > 24 * 60 * 60 * 1000) return { ok: false, message: `the window must be from 1 ms to 24 hours (got ${match[2]}${match[3]})` };
  return { ok: true, limit: { max, windowMs } };
}
