/**
 * Every route of the two APIs, and of wfkit serve's admin surface, once: its method and path
 * (the key, as the references write it: `POST /api/v1/workflows/{wf}/run`), who may call it,
 * the parameters and body it takes, whether a client may send it again, the status and shape
 * of its answer. The service registers exactly these routes with these credentials (a test
 * walks its app), and the client calls them, sends again and checks answers by them.
 *
 * Paths of the Consumer Signals API are under `{signals_base_url}` (wfkit serve puts it at
 * `/signals`); the admin surface's under `/__admin`; the Workflows API's are whole.
 */
import type { Fault } from "@wfkit/core";
import type { Scope } from "./enums.js";
import { SIGNALS_PARAMS as S, WORKFLOWS_PARAMS as W, type ParamRule } from "./params.js";
import * as shape from "./shapes.js";
import type { Guard } from "./shapes.js";
import type * as Signals from "./signals-types.js";
import type * as Workflows from "./workflows-types.js";

export type Method = "GET" | "POST" | "DELETE";
export type RouteKey = `${Method} /${string}`;

/**
 * Who may call a route:
 * - a scope: the Workflows credential (`Authorization: Bearer` with an API key, a session JWT
 *   or an OAuth token), then product, plan, region, the scope (API keys only) and any
 *   outstanding acceptance;
 * - `jwt`: `Authorization: Bearer <JWT>` (Consumer Signals data);
 * - `jwt+ai_limit`: a JWT, then one request from the AI endpoints' shared limit;
 * - `alert_token`: `X-Alert-Token` (alerts and saved views);
 * - `admin`: wfkit serve's admin token, from loopback only.
 */
export type Auth = Scope | "jwt" | "jwt+ai_limit" | "alert_token" | "admin";

/**
 * The request body:
 * - `none`: none is read;
 * - `object`: a JSON object of `members` (any other member is refused; `any`: judged whole
 *   by the checker), `{}` when none is sent if `optional`;
 * - `json`: any JSON value, judged by the route itself (core's alert and view rules name
 *   `members`); `{}` when none is sent if `optional`.
 */
export type BodyRule = { read: "none" } | { read: "object"; members: readonly string[] | "any"; optional?: true } | { read: "json"; members?: readonly string[]; optional?: true };

/**
 * Whether a client may send a request again when its answer was lost: `safe` (a read, or
 * publishing, which publishes once), `with_key` (the run start, always with the same
 * Idempotency-Key, which the service answers once), or `never` (a second send could make a
 * second workflow, version, alert or view, or be refused for what the first did).
 */
export type Resend = "safe" | "with_key" | "never";

export interface RouteSpec {
  auth: Auth;
  /** Its query parameters (`{}`: none). The Consumer Signals API refuses any other; the Workflows API ignores them. */
  query: Readonly<Record<string, ParamRule>>;
  /** Rules for its path's `{parameters}`, where the reference constrains them. */
  params?: Readonly<Record<string, ParamRule>>;
  body: BodyRule;
  resend: Resend;
  /** The status of a successful answer. */
  status: 200 | 201 | 204;
  /** What a successful answer must look like; null: not JSON (an event stream), not checked. */
  answer: Guard | null;
}

const NONE = { read: "none" } as const;
const EMPTY = { read: "object", members: [], optional: true } as const;
const members = <const M extends readonly string[]>(names: M) => ({ read: "object" as const, members: names });

