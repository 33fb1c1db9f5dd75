/**
 * Every refusal the service can answer with, in one registry: its status, its code and the
 * body it carries. The rows of the reference's error table keep the reference's codes and
 * body fields (`required_feature`, `required_scope`, `details.reason`); the rest are the
 * service's own choices for what the reference does not show, listed in docs/service.md.
 *
 * Every body is `{error, message, ...}`: `error` is the stable code, `message` says what is
 * wrong and what to do.
 */
import { tooDeeplyNestedMessage, type Fault } from "@wfkit/core";

export interface ErrorBody {
  error: string;
  message: string;
  [field: string]: unknown;
}

/** A refusal on its way to becoming a response; handlers throw it, the app renders it. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413 | 422 | 500 | 503,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

/** What a `402 plan_required` names as `required_feature`: a plan feature, or the assistant surface's entitlement. */
export type Feature = "workflows" | "workflows_api" | "anya";
export type UsageOutage = "credit_policy_unconfigured" | "platform_unavailable";

export const errors = {
  // The reference's error table.
  validation: (faults: readonly Fault[]) =>
    new ApiError(400, {
      error: "validation_failed",
      message: `The definition has ${faults.filter((f) => f.severity === "error").length} error(s); each fault names its node and the place in the body (a JSON Pointer). Fix them and send it again (\`wfkit check\` gives the same verdict offline).`,
      faults,
    }),
  unauthenticated: (why: string) =>
    new ApiError(401, { error: "UNAUTHENTICATED", message: `${why}. Send \`Authorization: Bearer <credential>\` with an API key, a session token or an OAuth access token.` }, { "WWW-Authenticate": 'Bearer realm="wfkit"' }),
  planRequired: (feature: Feature, plan: string) =>
    new ApiError(402, {
      error: "plan_required",
      message:
        feature === "workflows_api"
          ? `The account's plan (${plan}) has Workflows in the browser only; calling the API with a key or an OAuth token needs a plan with \`workflows_api\`. Upgrade the plan, or use the browser application.`
          : feature === "anya"
            ? `The assistant surface (/anya) is gated by the \`anya\` entitlement, which the account (plan ${plan}) does not hold; API scopes do not grant it. Ask for the entitlement on the account (locally: \`"entitlements": ["anya"]\` on the account in the seed file, or POST /__admin/accounts/{id}).`
            : `The account's plan (${plan}) does not include Workflows. Upgrade the plan to use it.`,
      required_feature: feature,
    }),
  allowanceExhausted: (needed: number, left: number) =>
    new ApiError(402, {
      error: "research_capacity_unavailable",
      message: `The run would reserve ${needed} minor units but the account has ${left} left of its allowance for the period; no run was started. The allowance clears on reset or plan change.`,
      details: { reason: "allowance_exhausted", requiredMinorUnits: needed, availableMinorUnits: left },
    }),
  usageUnavailable: (reason: UsageOutage) =>
    new ApiError(
      503,
      {
        error: "research_capacity_unavailable",
        message: `The usage system could not be reached (${reason}), so no allowance could be reserved and no run was started. Retry later.`,
        details: { reason },
      },
      { "Retry-After": "5" },
    ),
  insufficientScope: (scope: string) =>
    new ApiError(403, { error: "insufficient_scope", message: `This route needs the \`${scope}\` scope and the key does not have it. Use a key with \`${scope}\`.`, required_scope: scope }),
  gateRequired: () =>
    new ApiError(403, { error: "GATE_REQUIRED", message: "An acceptance is outstanding on the account (for example updated terms); clear it in the browser application, then retry." }),
  noPublishedVersion: (workflowId: string) =>
    new ApiError(404, { error: "no_published_version", message: `Workflow ${workflowId} has no published version, and only a published version runs. Publish a version first (POST .../versions/{version}/publish).` }),
  workflowsUnavailable: (region: string) =>
    new ApiError(503, { error: "workflows_unavailable", message: `Workflows is not available in the account's region (${region}).`, region }),

  // The service's own refusals (not in the reference's table; see docs/service.md).
  productNotAllowed: () =>
    new ApiError(403, {
      error: "product_not_allowed",
      message: "The key is valid but its products do not include `product_research`, which this API needs. Create a key for the research product.",
      required_product: "product_research",
    }),
  ipNotAllowed: (ip: string) =>
    new ApiError(403, { error: "ip_not_allowed", message: `The key may only be used from the addresses on its IP allowlist, and ${ip || "this address"} is not on it.` }),
  notOwner: (what: string) =>
    new ApiError(403, { error: "not_owner", message: `Only the workflow's owner may ${what}; organisation members can read the workflow and its runs but not change or run it.` }),
  badRequest: (message: string, pointer?: string) => new ApiError(400, { error: "invalid_request", message, ...(pointer !== undefined ? { pointer } : {}) }),
  malformedJson: (detail: string) => new ApiError(400, { error: "malformed_json", message: `The body is not valid JSON (${detail}). Send a JSON object.` }),
  tooDeeplyNested: (offset: number) =>
    new ApiError(400, { error: "malformed_json", message: `The body cannot be read: ${tooDeeplyNestedMessage("a request body")}. The first bracket too deep is at character ${offset}; flatten the value.`, code: "json-syntax", offset }),
  bodyTooLarge: (limit: number) => new ApiError(413, { error: "payload_too_large", message: `The body is larger than ${limit} bytes, the most this service accepts.` }),
  routeNotFound: (method: string, path: string) =>
    new ApiError(404, { error: "route_not_found", message: `There is no route ${method} ${path}. The Workflows API lives under /api/v1/workflows, the Consumer Signals API under /signals/api (see docs/service.md).` }),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    new ApiError(405, { error: "method_not_allowed", message: `${path} does not accept ${method}; it accepts ${allowed.join(", ")}.` }, { Allow: allowed.join(", ") }),
  anyaNotShown: (method: string, path: string) =>
    new ApiError(404, {
      error: "not_shown",
      message: `${method} ${path} passed the assistant surface's gate (the \`anya\` entitlement), but the reference does not show what the surface holds, so wfkit serve has nothing behind it.`,
    }),
  workflowNotFound: (id: string) => new ApiError(404, { error: "workflow_not_found", message: `There is no workflow ${id} that this caller can see.` }),
  versionNotFound: (id: string) => new ApiError(404, { error: "version_not_found", message: `Workflow has no version ${id}.` }),
  runNotFound: (id: string) => new ApiError(404, { error: "run_not_found", message: `This workflow has no run ${id}.` }),
  runNotHeld: (id: string, state: string) =>
    new ApiError(409, { error: "run_not_held", message: `Run ${id} is ${state}; only a run a hold gate is holding can be delivered.`, state }),
  runFinished: (id: string, state: string) => new ApiError(409, { error: "run_finished", message: `Run ${id} has already finished (${state}); only an open run can be cancelled.`, state }),
  idempotencyKeyReused: () =>
    new ApiError(422, {
      error: "idempotency_key_reused",
      message: "This Idempotency-Key was already used with a different request (another workflow, body or mock case). Use a new key for a new run.",
    }),
  unknownMockCase: (name: string, known: readonly string[]) =>
    new ApiError(400, { error: "unknown_mock_case", message: `The mock file has no test case \`${name}\` (it has: ${known.join(", ") || "none"}).` }),
  userNotFound: (id: string) => new ApiError(404, { error: "user_not_found", message: `There is no user ${id}.` }),
  adminForbidden: (why: string) => new ApiError(403, { error: "admin_forbidden", message: why }),
  storageFailed: (detail: string) =>
    new ApiError(500, { error: "storage_failed", message: `The change could not be written to the database (${detail}); it was not made. Check the --db file's disk.` }),
} as const;
