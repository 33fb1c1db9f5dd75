/**
 * @wfkit/client: typed clients for the Workflows API and the Consumer Signals API (`signals/`)
 * on the platform's `fetch`, with no `node:` imports, so they run in Node, browsers and editor
 * hosts. The wire types in `api-types.ts` are the ones `@wfkit/service` answers with.
 */
export * from "./api-types.js";
export { WorkflowsClient, type ClientOptions, type CallOptions, type StartRunOptions, type StartedRun, type WaitOptions, type FetchLike, type RetryNotice } from "./client.js";
export {
  WorkflowsApiError,
  WorkflowsNetworkError,
  WorkflowsProtocolError,
  WorkflowsAbortError,
  NoAnswerError,
  BadAnswerError,
  CallAbortedError,
  isWorkflowsError,
  kindOf,
  type ApiErrorKind,
  type WorkflowsError,
  type NoAnswerReason,
  type BadAnswerReason,
} from "./errors.js";
export { DEFAULT_TIMEOUT_MS, DEFAULT_MAX_ANSWER_BYTES, MAX_REDIRECTS, MAX_ANSWER_DEPTH } from "./http.js";
export { DEFAULT_RETRY, backoffDelay, withRetries, realTiming, type RetryPolicy, type Timing } from "./retry.js";
export * from "./signals/index.js";
