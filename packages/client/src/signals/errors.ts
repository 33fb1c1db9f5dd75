/**
 * What a Consumer Signals call can end in, as typed values:
 *
 * - `SignalsRequestError`: the client refused to send, because a parameter or body breaks
 *   what the reference says, or a credential is missing. Nothing was sent. Each has a stable
 *   `code` (`SIGNALS_REQUEST_CODES`), the parameter it names, and a message saying what is
 *   wrong, why, and what to do.
 * - `SignalsApiError`: the service answered with a refusal. The reference shows only the
 *   `429` body; for any other status the error's `kind` comes from the status alone.
 * - `SignalsRateLimitError`: the AI endpoints' shared limit would need a longer wait than the
 *   caller's budget allows (after a `429`, or before sending, by the client's own count).
 * - `SignalsNetworkError`: no answer (refused, timed out, broken off).
 * - `SignalsProtocolError`: an answer not taken: a redirect refused, one too large, not JSON,
 *   or not the shape the reference gives its endpoint. Never retried.
 * - `SignalsAbortError`: the caller's AbortSignal fired.
 *
 * Messages never carry a credential: the client redacts both before building one.
 */
import { signalsKindOf as contractSignalsKindOf, signalsRetryable, type SignalsErrorKind } from "@wfkit/api";
import type { Fault } from "@wfkit/core";
import { BadAnswerError, CallAbortedError, clipMessage, NoAnswerError } from "../errors.js";
import type { RateLimitInfo } from "./rate-limit.js";

export const SIGNALS_REQUEST_CODES = {
  geographyInvalid: "geography-invalid",
  geographyUnsupported: "geography-unsupported",
  severityInvalid: "severity-invalid",
  periodsInvalid: "periods-invalid",
  dateInvalid: "date-invalid",
  dateRangeReversed: "date-range-reversed",
  identifierInvalid: "identifier-invalid",
  textInvalid: "text-invalid",
  bodyInvalid: "body-invalid",
  credentialMissing: "credential-missing",
} as const;
export type SignalsRequestCode = (typeof SIGNALS_REQUEST_CODES)[keyof typeof SIGNALS_REQUEST_CODES];

export interface SignalsRequestProblem {
  code: SignalsRequestCode;
  /** The parameter or body the problem is in (`geography`, `from`, `body`...). */
  parameter: string;
  /** What is wrong, why, and what to do, in one message. */
  message: string;
  /** The value to use instead, where one is clear. */
  suggestion?: string;
  /** For `body-invalid`: every fault core's rules found (errors and warnings). */
  faults?: Fault[];
}

/** The client refused to send the request; nothing reached the service. */
export class SignalsRequestError extends Error {
  override readonly name = "SignalsRequestError";
  readonly kind = "request" as const;
  readonly retryable = false;
  readonly code: SignalsRequestCode;
  readonly parameter: string;
  readonly suggestion: string | undefined;
  readonly faults: Fault[] | undefined;

  constructor(
    problem: SignalsRequestProblem,
    /** `METHOD /path` of the call that was refused. */
    readonly request: string,
  ) {
    super(problem.message);
    this.code = problem.code;
    this.parameter = problem.parameter;
    this.suggestion = problem.suggestion;
    this.faults = problem.faults;
  }
}

/**
 * Which kind of refusal an answer is, from its status alone (the reference shows no error
 * body or code but the 429's): wfkit's reading, @wfkit/api's `SIGNALS_STATUS_KINDS`, listed in
 * docs/signals.md.
 */
export type SignalsApiErrorKind = SignalsErrorKind;
export const signalsKindOf: (status: number) => SignalsApiErrorKind = contractSignalsKindOf;

/** The service answered with a refusal. */
export class SignalsApiError extends Error {
  override readonly name = "SignalsApiError";
  readonly kind: SignalsApiErrorKind;
  /** Only a gateway or availability failure on a read is worth trying again. */
  readonly retryable: boolean;

  constructor(
    readonly status: number,
    /** The answer's JSON, or undefined when it had none. */
    readonly body: unknown,
    readonly request: string,
    /** The `X-RateLimit-*` and `Retry-After` headers of the answer, when it had any. */
    readonly rateLimit: RateLimitInfo | undefined,
  ) {
    super(messageOf(status, body));
    this.kind = signalsKindOf(status);
    this.retryable = signalsRetryable(status);
  }
}

function messageOf(status: number, body: unknown): string {
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    for (const key of ["message", "error", "detail"]) if (typeof record[key] === "string" && record[key]) return clipMessage(record[key] as string);
  }
  return `The service answered ${status} without an error message.`;
}

/** The AI endpoints' shared limit needs a longer wait than the call's budget allows. */
export class SignalsRateLimitError extends Error {
  override readonly name = "SignalsRateLimitError";
  readonly kind = "rate_limited" as const;
  readonly retryable = true;

  constructor(
    message: string,
    readonly request: string,
    /** `service`: the last answer was a 429; `client`: the client's own count held the request back, unsent. */
    readonly origin: "service" | "client",
    /** When (ms since the epoch, on the client's clock) a request could go. */
    readonly retryAt: number,
    /** Requests sent for this call (429s included). */
    readonly attempts: number,
    /** The last 429's `Retry-After` and `X-RateLimit-*` headers (origin `service`). */
    readonly rateLimit: RateLimitInfo | undefined,
  ) {
    super(message);
  }
}

/** No answer from the Consumer Signals API. */
export class SignalsNetworkError extends NoAnswerError {
  override readonly name = "SignalsNetworkError";
}

/** An answer from the Consumer Signals API that the client did not take (see `BadAnswerError`). */
export class SignalsProtocolError extends BadAnswerError {
  override readonly name = "SignalsProtocolError";
}

/** The caller's AbortSignal fired, before an answer or during a wait. */
export class SignalsAbortError extends CallAbortedError {
  override readonly name = "SignalsAbortError";
}

export type SignalsError = SignalsRequestError | SignalsApiError | SignalsRateLimitError | SignalsNetworkError | SignalsProtocolError | SignalsAbortError;

export function isSignalsError(error: unknown): error is SignalsError {
  return (
    error instanceof SignalsRequestError ||
    error instanceof SignalsApiError ||
    error instanceof SignalsRateLimitError ||
    error instanceof SignalsNetworkError ||
    error instanceof SignalsProtocolError ||
    error instanceof SignalsAbortError
  );
}
