/**
 * The Consumer Signals API's response shapes, field for field as the reference gives them
 * (section 2 and the endpoint table). The sample data and every handler are typed by these;
 * a test holds every answer's fields to the reference's lists. Enumerated fields are typed
 * `string`, as the reference types them (and as a JSON import reads them), with their values
 * in a comment.
 */

export type Geography = "US" | "UK";


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
  category: string;
  /** `high`, `medium`, `low`. */
  severity: string;
  timestamp: string;
  computedAt: string;
  tags: string[];
  /** `US` or `UK`. */
  geography: string;
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

export interface CpixSummary {
  score: number;
  change: number;
  changePercent: number;
  previousScore: number;
  timestamp: string;
  latestDataDate: string;
  computedAt: string;
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
  date: string;
  value: number;
}

export interface HistoryResponse {
  history: HistoryPoint[];
  count: number;
  from: string;
  to: string;
  lastUpdated: string;
}

export interface AccuracyRecord {
  signalType: string;
  rate: number;
  partialRate: number;
  sampleSize: number;
  period: string;
}

export interface AccuracyResponse {
  accuracy: AccuracyRecord[];
  count: number;
}

export interface Briefing {
  weekStart: string;
  headline: string;
  classification: string;
  score: number;
  sections: {
    summary: string;
    keySignals: string;
    historicalContext: string;
    implications: string;
    contrarianFlags: string;
    companyExposure: string;
    watchlist: string;
    keyDates: string;
  };
  companyExposure: { highRisk: string[]; defensive: string[] };
  keyDates: { date: string; event: string; relevance: string; type: string; confirmed: boolean }[];
  generatedAt: string;
  /** `ai`, `rule-based`, `ai+search`. */
  narrativeSource: string;
  signalSynthesis: { note: string; convergenceFlag: string; forwardLook: string };
  consumerOutlook: { stabilisation: number; moderateDeterioration: number; sharpDeterioration: number; horizon: string };
  signalMomentum: { label: string; direction: string }[];
}

export interface ImportPressureCategory {
  category: string;
  euTradeWeightedYoY: number;
  ukYoY: number;
  priceGap: number;
  acceleration: number;
  euTrend: HistoryPoint[];
  ukTrend: HistoryPoint[];
}

export interface ImportPressure {
  sectorId: string;
  /** Always `UK`. */
  geography: string;
  /** 0 to 100. */
  importPressureScore: number;
  /** `low`, `moderate`, `elevated`, `high`. */
  pressureLevel: string;
  /** `easing`, `stable`, `building`. */
  pressureTrend: string;
  categories: ImportPressureCategory[];
  exposedCompanies: { ticker: string; name: string; exposureLevel: string; rationale: string }[];
  lastUpdated: string;
}

export interface CensusObservation {
  month: string;
  totalRetailSales: number;
  yoyChange: number;
  momChange: number;
  categories: Record<string, number>;
}

export interface CensusResponse {
  geography: string;
  series: CensusObservation[];
  lastUpdated: string;
}

export interface SeriesObservation {
  date: string;
  series_key: string;
  value: number;
}

export interface Alert {
  id: string;
  name: string;
  type: string;
  condition: string;
  /** Present for the threshold-based types (the checker requires it there). */
  threshold?: number;
  geography: string;
  active: boolean;
  email: string;
  created_at: string;
  /** The body's optional fields, echoed when the alert was created with them. */
  sector_id?: string;
  series_key?: string;
  whatsapp_number?: string;
  min_consecutive?: number;
}

export interface SavedView {
  id: string;
  name: string;
  geography: Geography;
  driver_ids: string[];
  question: string;
}
