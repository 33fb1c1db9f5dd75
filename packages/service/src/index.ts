/**
 * @wfkit/service: a local implementation of the Workflows API (see docs/service.md) and of the
 * Consumer Signals API on sample data (docs/signals.md), as a web-standard app for tests and
 * as an HTTP server for `wfkit serve`.
 */
export { createApp, API_ROUTES, ROUTE_SCOPES, MOCK_CASE_HEADER, authorize } from "./app.js";
export { ADMIN_PREFIX } from "./admin.js";
export { WorkflowsService, type ServiceOptions, type Account, type IssuedKey, type IssuedAlertToken } from "./service.js";
export { Clock } from "./clock.js";
export { Store, StoreError, journalPath, DEFAULT_COMPACTION, type CompactionPolicy } from "./store.js";
export { ApiError, errors, type ErrorBody } from "./errors.js";
export { DEFAULT_SEED, DEFAULT_PART_DELAY_MS, loadSeed, loadMocks, ConfigFileError, type Seed, type MockFile } from "./files.js";
export { PLANS, RUN_STATES, RUN_FILTERS, LIMITS, WORKFLOWS_REGIONS, statesIn } from "./policy.js";
export { startServer, type RunningServer, type ServerOptions } from "./server.js";
export { TEMPLATES } from "./generated/templates.js";
export { SIGNALS_ROUTES, type SignalsRoute, type SignalsAccess } from "./signals/routes.js";
export { SIGNALS_BASE_PATH, SAMPLE_DATA_HEADER, DEFAULT_AI_LIMIT, type AiLimit } from "./signals/policy.js";
export { parseAiLimit } from "./signals/limiter.js";
export { SignalsError, signalsErrors, type SignalsErrorBody } from "./signals/errors.js";
export type * from "./signals/types.js";