/** The reference's endpoint table (section 4), in its order; the local service's answers where it shows none. */
export const WORKFLOWS_ROUTES = {
  "GET /api/v1/workflows/catalogue/parts": {
    auth: "read:workflows",
    query: { unattendedSafe: W.unattendedSafe },
    body: NONE,
    resend: "safe",
    status: 200,
    answer: shape.object({ parts: shape.arrayOf(shape.object({ requires: shape.strings, produces: shape.strings })) }, { catalogueVersion: shape.num }),
  },
  "POST /api/v1/workflows/catalogue/resolve-subjects": {
    auth: "read:workflows",
    query: {},
    body: members(["hints"]),
    resend: "safe",
    status: 200,
    answer: shape.object({
      subjects: shape.arrayOf(shape.object({ canonicalId: shape.str, kind: shape.str, label: shape.str, identifiers: shape.arrayOf(shape.anything) })),
      unresolved: shape.arrayOf(shape.object({ hint: shape.str, reason: shape.str }, { candidates: shape.arrayOf(shape.object({ canonicalId: shape.str, label: shape.str, ticker: shape.str })) })),
    }),
  },
  "POST /api/v1/workflows/catalogue/validate-definition": {
    auth: "read:workflows",
    query: {},
    body: members(["definition"]),
    resend: "safe",
    status: 200,
    answer: shape.object({ ok: shape.oneOf(true), estimate: shape.estimate }, { definition: shape.present, warnings: shape.arrayOf(shape.fault) }),
  },
  /** The scope rule for this route is not stated; it is a read. */
  "GET /api/v1/workflows/templates": {
    auth: "read:workflows",
    query: {},
    body: NONE,
    resend: "safe",
    status: 200,
    answer: shape.arrayOf(shape.object({ id: shape.str, name: shape.str, definition: shape.object({}) }, { description: shape.str })),
  },
  "POST /api/v1/workflows": { auth: "write:workflows", query: {}, body: members(["name"]), resend: "never", status: 201, answer: shape.object({ workflow: shape.object({ id: shape.str }, { name: shape.str }) }) },
  /** The body is judged whole by the checker (unknown fields are its warnings). */
  "POST /api/v1/workflows/{wf}/versions": {
    auth: "write:workflows",
    query: {},
    body: { read: "object", members: "any" },
    resend: "never",
    status: 201,
    answer: shape.object({ version: shape.object({ id: shape.str }, { estimate: shape.estimate }) }),
  },
  /** Its answer is not shown in the reference. */
  "POST /api/v1/workflows/{wf}/versions/{version}/publish": { auth: "write:workflows", query: {}, body: EMPTY, resend: "safe", status: 200, answer: shape.anything },
  "POST /api/v1/workflows/{wf}/run": {
    auth: "write:workflows",
    query: {},
    body: { read: "object", members: ["question"], optional: true },
    resend: "with_key",
    status: 200,
    answer: shape.object({ ok: shape.oneOf(true), runId: shape.str, host: shape.str, estimate: shape.estimate }),
  },
  "GET /api/v1/workflows/runs": { auth: "read:workflows", query: { state: W.state }, body: NONE, resend: "safe", status: 200, answer: shape.runList },
  "GET /api/v1/workflows/{wf}/runs": { auth: "read:workflows", query: {}, body: NONE, resend: "safe", status: 200, answer: shape.runList },
  "GET /api/v1/workflows/{wf}/runs/{run}": { auth: "read:workflows", query: {}, body: NONE, resend: "safe", status: 200, answer: shape.run },
  /** Not shown in the reference: the local service's `{ok, run}`, which wfkit reads. */
  "POST /api/v1/workflows/{wf}/runs/{run}/deliver": { auth: "write:workflows", query: {}, body: EMPTY, resend: "never", status: 200, answer: shape.object({ run: shape.run }) },
  "POST /api/v1/workflows/{wf}/runs/{run}/cancel": { auth: "write:workflows", query: {}, body: EMPTY, resend: "never", status: 200, answer: shape.object({ run: shape.run }) },
} as const satisfies Record<RouteKey, RouteSpec>;

/** The AI endpoints' payloads and answers are not shown: any JSON, `{}` when none is sent. */
const AI_BODY = { read: "json", optional: true } as const;

