/**
 * Every refusal of the Consumer Signals API, each built from its row of @wfkit/api's error
 * table (`ERRORS`: status, code, body fields) with the message said here. The reference shows
 * one error body, the 429's `{ok: false, error: string}` with `error` a message; the other
 * bodies are "not shown", so they take the same shape plus a stable `code` (and, where it
 * helps, the parameter or the checker's faults): `{ok: false, error: <what is wrong and what
 * to do>, code, ...}`. The 429 body is the reference's exactly, with nothing added.
 */
import { ERRORS } from "@wfkit/api";
import type { Fault } from "@wfkit/core";
import { ALERT_TOKEN_PREFIX, SIGNALS_BASE_PATH } from "./policy.js";

export interface SignalsErrorBody {
  ok: false;
  error: string;
  code?: string;
  [field: string]: unknown;
}

type SignalsRow = Extract<(typeof ERRORS)[keyof typeof ERRORS], { api: "signals" }>;
/** Its own rows' statuses, and 500 for a failure of the code the two APIs share. */
export type SignalsStatus = SignalsRow["status"] | 500;

export class SignalsError extends Error {
  constructor(
    readonly status: SignalsStatus,
    readonly body: SignalsErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.error);
  }
}

const refuse = (row: SignalsRow & { code: string }, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  new SignalsError(row.status, { ok: false, error, code: row.code, ...extra }, headers);

export type Credential = "jwt" | "alert_token";

const HOW_TO_SEND: Record<Credential, string> = {
  jwt: "Send `Authorization: Bearer <JWT>` (the `keys.jwt` of `wfkit serve --json`, or a session token from POST /__admin/sessions)",
  alert_token: `Send the header \`X-Alert-Token: <alert token>\` (the \`keys.alertToken\` of \`wfkit serve --json\`, or one from POST /__admin/alert-tokens; it starts with \`${ALERT_TOKEN_PREFIX}\`)`,
};

export const signalsErrors = {
  unauthenticated: (credential: Credential, why: string) =>
    refuse(ERRORS.signalsUnauthenticated, `${why}. ${HOW_TO_SEND[credential]}.`, {}, credential === "jwt" ? { "WWW-Authenticate": 'Bearer realm="wfkit-signals"' } : {}),
  invalidParameter: (parameter: string, message: string, suggestion?: string) =>
    refuse(ERRORS.invalidParameter, message, { parameter, ...(suggestion !== undefined ? { suggestion } : {}) }),
  unknownParameter: (parameter: string, known: readonly string[], suggestion: string | undefined) =>
    refuse(
      ERRORS.unknownParameter,
      `\`${parameter}\` is not a query parameter of this endpoint${suggestion ? `; did you mean \`${suggestion}\`?` : ""} It takes ${known.length ? known.map((name) => `\`${name}\``).join(", ") : "no query parameters"}.`,
      { parameter, ...(suggestion !== undefined ? { suggestion } : {}) },
    ),
  validation: (what: "alert" | "saved view", faults: readonly Fault[]) =>
    refuse(
      ERRORS.signalsValidationFailed,
      `The ${what} has ${faults.filter((fault) => fault.severity === "error").length} error(s); each fault names the field at fault (a JSON Pointer) and what to do. Fix them and send it again (\`wfkit check\` gives the same verdict offline).`,
      { faults },
    ),
  malformedJson: (detail: string) => refuse(ERRORS.signalsMalformedJson, `The body is not valid JSON (${detail}). Send a JSON object.`),
  bodyTooLarge: (limit: number) => refuse(ERRORS.signalsPayloadTooLarge, `The body is larger than ${limit} bytes, the most this service accepts.`),
  briefingNotFound: (geography: string, known: readonly string[]) =>
    refuse(ERRORS.briefingNotFound, `There is no briefing for geography \`${geography}\`; the sample data has briefings for ${known.join(" and ")}.`, { parameter: "geography" }),
  sectorNotFound: (sectorId: string, known: readonly string[]) =>
    refuse(ERRORS.sectorNotFound, `There is no import-pressure analysis for sector \`${sectorId}\`; the sample data covers ${known.map((id) => `\`${id}\``).join(", ")}.`),
  viewNotFound: (id: string) => refuse(ERRORS.viewNotFound, `There is no saved view ${id} for this alert token's user. GET /api/views lists them.`),
  routeNotFound: (method: string, path: string) =>
    refuse(ERRORS.signalsRouteNotFound, `There is no route ${method} ${path}. The Consumer Signals API lives under ${SIGNALS_BASE_PATH}/api (see docs/signals.md).`),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    refuse(ERRORS.signalsMethodNotAllowed, `${path} does not accept ${method}; it accepts ${allowed.join(", ")}.`, {}, { Allow: allowed.join(", ") }),
  /** The reference's 429, exactly: `{ok: false, error}`, the message stating the seconds to wait. */
  rateLimited: (retryAfterSeconds: number, limit: { max: number; windowSeconds: number }, headers: Record<string, string>) =>
    new SignalsError(
      ERRORS.rateLimited.status,
      {
        ok: false,
        error: `Rate limit exceeded: the AI endpoints allow ${limit.max} requests per ${limit.windowSeconds} seconds per user, shared by investigate, investigate/stream and analyze. Retry in ${retryAfterSeconds} seconds.`,
      },
      headers,
    ),
} as const;

/** A refusal written for the Workflows API's shape (`{error: code, message}`), in this API's shape. */
export function asSignalsBody(body: { error: string; message: string; [field: string]: unknown }): SignalsErrorBody {
  const { error: code, message, ...rest } = body;
  return { ok: false, error: message, code, ...rest };
}
