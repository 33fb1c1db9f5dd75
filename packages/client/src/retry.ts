/**
 * When to try again, in one place: capped exponential backoff with jitter, within a total
 * time budget and the caller's AbortSignal. The clock, the sleep and the random source are
 * injected, so tests run the policy without waiting.
 */
import { WorkflowsAbortError } from "./errors.js";

export interface RetryPolicy {
  /** The first wait, before jitter (default 250 ms). */
  baseDelayMs: number;
  /** No single wait is longer (default 8 s). */
  maxDelayMs: number;
  /** Attempts stop once the next wait would end past this much time since the first (default 30 s). */
  budgetMs: number;
  /** At most this many attempts in all (default 8). */
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 250, maxDelayMs: 8_000, budgetMs: 30_000, maxAttempts: 8 };

export interface Timing {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1). */
  random(): number;
}

export const realTiming: Timing = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new WorkflowsAbortError("aborted"));
      const onAbort = () => {
        clearTimeout(timer);
        reject(new WorkflowsAbortError("aborted"));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/**
 * The wait before attempt `attempt + 1` (attempt counts from 0): "equal jitter", half the
 * capped exponential step fixed and half random, so waits grow yet callers do not retry in step.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + (step / 2) * random);
}

/**
 * Runs `attempt` until it succeeds or throws something `retryable` says is final, waiting
 * between tries. Past the budget or the attempt limit, the last error is thrown.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  retryable: (error: unknown) => boolean,
  policy: RetryPolicy,
  timing: Timing,
  signal: AbortSignal | undefined,
  onRetry?: (error: unknown, delayMs: number, attempt: number) => void,
): Promise<T> {
  const start = timing.now();
  for (let tries = 0; ; tries++) {
    if (signal?.aborted) throw new WorkflowsAbortError("aborted");
    try {
      return await attempt();
    } catch (error) {
      if (!retryable(error) || tries + 1 >= policy.maxAttempts) throw error;
      const delay = backoffDelay(policy, tries, timing.random());
      if (timing.now() + delay - start > policy.budgetMs) throw error;
      onRetry?.(error, delay, tries + 1);
      await timing.sleep(delay, signal);
    }
  }
}