/** The reference's endpoint table (section 4) and the routes it says exist without showing them, under `{signals_base_url}`. */
export const SIGNALS_ROUTES = {
  "GET /api/signals": {
    auth: "jwt",
    query: { geography: S.geography, severity: S.severity, category: S.category, periods: S.periods },
    body: NONE,
    resend: "safe",
    status: 200,
    answer: shape.object({ signals: shape.arrayOf(shape.signal), count: shape.num, lastUpdated: shape.str }),
  },
  "GET /api/cpix": { auth: "jwt", query: { geography: S.geography }, body: NONE, resend: "safe", status: 200, answer: shape.cpix },
  "GET /api/history": {
    auth: "jwt",
    query: { geography: S.geography, from: S.from, to: S.to },
    body: NONE,
    resend: "safe",
    status: 200,
    answer: shape.object({ history: shape.datedValues, count: shape.num, from: shape.str, to: shape.str, lastUpdated: shape.str }),
  },
  "GET /api/signals/accuracy": {
    auth: "jwt",
    query: {},
    body: NONE,
    resend: "safe",
    status: 200,
    answer: shape.object({ accuracy: shape.arrayOf(shape.object({ signalType: shape.str, rate: shape.num, partialRate: shape.num, sampleSize: shape.num, period: shape.str })), count: shape.num }),
  },
  "GET /api/briefing/latest": { auth: "jwt", query: { geography: S.briefingGeography }, body: NONE, resend: "safe", status: 200, answer: shape.briefing },
  "GET /api/sectors/{sectorId}/import-pressure": {
    auth: "jwt",
    query: { geography: S.importPressureGeography },
    params: { sectorId: S.sectorId },
    body: NONE,
    resend: "safe",
    status: 200,
    answer: shape.importPressure,
  },
  "GET /api/census-marts": {
    auth: "jwt",
    query: { geography: S.censusGeography },
    body: NONE,
    resend: "safe",
    status: 200,
    answer: shape.object({
      geography: shape.oneOf("US"),
      series: shape.arrayOf(shape.object({ month: shape.str, totalRetailSales: shape.num, yoyChange: shape.num, momChange: shape.num, categories: shape.recordOf(shape.num) })),
      lastUpdated: shape.str,
    }),
  },
  /** Query parameters of housing and macro are not shown: the local service takes none. */
  "GET /api/housing": { auth: "jwt", query: {}, body: NONE, resend: "safe", status: 200, answer: shape.object({ housing: shape.observations }) },
  "GET /api/macro": { auth: "jwt", query: {}, body: NONE, resend: "safe", status: 200, answer: shape.object({ macro: shape.observations }) },
  /** It exists; its query and answer are not shown. */
  "GET /api/alerts": { auth: "alert_token", query: {}, body: NONE, resend: "safe", status: 200, answer: shape.anything },
  "POST /api/alerts": {
    auth: "alert_token",
    query: {},
    body: { read: "json", members: ["name", "type", "condition", "email", "threshold", "geography", "sector_id", "whatsapp_number", "series_key", "min_consecutive"] },
    resend: "never",
    status: 201,
    answer: shape.alert,
  },
  "GET /api/views": { auth: "alert_token", query: {}, body: NONE, resend: "safe", status: 200, answer: shape.arrayOf(shape.savedView) },
  /** Its status is not shown: 201, as for an alert. */
  "POST /api/views": { auth: "alert_token", query: {}, body: { read: "json", members: ["name", "geography", "driver_ids", "question"] }, resend: "never", status: 201, answer: shape.savedView },
  /** `204` with no content; whatever comes is not read. */
  "DELETE /api/views/{id}": { auth: "alert_token", query: {}, params: { id: S.id }, body: NONE, resend: "never", status: 204, answer: shape.anything },
  "POST /api/investigate": { auth: "jwt+ai_limit", query: {}, body: AI_BODY, resend: "never", status: 200, answer: shape.anything },
  /** Server-Sent Events, the body left to the caller. */
  "POST /api/investigate/stream": { auth: "jwt+ai_limit", query: {}, body: AI_BODY, resend: "never", status: 200, answer: null },
  "POST /api/analyze": { auth: "jwt+ai_limit", query: {}, body: AI_BODY, resend: "never", status: 200, answer: shape.anything },
} as const satisfies Record<RouteKey, RouteSpec>;

const user = members(["user"]);

