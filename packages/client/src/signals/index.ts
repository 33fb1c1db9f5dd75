/** The Consumer Signals API from code: `SignalsClient`, its wire types, its errors and the AI limit. */
export * from "./api-types.js";
export {
  SignalsClient,
  DEFAULT_AI_BUDGET,
  type SignalsClientOptions,
  type SignalsCallOptions,
  type AiCallOptions,
  type AiBudget,
  type AiResult,
  type AiStream,
  type AiWait,
  type SignalsQuery,
  type HistoryQuery,
} from "./client.js";
export {
  SignalsRequestError,
  SignalsApiError,
  SignalsRateLimitError,
  SignalsNetworkError,
  SignalsProtocolError,
  SignalsAbortError,
  SIGNALS_REQUEST_CODES,
  isSignalsError,
  signalsKindOf,
  type SignalsRequestCode,
  type SignalsRequestProblem,
  type SignalsApiErrorKind,
  type SignalsError,
} from "./errors.js";
export { listNotifications, type NotificationsOptions } from "./notifications.js";
export { AiRateLimiter, AI_LIMIT, MAX_JITTER_MS, rateLimitOf, retryAfterWait, type AiLimit, type AiRateLimiterOptions, type RateLimitInfo } from "./rate-limit.js";
export { DEFAULT_GEOGRAPHY, HISTORY_DEFAULT_FROM, SIGNAL_SEVERITIES, IMPORT_PRESSURE_GEOGRAPHY, CENSUS_GEOGRAPHY, isCalendarDate } from "./params.js";
