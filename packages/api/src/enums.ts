/**
 * The enumerations of the two APIs, each written once: the service validates with them, the
 * client types and checks with them, and the wire types (`workflows-types.ts`,
 * `signals-types.ts`) are made of them. Where a reference lists the values, these are its
 * values; where it leaves them "not shown", the local service's choice (docs/service.md,
 * docs/signals.md).
 */
import { ALERT_CONDITIONS, GEOGRAPHIES as BODY_GEOGRAPHIES } from "@wfkit/core";

// ---- the Workflows API ----------------------------------------------------------------------

/** The reference's scopes; `write:workflows` implies `read:workflows`. They bind API keys only. */
export const SCOPES = ["read:workflows", "write:workflows"] as const;
export type Scope = (typeof SCOPES)[number];

/** Whether scopes `held` (an API key's) grant `needed`: `write:workflows` implies `read:workflows`. */
export function scopesGrant(held: readonly string[], needed: Scope): boolean {
  return held.includes(needed) || (needed === "read:workflows" && held.includes("write:workflows"));
}

/**
 * What a `402 plan_required` names in `required_feature`: the reference's plan features, or
 * `anya`, the entitlement that gates the assistant surface under `/anya` (not API scopes).
 */
export const FEATURES = ["workflows", "workflows_api", "anya"] as const;
export type Feature = (typeof FEATURES)[number];

/** Run states (not shown in the reference: the local service's), each `open` or `terminal`, the run listing's filter values. */
export const RUN_STATES = {
  queued: "open",
  running: "open",
  held: "open",
  succeeded: "terminal",
  failed: "terminal",
  cancelled: "terminal",
} as const;
export type RunState = keyof typeof RUN_STATES;
export const TERMINAL_RUN_STATES: readonly RunState[] = (Object.keys(RUN_STATES) as RunState[]).filter((state) => RUN_STATES[state] === "terminal");

/** The run listing's `state` filter (the reference's values; `all` is the default). */
export const RUN_FILTERS = ["all", "open", "terminal"] as const;
export type RunFilter = (typeof RUN_FILTERS)[number];

export const NODE_STATES = ["pending", "running", "succeeded", "failed", "held", "passed", "cancelled"] as const;
export type NodeState = (typeof NODE_STATES)[number];

/** Why a hint did not resolve: the reference's three, and `not_found`, the local service's for a hint that matches nothing. */
export const UNRESOLVED_REASONS = ["ambiguous", "unlisted", "lookup_failed", "not_found"] as const;
export type UnresolvedReason = (typeof UNRESOLVED_REASONS)[number];

/** `details.reason` of a `503 research_capacity_unavailable` (the reference's two). */
export const USAGE_OUTAGES = ["credit_policy_unconfigured", "platform_unavailable"] as const;
export type UsageOutage = (typeof USAGE_OUTAGES)[number];

// ---- the Consumer Signals API ---------------------------------------------------------------

/** The geographies the service covers: core's, which the alert and view bodies are judged by. */
export const GEOGRAPHIES: readonly ("US" | "UK")[] = BODY_GEOGRAPHIES;
export type Geography = (typeof BODY_GEOGRAPHIES)[number];

export const SIGNAL_SEVERITIES = ["high", "medium", "low"] as const;
export type SignalSeverity = (typeof SIGNAL_SEVERITIES)[number];

export type AlertCondition = (typeof ALERT_CONDITIONS)[number];

export const NARRATIVE_SOURCES = ["ai", "rule-based", "ai+search"] as const;
export type NarrativeSource = (typeof NARRATIVE_SOURCES)[number];

export const PRESSURE_LEVELS = ["low", "moderate", "elevated", "high"] as const;
export type PressureLevel = (typeof PRESSURE_LEVELS)[number];

export const PRESSURE_TRENDS = ["easing", "stable", "building"] as const;
export type PressureTrend = (typeof PRESSURE_TRENDS)[number];
