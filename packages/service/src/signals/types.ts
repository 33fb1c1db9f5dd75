/**
 * The Consumer Signals API's response shapes are @wfkit/api's wire types, the one statement
 * of them (as for the Workflows API); the sample data and every handler are typed by these,
 * and a test holds every answer's fields to the reference's lists.
 */
export type {
  Alert,
  AlertNotification,
  AlertNotificationsResponse,
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
} from "@wfkit/api";

