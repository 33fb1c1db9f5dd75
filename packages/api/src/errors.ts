/**
 * Every refusal of the two APIs, in one table: its status, its stable code, the fields its
 * body carries beyond the base ones, the kind a client gives it, and whether trying again can
 * help. The service builds each refusal from its row (`@wfkit/service`'s `errors.ts` and
 * `signals/errors.ts` add the message), and the client reads an answer back by the same rows
 * (`kindOf`, `retryable`), so neither can name a code or a field the other does not know.
 *
 * - Workflows API bodies are `{error: <code>, message, ...fields}`. The rows marked
 *   `reference` are the reference's error table, with its codes and body fields; the others
 *   are the local service's choices for what the reference does not show (docs/service.md).
 * - Consumer Signals API bodies are `{ok: false, error: <message>, code, ...fields}`: the
 *   reference shows only the 429's body (`{ok: false, error}`, nothing added), so the others
 *   take its shape plus a stable `code` (docs/signals.md). Its client reads a refusal by its
 *   status alone (`SIGNALS_STATUS_KINDS`), since the reference names no codes.
 */

/** What a Workflows client makes of a refusal: one kind per row of the reference's error table, `other` for the rest. */
export type WorkflowsErrorKind =
  | "validation_failed"
  | "unauthenticated"
  | "plan_required"
  | "allowance_exhausted"
  | "insufficient_scope"
  | "gate_required"
  | "no_published_version"
  | "usage_unavailable"
  | "workflows_unavailable"
  | "other";

export interface ErrorRow {
  api: "workflows" | "signals";
  status: 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 500 | 503;
  /** The stable code: `error` of a Workflows body, `code` of a Consumer Signals body (null: the reference's 429, which has none). */
  code: string | null;
  /** Fields every such body carries beyond the base ones. */
  fields: readonly string[];
  /** Fields some such bodies carry. */
  optional?: readonly string[];
  /** Headers the answer carries. */
  headers?: readonly string[];
  /** The Workflows client's kind (Consumer Signals refusals are read by status: `SIGNALS_STATUS_KINDS`). */
  kind?: WorkflowsErrorKind;
  /** Whether the same request can succeed later unchanged. */
  retryable: boolean;
  /** A row of the reference's error table, rather than the local service's choice. */
  reference?: true;
}

export const ERRORS = {
  // ---- the Workflows API: the reference's error table -----------------------------------------
  validationFailed: { api: "workflows", status: 400, code: "validation_failed", fields: ["faults"], kind: "validation_failed", retryable: false, reference: true },
  unauthenticated: { api: "workflows", status: 401, code: "UNAUTHENTICATED", fields: [], headers: ["WWW-Authenticate"], kind: "unauthenticated", retryable: false, reference: true },
  planRequired: { api: "workflows", status: 402, code: "plan_required", fields: ["required_feature"], kind: "plan_required", retryable: false, reference: true },
  allowanceExhausted: { api: "workflows", status: 402, code: "research_capacity_unavailable", fields: ["details"], kind: "allowance_exhausted", retryable: false, reference: true },
  insufficientScope: { api: "workflows", status: 403, code: "insufficient_scope", fields: ["required_scope"], kind: "insufficient_scope", retryable: false, reference: true },
  gateRequired: { api: "workflows", status: 403, code: "GATE_REQUIRED", fields: [], kind: "gate_required", retryable: false, reference: true },
  noPublishedVersion: { api: "workflows", status: 404, code: "no_published_version", fields: [], kind: "no_published_version", retryable: false, reference: true },
  usageUnavailable: { api: "workflows", status: 503, code: "research_capacity_unavailable", fields: ["details"], headers: ["Retry-After"], kind: "usage_unavailable", retryable: true, reference: true },
  workflowsUnavailable: { api: "workflows", status: 503, code: "workflows_unavailable", fields: ["region"], kind: "workflows_unavailable", retryable: false, reference: true },

  // ---- the Workflows API: the local service's own ----------------------------------------------
  productNotAllowed: { api: "workflows", status: 403, code: "product_not_allowed", fields: ["required_product"], kind: "other", retryable: false },
  ipNotAllowed: { api: "workflows", status: 403, code: "ip_not_allowed", fields: [], kind: "other", retryable: false },
  notOwner: { api: "workflows", status: 403, code: "not_owner", fields: [], kind: "other", retryable: false },
  invalidRequest: { api: "workflows", status: 400, code: "invalid_request", fields: [], optional: ["pointer"], kind: "other", retryable: false },
  malformedJson: { api: "workflows", status: 400, code: "malformed_json", fields: [], optional: ["code", "offset"], kind: "other", retryable: false },
  payloadTooLarge: { api: "workflows", status: 413, code: "payload_too_large", fields: [], kind: "other", retryable: false },
  routeNotFound: { api: "workflows", status: 404, code: "route_not_found", fields: [], kind: "other", retryable: false },
  methodNotAllowed: { api: "workflows", status: 405, code: "method_not_allowed", fields: [], headers: ["Allow"], kind: "other", retryable: false },
  notShown: { api: "workflows", status: 404, code: "not_shown", fields: [], kind: "other", retryable: false },
  workflowNotFound: { api: "workflows", status: 404, code: "workflow_not_found", fields: [], kind: "other", retryable: false },
  versionNotFound: { api: "workflows", status: 404, code: "version_not_found", fields: [], kind: "other", retryable: false },
  runNotFound: { api: "workflows", status: 404, code: "run_not_found", fields: [], kind: "other", retryable: false },
  runNotHeld: { api: "workflows", status: 409, code: "run_not_held", fields: ["state"], kind: "other", retryable: false },
  runFinished: { api: "workflows", status: 409, code: "run_finished", fields: ["state"], kind: "other", retryable: false },
  idempotencyKeyReused: { api: "workflows", status: 422, code: "idempotency_key_reused", fields: [], kind: "other", retryable: false },
  unknownMockCase: { api: "workflows", status: 400, code: "unknown_mock_case", fields: [], kind: "other", retryable: false },
  userNotFound: { api: "workflows", status: 404, code: "user_not_found", fields: [], kind: "other", retryable: false },
  accountNotFound: { api: "workflows", status: 404, code: "account_not_found", fields: [], kind: "other", retryable: false },
  keyNotFound: { api: "workflows", status: 404, code: "key_not_found", fields: [], kind: "other", retryable: false },
  alertNotFound: { api: "workflows", status: 404, code: "alert_not_found", fields: [], kind: "other", retryable: false },
  adminForbidden: { api: "workflows", status: 403, code: "admin_forbidden", fields: [], kind: "other", retryable: false },
  storageFailed: { api: "workflows", status: 500, code: "storage_failed", fields: [], kind: "other", retryable: false },
  internalError: { api: "workflows", status: 500, code: "internal_error", fields: [], kind: "other", retryable: false },

  // ---- the Consumer Signals API (all the local service's, but the 429) -------------------------
  signalsUnauthenticated: { api: "signals", status: 401, code: "unauthenticated", fields: [], optional: [], headers: ["WWW-Authenticate"], retryable: false },
  invalidParameter: { api: "signals", status: 400, code: "invalid_parameter", fields: ["parameter"], optional: ["suggestion"], retryable: false },
  unknownParameter: { api: "signals", status: 400, code: "unknown_parameter", fields: ["parameter"], optional: ["suggestion"], retryable: false },
  signalsValidationFailed: { api: "signals", status: 400, code: "validation_failed", fields: ["faults"], retryable: false },
  signalsMalformedJson: { api: "signals", status: 400, code: "malformed_json", fields: [], retryable: false },
  signalsPayloadTooLarge: { api: "signals", status: 413, code: "payload_too_large", fields: [], retryable: false },
  briefingNotFound: { api: "signals", status: 404, code: "briefing_not_found", fields: ["parameter"], retryable: false },
  sectorNotFound: { api: "signals", status: 404, code: "sector_not_found", fields: [], retryable: false },
  viewNotFound: { api: "signals", status: 404, code: "view_not_found", fields: [], retryable: false },
  signalsRouteNotFound: { api: "signals", status: 404, code: "route_not_found", fields: [], retryable: false },
  signalsMethodNotAllowed: { api: "signals", status: 405, code: "method_not_allowed", fields: [], headers: ["Allow"], retryable: false },
  /** The reference's 429, exactly: `{ok: false, error}`, the message stating the seconds to wait. */
  rateLimited: { api: "signals", status: 429, code: null, fields: [], headers: ["Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"], retryable: true, reference: true },
} as const satisfies Record<string, ErrorRow>;

