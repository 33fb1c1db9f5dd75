/**
 * The Consumer Signals side's fixed choices. The reference leaves these open ("not shown");
 * each is made here, once, and listed in docs/signals.md ("The local service"). The API's own
 * rules (parameters, their defaults and bounds) are @wfkit/api's `SIGNALS_PARAMS`.
 */
import { AI_RATE_LIMIT, DEFAULT_GEOGRAPHY, HISTORY_DEFAULT_FROM } from "@wfkit/api";
import type { PlanName } from "../policy.js";

/** Where the Consumer Signals API is served: `{signals_base_url}` is the service's base URL plus this. */
export const SIGNALS_BASE_PATH = "/signals";

/** Every data response carries this header: the data is wfkit's sample, not real signals. */
export const SAMPLE_DATA_HEADER = "Wfkit-Sample-Data";

/** Plans whose users are "higher-tier subscribers": their signals carry `patternConditions` and `historicalContext`. */
export const DETAIL_PLANS: readonly PlanName[] = ["professional", "enterprise"];

/** The shared limit of the AI endpoints, from the reference; `--signals-ai-limit` changes it. */
export interface AiLimit {
  max: number;
  windowMs: number;
}
export const DEFAULT_AI_LIMIT: AiLimit = { max: AI_RATE_LIMIT.requests, windowMs: AI_RATE_LIMIT.windowMs };

/** Alert tokens are `wfat_<secret>`; only their SHA-256 is stored. */
export const ALERT_TOKEN_PREFIX = "wfat_";

/**
 * A period of `GET /api/signals?periods=N` is a week (signals are computed weekly, as the
 * briefing is). The most it takes, 52, is the contract's `SIGNALS_PARAMS.periods.serviceMaximum`.
 */
export const PERIOD_MS = 7 * 24 * 60 * 60 * 1000;
/** `GET /api/history`'s default `from` (the reference's), and the API's default geography, which an alert created without `geography` watches. */
export { DEFAULT_GEOGRAPHY, HISTORY_DEFAULT_FROM };

/**
 * The alert clock's longest wait between two looks at the time: a period end is at most 31
 * days away, longer than a real clock's timer can wait (about 24.8 days), so it wakes daily.
 */
export const ALERT_TICK_MS = 24 * 60 * 60 * 1000;

/** A clock moved by years at once judges each alert's last this-many periods only (ten years of weeks). */
export const MAX_PERIODS_JUDGED_AT_ONCE = 520;