/** wfkit serve's admin surface under `/__admin` (not part of either reference; docs/service.md). Answers beyond the notifications are not checked. */
export const ADMIN_ROUTES = {
  "GET /state": { auth: "admin", query: {}, body: NONE, resend: "safe", status: 200, answer: shape.anything },
  "POST /clock/advance": { auth: "admin", query: {}, body: members(["ms"]), resend: "never", status: 200, answer: shape.anything },
  "POST /reset": { auth: "admin", query: {}, body: EMPTY, resend: "never", status: 200, answer: shape.anything },
  "POST /faults": { auth: "admin", query: {}, body: members(["usage", "resolver"]), resend: "safe", status: 200, answer: shape.anything },
  "POST /accounts/{account}": {
    auth: "admin",
    query: {},
    body: members(["plan", "region", "acceptanceOutstanding", "allowanceMinorUnits", "resetUsage", "entitlements"]),
    resend: "never",
    status: 200,
    answer: shape.anything,
  },
  "POST /keys/{key}/revoke": { auth: "admin", query: {}, body: EMPTY, resend: "safe", status: 200, answer: shape.anything },
  "POST /keys": { auth: "admin", query: {}, body: members(["user", "scopes", "products", "expiresAt", "ipAllowlist"]), resend: "never", status: 201, answer: shape.anything },
  "POST /sessions": { auth: "admin", query: {}, body: user, resend: "never", status: 201, answer: shape.anything },
  "POST /alert-tokens": { auth: "admin", query: {}, body: user, resend: "never", status: 201, answer: shape.anything },
  "GET /notifications": { auth: "admin", query: {}, body: NONE, resend: "safe", status: 200, answer: shape.object({ notifications: shape.arrayOf(shape.notification), count: shape.num }) },
  "POST /alerts/{alert}": { auth: "admin", query: {}, body: members(["active"]), resend: "safe", status: 200, answer: shape.anything },
  "POST /oauth-tokens": { auth: "admin", query: {}, body: user, resend: "never", status: 201, answer: shape.anything },
} as const satisfies Record<RouteKey, RouteSpec>;

/**
 * The AI endpoints' shared limit (the reference's section 8): requests per window per
 * authenticated user, shared by every `jwt+ai_limit` route on every plan tier; after a 429 a
 * client waits `Retry-After`, then a random 0 to `maxJitterMs` more.
 */
export const AI_RATE_LIMIT = { requests: 10, windowMs: 60_000, maxJitterMs: 2_000 } as const;

export type WorkflowsRoute = keyof typeof WORKFLOWS_ROUTES;
export type SignalsRoute = keyof typeof SIGNALS_ROUTES;
export type AdminRoute = keyof typeof ADMIN_ROUTES;

/** Where each table's paths are: the Workflows API's are whole; the others are under a base path (the service chooses `/signals` for the Consumer Signals API). */
export const ADMIN_BASE_PATH = "/__admin";
export const WORKFLOWS_BASE_PATH = "/api/v1/workflows";

/**
 * The answer of each route, as the wire types give it: the client returns these, the service
 * answers with them. `satisfies` below holds the keys to the route tables both ways.
 */
export interface WorkflowsAnswers {
  "GET /api/v1/workflows/catalogue/parts": Workflows.PartsResponse;
  "POST /api/v1/workflows/catalogue/resolve-subjects": Workflows.ResolveSubjectsResponse;
  "POST /api/v1/workflows/catalogue/validate-definition": Workflows.ValidateDefinitionResponse;
  "GET /api/v1/workflows/templates": Workflows.Template[];
  "POST /api/v1/workflows": Workflows.CreateWorkflowResponse;
  "POST /api/v1/workflows/{wf}/versions": Workflows.SaveVersionResponse;
  "POST /api/v1/workflows/{wf}/versions/{version}/publish": Workflows.PublishResponse;
  "POST /api/v1/workflows/{wf}/run": Workflows.StartRunResponse;
  "GET /api/v1/workflows/runs": Workflows.RunListResponse;
  "GET /api/v1/workflows/{wf}/runs": Workflows.RunListResponse;
  "GET /api/v1/workflows/{wf}/runs/{run}": Workflows.Run;
  "POST /api/v1/workflows/{wf}/runs/{run}/deliver": Workflows.RunChangeResponse;
  "POST /api/v1/workflows/{wf}/runs/{run}/cancel": Workflows.RunChangeResponse;
}