export type ErrorName = keyof typeof ERRORS;

/** The base fields of each API's refusal body (`fields` and `optional` come on top). */
export const ERROR_BODY_BASE = {
  workflows: ["error", "message"],
  signals: ["ok", "error", "code"],
} as const;

const WORKFLOWS_ROWS: readonly ErrorRow[] = Object.values(ERRORS).filter((row: ErrorRow) => row.api === "workflows");

/** The Workflows error-table row of an answer, from its status and code alone (undefined: a code the table does not hold). */
export function workflowsErrorRow(status: number, code: string): ErrorRow | undefined {
  return WORKFLOWS_ROWS.find((row) => row.status === status && row.code === code);
}

/** Which row of the reference's error table an answer is, from its status and code alone. */
export function kindOf(status: number, code: string): WorkflowsErrorKind {
  return workflowsErrorRow(status, code)?.kind ?? "other";
}

/**
 * What the Consumer Signals client makes of a refusal, by status alone (the reference shows no
 * error body or code but the 429's): wfkit's reading, listed in docs/signals.md. Only a
 * gateway or availability failure (and a 429, which the AI endpoints wait out) is worth trying
 * again.
 */
export const SIGNALS_STATUS_KINDS = {
  400: { kind: "bad_request", retryable: false },
  422: { kind: "bad_request", retryable: false },
  401: { kind: "unauthenticated", retryable: false },
  403: { kind: "forbidden", retryable: false },
  404: { kind: "not_found", retryable: false },
  429: { kind: "rate_limited", retryable: false },
  502: { kind: "unavailable", retryable: true },
  503: { kind: "unavailable", retryable: true },
  504: { kind: "unavailable", retryable: true },
} as const satisfies Record<number, { kind: string; retryable: boolean }>;

export type SignalsErrorKind = (typeof SIGNALS_STATUS_KINDS)[keyof typeof SIGNALS_STATUS_KINDS]["kind"] | "other";

export function signalsKindOf(status: number): SignalsErrorKind {
  return (SIGNALS_STATUS_KINDS as Record<number, { kind: SignalsErrorKind }>)[status]?.kind ?? "other";
}

export function signalsRetryable(status: number): boolean {
  return (SIGNALS_STATUS_KINDS as Record<number, { retryable: boolean }>)[status]?.retryable ?? false;
}
