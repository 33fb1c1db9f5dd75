/**
 * The service's fixed tables: plans and their features, regions, limits. Where the reference
 * does not give a name or a value, the choice is made here, once, and listed in
 * docs/service.md. The API's enumerations (scopes, features, run states and filters) are
 * @wfkit/api's, re-exported here for the service's modules.
 */
import { RUN_FILTERS, RUN_STATES, SCOPES, scopesGrant, type Feature, type RunFilter, type RunState, type Scope } from "@wfkit/api";

export { RUN_FILTERS, RUN_STATES, SCOPES, scopesGrant, type RunFilter, type RunState, type Scope };

/** The browser-only tier, the two higher tiers with API access, and a plan without Workflows. */
export const PLANS = {
  starter: { features: [] },
  browser: { features: ["workflows"] },
  professional: { features: ["workflows", "workflows_api"] },
  enterprise: { features: ["workflows", "workflows_api"] },
} as const satisfies Record<string, { features: readonly Feature[] }>;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export function planHas(plan: string, feature: Feature): boolean {
  return (PLANS[plan as PlanName]?.features as readonly string[] | undefined)?.includes(feature) ?? false;
}

/**
 * Entitlements an account may hold beyond its plan's features. The reference gates the
 * assistant surface under `/anya` by the `anya` entitlement (not by scopes) and names no plan
 * that includes it, so no plan does here: a seed grants it to an account (`"entitlements":
 * ["anya"]`), or `POST /__admin/accounts/{id}` does.
 */
export const ENTITLEMENTS = ["anya"] as const;
export type Entitlement = (typeof ENTITLEMENTS)[number];

/** Whether an account holds an entitlement: through its plan's features or a grant of its own. */
export function accountHas(account: { plan: string; entitlements: readonly string[] }, entitlement: Entitlement): boolean {
  return account.entitlements.includes(entitlement) || ((PLANS[account.plan as PlanName]?.features as readonly string[] | undefined)?.includes(entitlement) ?? false);
}

/** Where the assistant surface lives (the reference's `/anya`, under the base address). */
export const ANYA_PATH = "/anya";

export const RESEARCH_PRODUCT = "product_research";

/** Regions where Workflows is offered; an account elsewhere gets `503 workflows_unavailable`. */
export const WORKFLOWS_REGIONS: readonly string[] = ["eu", "uk", "us"];

export function statesIn(filter: RunFilter): RunState[] {
  return (Object.keys(RUN_STATES) as RunState[]).filter((state) => filter === "all" || RUN_STATES[state] === filter);
}

export const LIMITS = {
  /** Characters, counted as Unicode code points (`characterCount`): an emoji is one character, not two UTF-16 units. */
  questionLength: 1000,
  workflowNameLength: 200,
  idempotencyKeyLength: 255,
  hintsPerCall: 100,
  hintLength: 200,
  /** Definitions of 10,000 nodes are about 4 MB of pretty JSON. */
  bodyBytes: 8 * 1024 * 1024,
  /** How long a credential, once resolved, is trusted without asking again (revocation delay). */
  credentialCacheMs: 60_000,
  /** How long an Idempotency-Key is remembered (Stripe keeps keys 24 hours). */
  idempotencyRetentionMs: 24 * 60 * 60 * 1000,
  sessionTtlMs: 12 * 60 * 60 * 1000,
} as const;

/** The `host` a run start returns (the reference's value). */
export const RUN_HOST = "workflow_run";

/** API keys: `wfk_<key id>_<secret>`. Only the SHA-256 of the secret is stored. */
export const API_KEY_PREFIX = "wfk_";
export const OAUTH_TOKEN_PREFIX = "wfo_";

/**
 * The characters of a text as a person counts them: Unicode code points, so a character
 * outside the Basic Multilingual Plane (an emoji, many CJK ideographs) counts once, not as the
 * two UTF-16 code units JavaScript's `length` counts. A lone surrogate counts as one. The
 * reference's "at most 1000 characters" does not say how characters are counted; this is the
 * reading docs/service.md lists.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++, count++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}
