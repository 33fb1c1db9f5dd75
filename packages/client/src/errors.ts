/**
 * Refusals as typed values: one `kind` per row of the reference's error table, plus `other`
 * for the service's own refusals (not found, not owner, a bad request...) and `network` for
 * an answer that never came. Each carries what a caller acts on: the status, the stable code,
 * the scope or feature that is missing, `details.reason`, and whether a retry can help.
 *
 * Messages come from the service's body or are written here; a credential is never part of
 * one (the client never puts it anywhere but the Authorization header).
 */
import { FEATURES, kindOf as contractKindOf, workflowsErrorRow, type WorkflowsErrorKind } from "@wfkit/api";
import type { Fault } from "@wfkit/core";
import { fault as faultShape } from "./answer-shapes.js";
import type { ErrorBody, Feature } from "./api-types.js";

/**
 * Why no answer came: the connection was refused, the host is unknown, the port is one fetch
 * never connects to (`blocked_port`, the one reason not worth a retry), the timeout ran out,
 * the answer broke off, or another failure of the connection.
 */
export type NoAnswerReason = "refused" | "unknown_host" | "blocked_port" | "timeout" | "broken_off" | "failed";
/** Why an answer was not taken: a redirect refused, too large, nested too deep, not JSON, or not its endpoint's shape. */
export type BadAnswerReason = "redirect" | "too_large" | "too_deep" | "not_json" | "shape";

/** The longest message taken from a service's error body (a hostile one could be megabytes on one line). */
export const MAX_SERVICE_MESSAGE = 500;

/** A service's message, cut to `MAX_SERVICE_MESSAGE` characters. */
export function clipMessage(message: string): string {
  return message.length <= MAX_SERVICE_MESSAGE ? message : `${message.slice(0, MAX_SERVICE_MESSAGE)}… (cut at ${MAX_SERVICE_MESSAGE} characters)`;
}

/** One kind per row of the reference's error table (@wfkit/api's `ERRORS`), `other` for the service's own refusals. */
export type ApiErrorKind = WorkflowsErrorKind;

/** Which row of the error table an answer is, from its status and code alone (@wfkit/api's `kindOf`). */
export const kindOf: (status: number, code: string) => ApiErrorKind = contractKindOf;

/** The service answered with a refusal. */
export class WorkflowsApiError extends Error {
  override readonly name = "WorkflowsApiError";
  readonly kind: ApiErrorKind;
  readonly code: string;
  readonly requiredScope: string | undefined;
  readonly requiredFeature: Feature | undefined;
  /** `details.reason` (research_capacity_unavailable). */
  readonly reason: string | undefined;
  /** The validation faults of a `400 validation_failed`. */
  readonly faults: Fault[] | undefined;
  /** Whether its row of the error table says a retry can help (only the usage system being unreachable); every 4xx is final. */
  readonly retryable: boolean;
  /**
   * True when the answer did not come in the service's error shape (`{error, message}`
   * strings): a 404 page of some other server, a proxy's error. The base URL is then most
   * likely not the Workflows API's, which is worth saying rather than the bare status.
   */
  readonly foreign: boolean;

  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    /** `METHOD /path` of the request, for messages (never a credential). */
    readonly request: string,
  ) {
    super(body.message);
    this.code = body.error;
    this.kind = kindOf(status, body.error);
    this.requiredScope = typeof body.required_scope === "string" ? body.required_scope : undefined;
    this.requiredFeature = (FEATURES as readonly unknown[]).includes(body.required_feature) ? (body.required_feature as Feature) : undefined;
    const details = body.details as { reason?: unknown } | undefined;
    this.reason = details && typeof details.reason === "string" ? details.reason : undefined;
    // Only entries of a fault's shape: whoever reads them (wfkit's remote check) may trust their fields.
    this.faults = Array.isArray(body.faults) ? (body.faults.filter((entry) => faultShape(entry) === undefined) as Fault[]) : undefined;
    this.retryable = workflowsErrorRow(status, body.error)?.retryable ?? false;
    this.foreign = FOREIGN_BODIES.has(body);
  }
}

/**
 * No answer: the connection failed or was refused, the timeout ran out, or the answer broke
 * off. Each client names its own (`WorkflowsNetworkError`, `SignalsNetworkError`). Worth
 * trying again on a request that is safe to send twice, unless fetch will never connect there.
 */
export abstract class NoAnswerError extends Error {
  readonly kind = "network" as const;
  readonly retryable: boolean;
  constructor(
    message: string,
    /** `METHOD /path` of the request. */
    readonly request: string,
    readonly reason: NoAnswerReason = "failed",
  ) {
    super(message);
    this.retryable = reason !== "blocked_port";
  }
}

/**
 * An answer came, and was not taken: a redirect the client will not follow, a body larger
 * than the client reads, not JSON, or not the shape the reference gives its endpoint. Each
 * client names its own (`WorkflowsProtocolError`, `SignalsProtocolError`). Never retried:
 * the same server would answer the same.
 */
export abstract class BadAnswerError extends Error {
  readonly kind = "bad_answer" as const;
  readonly retryable = false;
  constructor(
    message: string,
    /** `METHOD /path` of the request. */
    readonly request: string,
    readonly reason: BadAnswerReason,
  ) {
    super(message);
  }
}

/** The caller's AbortSignal fired (each client names its own). */
export abstract class CallAbortedError extends Error {
  readonly kind = "aborted" as const;
}

/** No answer from the Workflows API. */
export class WorkflowsNetworkError extends NoAnswerError {
  override readonly name = "WorkflowsNetworkError";
}

/** An answer from the Workflows API that the client did not take (see `BadAnswerError`). */
export class WorkflowsProtocolError extends BadAnswerError {
  override readonly name = "WorkflowsProtocolError";
}

/** The caller's AbortSignal fired, or the retry budget ran out while waiting. */
export class WorkflowsAbortError extends CallAbortedError {
  override readonly name = "WorkflowsAbortError";
}

export type WorkflowsError = WorkflowsApiError | WorkflowsNetworkError | WorkflowsProtocolError | WorkflowsAbortError;

export function isWorkflowsError(error: unknown): error is WorkflowsError {
  return error instanceof WorkflowsApiError || error instanceof WorkflowsNetworkError || error instanceof WorkflowsProtocolError || error instanceof WorkflowsAbortError;
}

/** Error bodies `errorBodyOf` made up because the answer had no `error` and `message` strings (see `WorkflowsApiError.foreign`). */
const FOREIGN_BODIES = new WeakSet<ErrorBody>();

/** Shapes an answer's JSON into an error body, whatever it held. */
export function errorBodyOf(status: number, json: unknown): ErrorBody {
  const object = json !== null && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  const body: ErrorBody = {
    ...object,
    error: typeof object.error === "string" ? object.error : `http_${status}`,
    message: typeof object.message === "string" ? clipMessage(object.message) : `The service answered ${status} without an error message.`,
  };
  if (typeof object.error !== "string" || typeof object.message !== "string") FOREIGN_BODIES.add(body);
  return body;
}
