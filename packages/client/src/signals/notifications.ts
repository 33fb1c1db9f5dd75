/**
 * The notifications wfkit serve's alerts triggered, which it records instead of sending them
 * (`GET /__admin/notifications` on its admin surface, with the admin token). Not part of the
 * Consumer Signals API: the reference does not show how notifications are delivered, and a
 * real service has no such surface. For tests and CI against the local service.
 *
 * It goes through the transport both clients use (`../http.ts`): the admin token only as
 * `Authorization: Bearer`, only to the configured origin, never in a message; a lost answer or
 * a 502/503/504 is asked again (it is a read).
 */
import { ADMIN_BASE_PATH, ADMIN_ROUTES } from "@wfkit/api";
import { bearerAuth, HttpTransport, type FetchLike } from "../http.js";
import { DEFAULT_RETRY, realTiming, type RetryPolicy, type Timing } from "../retry.js";
import type { AlertNotificationsResponse } from "./api-types.js";
import { SignalsAbortError, SignalsApiError, SignalsNetworkError, SignalsProtocolError } from "./errors.js";

export interface NotificationsOptions {
  /** wfkit serve's base URL (`baseUrl` of `wfkit serve --json`), whose `/__admin` this reads. */
  serviceUrl: string;
  /** The admin token `wfkit serve` prints at start. */
  adminToken: string;
  fetch?: FetchLike;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  timing?: Partial<Timing>;
  signal?: AbortSignal;
  debug?: (line: string) => void;
}

const ROUTE = "GET /notifications";
const NOTIFICATIONS_PATH = `${ADMIN_BASE_PATH}/notifications`;
/** Its shape, from the contract's admin routes. */
const NOTIFICATIONS_SHAPE = ADMIN_ROUTES[ROUTE].answer;

/** Every notification the local service recorded, oldest first. */
export async function listNotifications(options: NotificationsOptions): Promise<AlertNotificationsResponse> {
  const label = `GET ${NOTIFICATIONS_PATH}`;
  const http = new HttpTransport({
    baseUrl: options.serviceUrl,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    debug: options.debug,
    secrets: [options.adminToken],
    policy: { ...DEFAULT_RETRY, ...options.retry },
    timing: { ...realTiming, ...options.timing },
    dialect: {
      api: "wfkit serve's admin surface",
      noAnswer: (message, request, reason) => new SignalsNetworkError(message, request, reason),
      badAnswer: (message, request, reason) => new SignalsProtocolError(message, request, reason),
      aborted: () => new SignalsAbortError("aborted"),
    },
  });
  const retryable = (error: unknown) => (error instanceof SignalsNetworkError || error instanceof SignalsApiError) && error.retryable;
  const answer = await http.retrying(label, options.signal, retryable, (timeoutMs) =>
    http.exchange<AlertNotificationsResponse>(
      { method: "GET", path: NOTIFICATIONS_PATH, auth: bearerAuth(options.adminToken), label, signal: options.signal, timeoutMs },
      NOTIFICATIONS_SHAPE,
      label,
      (status, body) => new SignalsApiError(status, body, label, undefined),
    ),
  );
  return answer.body;
}