export interface SignalsAnswers {
  "GET /api/signals": Signals.SignalsResponse;
  "GET /api/cpix": Signals.CpixResponse;
  "GET /api/history": Signals.HistoryResponse;
  "GET /api/signals/accuracy": Signals.AccuracyResponse;
  "GET /api/briefing/latest": Signals.Briefing;
  "GET /api/sectors/{sectorId}/import-pressure": Signals.ImportPressure;
  "GET /api/census-marts": Signals.CensusResponse;
  "GET /api/housing": Signals.HousingResponse;
  "GET /api/macro": Signals.MacroResponse;
  /** Not shown: the answer's JSON as sent. */
  "GET /api/alerts": unknown;
  "POST /api/alerts": Signals.Alert;
  "GET /api/views": Signals.SavedView[];
  "POST /api/views": Signals.SavedView;
  "DELETE /api/views/{id}": void;
  "POST /api/investigate": unknown;
  "POST /api/investigate/stream": unknown;
  "POST /api/analyze": unknown;
}

/** The request bodies the references show, by route. */
export interface WorkflowsRequests {
  "POST /api/v1/workflows/catalogue/resolve-subjects": Workflows.ResolveSubjectsRequest;
  "POST /api/v1/workflows/catalogue/validate-definition": { definition: unknown };
  "POST /api/v1/workflows": { name: string };
  "POST /api/v1/workflows/{wf}/versions": Workflows.SaveVersionRequest;
  "POST /api/v1/workflows/{wf}/run": Workflows.StartRunRequest;
}

export interface SignalsRequests {
  "POST /api/alerts": Signals.AlertBody;
  "POST /api/views": Signals.ViewBody;
  "POST /api/investigate": Signals.AiRequestBody;
  "POST /api/investigate/stream": Signals.AiRequestBody;
  "POST /api/analyze": Signals.AiRequestBody;
}

/** A `400 validation_failed` (either API) lists every fault. */
export type ValidationFaults = Fault[];

// Each answers table names exactly the routes of its route table (a compile error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameWorkflows: Same<keyof WorkflowsAnswers, WorkflowsRoute> = true;
const sameSignals: Same<keyof SignalsAnswers, SignalsRoute> = true;
const requestsAreRoutes: [keyof WorkflowsRequests] extends [WorkflowsRoute] ? ([keyof SignalsRequests] extends [SignalsRoute] ? true : false) : false = true;
void sameWorkflows;
void sameSignals;
void requestsAreRoutes;

/** `GET /api/v1/workflows/{wf}/runs` → its method and path. */
export function splitRoute<K extends string>(key: K): { method: Method; path: string } {
  const space = key.indexOf(" ");
  return { method: key.slice(0, space) as Method, path: key.slice(space + 1) };
}

/** A path of the tables as Hono writes it: `{wf}` → `:wf`. */
export function honoPath(path: string): string {
  return path.replace(/\{([A-Za-z]+)\}/g, ":$1");
}

/** A path with its `{parameters}` filled in (each encoded as one segment). */
export function fillPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
}

/**
 * The methods a table has at `path` (a path under the table's base), in the table's order: a
 * `{parameter}` matches any non-empty segment, and one trailing slash is ignored. What a 405's
 * `Allow` lists; empty: no route has that path.
 */
export function methodsAt(table: Readonly<Record<string, RouteSpec>>, path: string): Method[] {
  const segments = (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path).split("/");
  const methods: Method[] = [];
  for (const key of Object.keys(table)) {
    const route = splitRoute(key);
    const pattern = route.path.split("/");
    if (pattern.length !== segments.length || methods.includes(route.method)) continue;
    if (pattern.every((part, i) => (/^\{[A-Za-z]+\}$/.test(part) ? segments[i] !== "" : part === segments[i]))) methods.push(route.method);
  }
  return methods;
}
