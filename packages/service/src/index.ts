/**
 * @wfkit/service: a local implementation of the Workflows API (see docs/service.md), as a
 * web-standard app for tests and as an HTTP server for `wfkit serve`.
 */
export { createApp, API_ROUTES, ROUTE_SCOPES, MOCK_CASE_HEADER, authorize } from "./app.js";
export { ADMIN_PREFIX } from "./admin.js";
export { WorkflowsService, type ServiceOptions, type Account, type IssuedKey } from "./service.js";
export { Clock } from "./clock.js";
export { Store, StoreError, journalPath, DEFAULT_COMPACTION, type CompactionPolicy } from "./store.js";
export { ApiError, errors, type ErrorBody } from "./errors.js";
export { DEFAULT_SEED, DEFAULT_PART_DELAY_MS, loadSeed, loadMocks, ConfigFileError, type Seed, type MockFile } from "./files.js";
export { PLANS, RUN_STATES, RUN_FILTERS, LIMITS, WORKFLOWS_REGIONS, statesIn } from "./policy.js";
export { startServer, type RunningServer, type ServerOptions } from "./server.js";
export { TEMPLATES } from "./generated/templates.js";
