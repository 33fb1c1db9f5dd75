/**
 * The Consumer Signals API on the wire: every resource, response envelope and request body
 * of its reference, in one place. Where the reference says a shape is "not shown", the type
 * is as open as that (`unknown`, or an index signature for fields beyond those listed);
 * docs/signals.md lists each such choice under the client's assumptions.
 */
import type { AlertType } from "@wfkit/core";
import type { AlertCondition, Geography, NarrativeSource, PressureLevel, PressureTrend, SignalSeverity } from "./enums.js";

export interface SectorImpact {
  sector: string;
  riskLevel: string;
  rationale: string;
}

export interface PatternCondition {
  condition: string;
  value: unknown;
  met: boolean;
}

export interface HistoricalContext {
  nearestAnchor: string;
  similarity: number;
  outcome: string;
  lagWeeks: number;
  firstToBreak: string;
}

export interface Signal {
  id: string;
  headline: string;
  explanation: string;
  source: string;
  implication: string;
  /** For example energy, housing, labour. */
  category: string;
  severity: SignalSeverity;
  timestamp: string;
  computedAt: string;
  tags: string[];
  geography: Geography;
  confidence: number;
  sectorImpacts: SectorImpact[];
  timeHorizon: string;
  consecutivePeriods: number;
  /** Higher-tier subscribers only. */
  patternConditions?: PatternCondition[];
  /** Higher-tier subscribers only. */
  historicalContext?: HistoricalContext;
}

export interface SignalsResponse {
  signals: Signal[];
  count: number;
  lastUpdated: string;
}

/** The composite index's summary for one geography. */
export interface CpixSummary {
  score: number;
  change: number;
  changePercent: number;
  previousScore: number;
  timestamp: string;
  latestDataDate: string;
  computedAt: string;
  /** For example `rising_pressure` (the full list is not shown). */
  classification: string;
}

export interface CpixDriver {
  id: string;
  name: string;
  unit: string;
  description: string;
  direction: string;
  value: number;
  contribution: number;
  trend: number[];
}

export interface CpixResponse {
  summary: CpixSummary;
  drivers: CpixDriver[];
  geography: Geography;
  lastUpdated: string;
}

export interface HistoryPoint {
  /** YYYY-MM-DD. */
  date: string;
  value: number;
}

export interface HistoryResponse {
  /** In chronological order. */
  history: HistoryPoint[];
  count: number;
  /** The effective dates (the defaults when none were asked for). */
  from: string;
  to: string;
  lastUpdated: string;
}

export interface AccuracyRecord {
  signalType: string;
  /** Full-hit rate. */
  rate: number;
  /** Partial-hit rate. */
  partialRate: number;
  sampleSize: number;
  /** A date range. */
  period: string;
}

export interface AccuracyResponse {
  accuracy: AccuracyRecord[];
  count: number;
}

export interface BriefingSections {
  summary: string;
  keySignals: string;
  historicalContext: string;
  implications: string;
  contrarianFlags: string;
  companyExposure: string;
  watchlist: string;
  keyDates: string;
}

export interface KeyDate {
  date: string;
  event: string;
  relevance: string;
  type: string;
  confirmed: boolean;
}

export interface Briefing {
  /** The Monday of the week, ISO 8601. */
  weekStart: string;
  headline: string;
  /** For example `moderate_deterioration`, `stabilisation`. */
  classification: string;
  /** 0 to 100. */
  score: number;
  sections: BriefingSections;
  companyExposure: { highRisk: string[]; defensive: string[] };
  keyDates: KeyDate[];
  generatedAt: string;
  narrativeSource: NarrativeSource;
  signalSynthesis: { note: string; convergenceFlag: string; forwardLook: string };
  consumerOutlook: { stabilisation: number; moderateDeterioration: number; sharpDeterioration: number; horizon: string };
  signalMomentum: { label: string; direction: string }[];
}

export interface DatedValue {
  date: string;
  value: number;
}

export interface ImportPressureCategory {
  category: string;
  euTradeWeightedYoY: number;
  ukYoY: number;
  priceGap: number;
  acceleration: number;
  euTrend: DatedValue[];
  ukTrend: DatedValue[];
}

