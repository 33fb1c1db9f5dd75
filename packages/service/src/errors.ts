/**
 * Every refusal of the Workflows API (and of the admin surface and the assistant surface's
 * gate), built from its row of @wfkit/api's error table (`ERRORS`: status, code, body fields),
 * with the message said here. The rows of the reference's error table keep the reference's
 * codes and body fields (`required_feature`, `required_scope`, `details.reason`); the rest are
 * the service's own choices for what the reference does not show, listed in docs/service.md.
 *
 * Every body is `{error, message, ...}`: `error` is the stable code, `message` says what is
 * wrong and what to do.
 */
import { ERRORS, type ErrorBody, type Feature, type UsageOutage } from "@wfkit/api";
import { tooDeeplyNestedMessage, type Fault } from "@wfkit/core";

export type { ErrorBody, Feature, UsageOutage };

type WorkflowsRow = Extract<(typeof ERRORS)[keyof typeof ERRORS], { api: "workflows" }>;
type Status = WorkflowsRow["status"];

/** A refusal on its way to becoming a response; handlers throw it, the app renders it. */
export class ApiError extends Error {
  constructor(
    readonly status: Status,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

/** A refusal of `row`: its status and code, the message, and the fields its row names. */
function refuse(row: WorkflowsRow, message: string, fields: Record<string, unknown> = {}, headers: Record<string, string> = {}): ApiError {
  return new ApiError(row.status, { error: row.code, message, ...fields }, headers);
}

export const errors = {
  // The reference's error table.
  validation: (faults: readonly Fault[]) =>
    refuse(
      ERRORS.validationFailed,
      `The definition has ${faults.filter((f) => f.severity === "error").length} error(s); each fault names its node and the place in the body (a JSON Pointer). Fix them and send it again (\`wfkit check\` gives the same verdict offline).`,
      { faults },
    ),
  unauthenticated: (why: string) =>
    refuse(ERRORS.unauthenticated, `${why}. Send \`Authorization: Bearer <credential>\` with an API key, a session token or an OAuth access token.`, {}, { "WWW-Authenticate": 'Bearer realm="wfkit"' }),
  planRequired: (feature: Feature, plan: string) =>
    refuse(
      ERRORS.planRequired,
      feature === "workflows_api"
        ? `The account's plan (${plan}) has Workflows in the browser only; calling the API with a key or an OAuth token needs a plan with \`workflows_api\`. Upgrade the plan, or use the browser application.`
        : feature === "anya"
          ? `The assistant surface (/anya) is gated by the \`anya\` entitlement, which the account (plan ${plan}) does not hold; API scopes do not grant it. Ask for the entitlement on the account (locally: \`"entitlements": ["anya"]\` on the account in the seed file, or POST /__admin/accounts/{id}).`
          : `The account's plan (${plan}) does not include Workflows. Upgrade the plan to use it.`,
      { required_feature: feature },
    ),
  allowanceExhausted: (needed: number, left: number) =>
    refuse(
      ERRORS.allowanceExhausted,
      `The run would reserve ${needed} minor units but the account has ${left} left of its allowance for the period; no run was started. The allowance clears on reset or plan change.`,
      { details: { reason: "allowance_exhausted", requiredMinorUnits: needed, availableMinorUnits: left } },
    ),
  usageUnavailable: (reason: UsageOutage) =>
    refuse(
      ERRORS.usageUnavailable,
      `The usage system could not be reached (${reason}), so no allowance could be reserved and no run was started. Retry later.`,
      { details: { reason } },
      { "Retry-After": "5" },
    ),
  insufficientScope: (scope: string) => refuse(ERRORS.insufficientScope, `This route needs the \`${scope}\` scope and the key does not have it. Use a key with \`${scope}\`.`, { required_scope: scope }),
  gateRequired: () => refuse(ERRORS.gateRequired, "An acceptance is outstanding on the account (for example updated terms); clear it in the browser application, then retry."),
  noPublishedVersion: (workflowId: string) =>
    refuse(ERRORS.noPublishedVersion, `Workflow ${workflowId} has no published version, and only a published version runs. Publish a version first (POST .../versions/{version}/publish).`),
  workflowsUnavailable: (region: string) => refuse(ERRORS.workflowsUnavailable, `Workflows is not available in the account's region (${region}).`, { region }),

  // The service's own refusals (not in the reference's table; see docs/service.md).
  productNotAllowed: () =>
    refuse(ERRORS.productNotAllowed, "The key is valid but its products do not include `product_research`, which this API needs. Create a key for the research product.", {
      required_product: "product_research",
    }),
  ipNotAllowed: (ip: string) => refuse(ERRORS.ipNotAllowed, `The key may only be used from the addresses on its IP allowlist, and ${ip || "this address"} is not on it.`),
  notOwner: (what: string) => refuse(ERRORS.notOwner, `Only the workflow's owner may ${what}; organisation members can read the workflow and its runs but not change or run it.`),
  badRequest: (message: string, pointer?: string) => refuse(ERRORS.invalidRequest, message, pointer !== undefined ? { pointer } : {}),
  malformedJson: (detail: string) => refuse(ERRORS.malformedJson, `The body is not valid JSON (${detail}). Send a JSON object.`),
  tooDeeplyNested: (offset: number) =>
    refuse(ERRORS.malformedJson, `The body cannot be read: ${tooDeeplyNestedMessage("a request body")}. The first bracket too deep is at character ${offset}; flatten the value.`, { code: "json-syntax", offset }),
  bodyTooLarge: (limit: number) => refuse(ERRORS.payloadTooLarge, `The body is larger than ${limit} bytes, the most this service accepts.`),
  routeNotFound: (method: string, path: string) =>
    refuse(ERRORS.routeNotFound, `There is no route ${method} ${path}. The Workflows API lives under /api/v1/workflows, the Consumer Signals API under /signals/api (see docs/service.md).`),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    refuse(ERRORS.methodNotAllowed, `${path} does not accept ${method}; it accepts ${allowed.join(", ")}.`, {}, { Allow: allowed.join(", ") }),
  anyaNotShown: (method: string, path: string) =>
    refuse(
      ERRORS.notShown,
      `${method} ${path} passed the assistant surface's gate (the \`anya\` entitlement), but the reference does not show what the surface holds, so wfkit serve has nothing behind it.`,
    ),
  workflowNotFound: (id: string) => refuse(ERRORS.workflowNotFound, `There is no workflow ${id} that this caller can see.`),
  versionNotFound: (id: string) => refuse(ERRORS.versionNotFound, `Workflow has no version ${id}.`),
  runNotFound: (id: string) => refuse(ERRORS.runNotFound, `This workflow has no run ${id}.`),
  runNotHeld: (id: string, state: string) => refuse(ERRORS.runNotHeld, `Run ${id} is ${state}; only a run a hold gate is holding can be delivered.`, { state }),
  runFinished: (id: string, state: string) => refuse(ERRORS.runFinished, `Run ${id} has already finished (${state}); only an open run can be cancelled.`, { state }),
  idempotencyKeyReused: () =>
    refuse(ERRORS.idempotencyKeyReused, "This Idempotency-Key was already used with a different request (another workflow, body or mock case). Use a new key for a new run."),
  unknownMockCase: (name: string, known: readonly string[]) => refuse(ERRORS.unknownMockCase, `The mock file has no test case \`${name}\` (it has: ${known.join(", ") || "none"}).`),
  userNotFound: (id: string) => refuse(ERRORS.userNotFound, `There is no user ${id}.`),
  accountNotFound: (id: string, known: readonly string[]) => refuse(ERRORS.accountNotFound, `There is no account ${id} (accounts: ${known.join(", ")}).`),
  keyNotFound: (id: string) => refuse(ERRORS.keyNotFound, `There is no API key ${id}.`),
  alertNotFound: (id: string) => refuse(ERRORS.alertNotFound, `There is no alert ${id}. GET /signals/api/alerts (with the alert token) lists a user's alerts.`),
  adminForbidden: (why: string) => refuse(ERRORS.adminForbidden, why),
  storageFailed: (detail: string) =>
    refuse(ERRORS.storageFailed, `The change could not be written to the database (${detail}); it was not made. Check the --db file's disk.`),
  internal: () =>
    refuse(
      ERRORS.internalError,
      "The service failed on this request; this is a bug in wfkit serve (its log has the details). Nothing was changed unless the response said so.",
    ),
} as const;
