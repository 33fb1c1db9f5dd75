/**
 * The Consumer Signals API's response shapes are `@wfkit/client`'s wire types, the one
 * statement of them (as for the Workflows API); the sample data and every handler are typed
 * by these, and a test holds every answer's fields to the reference's lists.
 */
export type {
  Alert,
  AccuracyRecord,
  AccuracyResponse,
  Briefing,
  CensusObservation,
  CensusResponse,
  CpixDriver,
  CpixResponse,
  CpixSummary,
  Geography,
  HistoricalContext,
  HistoryPoint,
  HistoryResponse,
  ImportPressure,
  ImportPressureCategory,
  PatternCondition,
  SavedView,
  SectorImpact,
  SeriesObservation,
  Signal,
  SignalsResponse,
} from "@wfkit/client";

/**
 * A notification an alert triggered, recorded by the local service in place of sending it
 * (`GET /__admin/notifications`). Not part of the reference: its delivery format is "not shown".
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
  /** The WhatsApp number, when the alert has one. */
  whatsappNumber?: string;
  channels: ("email" | "whatsapp")[];
  /** The value the condition was judged on (the index, its change, a score, a count of signals). */
  value: number | null;
  /** What was seen, in one sentence. */
  detail: string;
  signalIds?: string[];
  period: "week" | "month";
  periodStart: string;
  periodEnd: string;
  /** How many periods in a row the condition has held, this one included. */
  consecutivePeriods: number;
  /** When the alert triggered: the end of the period (ISO 8601, on the service clock). */
  notifiedAt: string;
  /** Always false: nothing leaves the machine. */
  sent: false;
}