export interface ExposedCompany {
  ticker: string;
  name: string;
  exposureLevel: string;
  rationale: string;
}

export interface ImportPressure {
  sectorId: string;
  geography: "UK";
  /** 0 to 100. */
  importPressureScore: number;
  pressureLevel: PressureLevel;
  pressureTrend: PressureTrend;
  categories: ImportPressureCategory[];
  exposedCompanies: ExposedCompany[];
  lastUpdated: string;
}

export interface CensusObservation {
  /** YYYY-MM. */
  month: string;
  /** Millions of USD. */
  totalRetailSales: number;
  /** Percent. */
  yoyChange: number;
  /** Percent. */
  momChange: number;
  categories: Record<string, number>;
}

export interface CensusResponse {
  geography: "US";
  series: CensusObservation[];
  lastUpdated: string;
}

/** A housing or macro observation; the set of series keys and the units of `value` are not shown. */
export interface SeriesObservation {
  date: string;
  series_key: string;
  value: number;
}

export interface HousingResponse {
  housing: SeriesObservation[];
}

export interface MacroResponse {
  macro: SeriesObservation[];
}

/** The `POST /api/alerts` body; core's `validateAlertBody` judges it before it is sent. */
export interface AlertBody {
  name: string;
  type: AlertType;
  condition: AlertCondition;
  email: string;
  threshold?: number;
  geography?: Geography;
  sector_id?: string;
  /** E.164, e.g. +447700900123. */
  whatsapp_number?: string;
  series_key?: string;
  /** Consecutive periods the condition must hold before the alert triggers. */
  min_consecutive?: number;
}

/** An alert as the service returns it; fields beyond those listed are not shown, so kept open. */
export interface Alert {
  id: string;
  name: string;
  type: string;
  condition: string;
  /** Absent from alerts made without one (`weekly_digest`, `signal_severity`): the reference lists it as a number but does not show such an alert. */
  threshold?: number;
  geography: string;
  active: boolean;
  email: string;
  created_at: string;
  [field: string]: unknown;
}

/** The `POST /api/views` body; core's `validateViewBody` judges it before it is sent. */
export interface ViewBody {
  name: string;
  geography: Geography;
  driver_ids: string[];
  question: string;
}

export interface SavedView extends ViewBody {
  id: string;
}

/** The body of a `429` from an AI endpoint; `error` states the seconds to wait. */
export interface RateLimitedBody {
  ok: false;
  error: string;
}

/** What the AI endpoints take: their payloads are not shown in the reference, so any JSON object. */
export type AiRequestBody = Record<string, unknown>;

/**
 * A notification an alert triggered, as wfkit serve records it in place of sending it
 * (`GET /__admin/notifications`). Not part of the reference, whose delivery format is "not
 * shown": the local service's record, for tests and CI.
 */
export interface AlertNotification {
  id: string;
  alertId: string;
  alertName: string;
  type: string;
  condition: string;
  threshold?: number;
  geography: string;
  /** The address the notification is for. */
  email: string;
  /** The alert's WhatsApp number, when it has one. */
  whatsappNumber?: string;
  channels: ("email" | "whatsapp")[];
  /** The value the condition was judged on (the index, its change, a score, a count of signals); null when there was none. */
  value: number | null;
  /** What was seen, in one sentence. */
  detail: string;
  /** signal_severity: the signals that made the condition hold. */
  signalIds?: string[];
  /** How often the alert is judged: weekly, or monthly for series_threshold. */
  period: "week" | "month";
  periodStart: string;
  periodEnd: string;
  /** How many periods in a row the condition has held, this one included. */
  consecutivePeriods: number;
  /** When the alert triggered: the end of the period (ISO 8601, on the service's clock). */
  notifiedAt: string;
  /** Always false: the local service sends nothing. */
  sent: false;
}

/** `GET /__admin/notifications`: every notification recorded, oldest first. */
export interface AlertNotificationsResponse {
  notifications: AlertNotification[];
  count: number;
}
