/**
 * The HTTP face of the service: a Hono app (Request → Response), so tests call
 * `app.request()` in-process and `wfkit serve` puts the same app on a port.
 *
 * Every API route is listed once in `API_ROUTES` with its scope; a route is registered only
 * through that table, and `ROUTE_SCOPES` must classify it, so a mutating route cannot be added
 * without saying which scope it needs (a test walks the registered routes as well).
 */
import { Hono, type Context } from "hono";
import { ApiError, errors } from "./errors.js";
import type { Caller } from "./auth.js";
import { adminRoutes } from "./admin.js";
import { anyaRoutes } from "./anya.js";
import { clientIp, readEmpty, readObject } from "./request.js";
import { LIMITS, RESEARCH_PRODUCT, RUN_FILTERS, WORKFLOWS_REGIONS, characterCount, planHas, scopesGrant, type RunFilter, type Scope } from "./policy.js";
import type { WorkflowsService } from "./service.js";
import { TEMPLATES } from "./generated/templates.js";
import { SIGNALS_ROUTES, isSignalsPath, signalsRoutes } from "./signals/routes.js";
import { SignalsError, asSignalsBody, signalsErrors } from "./signals/errors.js";
import { SIGNALS_BASE_PATH } from "./signals/policy.js";

type Handler = (c: Context, caller: Caller, service: WorkflowsService) => Promise<Response> | Response;

export interface ApiRoute {
  method: "GET" | "POST";
  path: string;
  handle: Handler;
}

/**
 * The scope each route needs, from the reference's endpoint table. Classification is
 * explicit: validate-definition and resolve-subjects are POSTs but reads.
 */
export const ROUTE_SCOPES: Readonly<Record<string, Scope>> = {
  "GET /api/v1/workflows/catalogue/parts": "read:workflows",
  "POST /api/v1/workflows/catalogue/resolve-subjects": "read:workflows",
  "POST /api/v1/workflows/catalogue/validate-definition": "read:workflows",
  "GET /api/v1/workflows/templates": "read:workflows",
  "POST /api/v1/workflows": "write:workflows",
  "POST /api/v1/workflows/:wf/versions": "write:workflows",
  "POST /api/v1/workflows/:wf/versions/:version/publish": "write:workflows",
  "POST /api/v1/workflows/:wf/run": "write:workflows",
  "GET /api/v1/workflows/runs": "read:workflows",
  "GET /api/v1/workflows/:wf/runs": "read:workflows",
  "GET /api/v1/workflows/:wf/runs/:run": "read:workflows",
  "POST /api/v1/workflows/:wf/runs/:run/deliver": "write:workflows",
  "POST /api/v1/workflows/:wf/runs/:run/cancel": "write:workflows",
};

export const MOCK_CASE_HEADER = "Wfkit-Mock-Case";

export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: "GET",
    path: "/api/v1/workflows/catalogue/parts",
    handle: (c, _caller, service) => {
      const flag = c.req.query("unattendedSafe");
      if (flag !== undefined && flag !== "0" && flag !== "1") throw errors.badRequest(`unattendedSafe must be 1 (only parts allowed on a scheduled trigger) or 0 (all parts), not \`${flag}\``, "?unattendedSafe");
      return c.json(service.parts(flag === "1"));
    },
  },
  {
    method: "POST",
    path: "/api/v1/workflows/catalogue/resolve-subjects",
    handle: async (c, _caller, service) => {
      const body = await readObject(c, ["hints"]);
      const hints = body.hints;
      if (!Array.isArray(hints) || hints.length === 0) throw errors.badRequest("hints must be a non-empty array of strings (tickers or names), all in one call", "/hints");
      if (hints.length > LIMITS.hintsPerCall) throw errors.badRequest(`at most ${LIMITS.hintsPerCall} hints per call (got ${hints.length})`, "/hints");
      hints.forEach((hint, i) => {
        if (typeof hint !== "string" || !hint.trim() || hint.length > LIMITS.hintLength) throw errors.badRequest(`hints[${i}] must be a non-empty string of at most ${LIMITS.hintLength} characters`, `/hints/${i}`);
      });
      return c.json(service.resolveSubjects(hints as string[]));
    },
  },
  {
    method: "POST",
    path: "/api/v1/workflows/catalogue/validate-definition",
    handle: async (c, _caller, service) => {
      const body = await readObject(c, ["definition"]);
      if (!("definition" in body)) throw errors.badRequest("the body must be {definition: <the Definition>}", "/definition");
      return c.json(service.validate(body.definition));
    },
  },
  {
    method: "GET",
    path: "/api/v1/workflows/templates",
    handle: (c) => c.json(TEMPLATES),
  },
  {
    method: "POST",
    path: "/api/v1/workflows",
    handle: async (c, caller, service) => {
      const body = await readObject(c, ["name"]);
      if (typeof body.name !== "string" || !body.name.trim()) throw errors.badRequest("name must be a non-empty string", "/name");
      if (body.name.length > LIMITS.workflowNameLength) throw errors.badRequest(`name must be at most ${LIMITS.workflowNameLength} characters`, "/name");
      return c.json(service.createWorkflow(caller.userId, body.name), 201);
    },
  },
  {
    method: "POST",
    path: "/api/v1/workflows/:wf/versions",
    handle: async (c, caller, service) => {
      // The body is judged whole by the checker (unknown fields are its warnings).
      const body = await readObject(c, null);
      if (!("scope" in body)) throw errors.badRequest("the body must be {scope: {graph: <the Definition>}}, optionally with top-level trigger and destinations", "/scope");
      return c.json(service.saveVersion(caller.userId, c.req.param("wf")!, body), 201);
    },
  },
  {
    method: "POST",
    path: "/api/v1/workflows/:wf/versions/:version/publish",
    handle: async (c, caller, service) => {
      await readEmpty(c);
      return c.json(service.publish(caller.userId, c.req.param("wf")!, c.req.param("version")!));
    },
  },
  {
    method: "POST",
    path: "/api/v1/workflows/:wf/run",
    handle: async (c, caller, service) => {
      const key = c.req.header("Idempotency-Key");
      if (key !== undefined && (key.length === 0 || key.length > LIMITS.idempotencyKeyLength || !/^[\x21-\x7e]+$/.test(key)))
        throw errors.badRequest(`Idempotency-Key must be 1 to ${LIMITS.idempotencyKeyLength} visible ASCII characters (a UUID is a good choice)`, "Idempotency-Key");
      const body = await readObject(c, ["question"], true);
      if (body.question !== undefined && typeof body.question !== "string") throw errors.badRequest("question must be a string (a label for the run)", "/question");
      const question = body.question as string | undefined;
      // Characters as a person counts them (code points), not UTF-16 units: 600 emoji are 600.
      if (question !== undefined && characterCount(question) > LIMITS.questionLength)
        throw errors.badRequest(`question must be at most ${LIMITS.questionLength} characters (got ${characterCount(question)}, counted as Unicode code points); shorten the label`, "/question");
      const mockCase = c.req.header(MOCK_CASE_HEADER) ?? "default";
      const result = service.startRun(caller.userId, c.req.param("wf")!, { ...(question !== undefined ? { question } : {}), mockCase, ...(key !== undefined ? { idempotencyKey: key } : {}) });
      if (result.replayed) c.header("Idempotent-Replayed", "true");
      return c.json(result.body as object, result.status as 200);
    },
  },
  {
    method: "GET",
    path: "/api/v1/workflows/runs",
    handle: (c, caller, service) => {
      const state = c.req.query("state") ?? "all";
      if (!(RUN_FILTERS as readonly string[]).includes(state)) throw errors.badRequest(`state must be one of ${RUN_FILTERS.join(", ")} (got \`${state}\`)`, "?state");
      return c.json(service.ownedRuns(caller.userId, state as RunFilter));
    },
  },
  {
    method: "GET",
    path: "/api/v1/workflows/:wf/runs",
    handle: (c, caller, service) => c.json(service.workflowRuns(caller.userId, c.req.param("wf")!)),
  },
  {
    method: "GET",
    path: "/api/v1/workflows/:wf/runs/:run",
    handle: (c, caller, service) => c.json(service.run(caller.userId, c.req.param("wf")!, c.req.param("run")!)),
  },
  {
    method: "POST",
    path: "/api/v1/workflows/:wf/runs/:run/deliver",
    handle: async (c, caller, service) => {
      await readEmpty(c);
      return c.json(service.deliver(caller.userId, c.req.param("wf")!, c.req.param("run")!));
    },
  },
  {
    method: "POST",
    path: "/api/v1/workflows/:wf/runs/:run/cancel",
    handle: async (c, caller, service) => {
      await readEmpty(c);
      return c.json(service.cancel(caller.userId, c.req.param("wf")!, c.req.param("run")!));
    },
  },
];

export function scopeOf(method: string, path: string): Scope {
  const scope = ROUTE_SCOPES[`${method} ${path}`];
  if (!scope) throw new Error(`route ${method} ${path} has no scope in ROUTE_SCOPES; classify it there (every mutating route needs write:workflows unless the reference says it is a read)`);
  return scope;
}

/**
 * Who is calling and whether they may: credential, product, plan, region, scope, then an
 * outstanding acceptance. The order is the order a client can fix them in.
 */
export function authorize(c: Context, service: WorkflowsService, scope: Scope): Caller {
  const caller = service.auth.authenticate(c.req.header("Authorization"), clientIp(c));
  if (caller.products && !caller.products.includes(RESEARCH_PRODUCT)) throw errors.productNotAllowed();
  const user = service.user(caller.userId);
  const account = user && service.account(user.accountId);
  if (!account) throw errors.unauthenticated("The credential's user no longer exists");
  if (!planHas(account.plan, "workflows")) throw errors.planRequired("workflows", account.plan);
  // Sessions are the browser application; keys and OAuth tokens are programmatic access.
  if (caller.kind !== "session" && !planHas(account.plan, "workflows_api")) throw errors.planRequired("workflows_api", account.plan);
  if (!WORKFLOWS_REGIONS.includes(account.region)) throw errors.workflowsUnavailable(account.region);
  if (caller.scopes && !scopesGrant(caller.scopes, scope)) throw errors.insufficientScope(scope);
  if (account.acceptanceOutstanding) throw errors.gateRequired();
  return caller;
}

/**
 * A refusal as a response. Under the Consumer Signals API's base path every refusal takes that
 * API's shape, including those raised by code the two APIs share (body reading, storage).
 */
function refusal(c: Context, error: ApiError | SignalsError): Response {
  if (error instanceof SignalsError) return c.json(error.body, error.status, error.headers);
  return c.json(isSignalsPath(c.req.path) ? asSignalsBody(error.body) : error.body, error.status, error.headers);
}

export function createApp(service: WorkflowsService): Hono {
  const app = new Hono();
  // No answer before what it reports is on disk (the store syncs its journal in groups).
  app.use("*", async (c, next) => {
    await next();
    try {
      await service.store.durable();
    } catch (error) {
      c.res = refusal(c, errors.storageFailed(error instanceof Error ? error.message : String(error)));
    }
  });
  for (const route of API_ROUTES) {
    const scope = scopeOf(route.method, route.path);
    const handler = (c: Context) => route.handle(c, authorize(c, service, scope), service);
    if (route.method === "GET") app.get(route.path, handler);
    else app.post(route.path, handler);
  }
  signalsRoutes(app, service);
  anyaRoutes(app, service);
  adminRoutes(app, service);
  const patterns = [
    ...API_ROUTES.map((route) => ({ method: route.method, pattern: toRegExp(route.path) })),
    ...SIGNALS_ROUTES.map((route) => ({ method: route.method, pattern: toRegExp(SIGNALS_BASE_PATH + route.path) })),
  ];
  app.notFound((c) => {
    const allowed = [...new Set(patterns.filter((route) => route.pattern.test(c.req.path)).map((route) => route.method))];
    const signals = isSignalsPath(c.req.path);
    if (allowed.length) throw (signals ? signalsErrors : errors).methodNotAllowed(c.req.method, c.req.path, allowed);
    throw (signals ? signalsErrors : errors).routeNotFound(c.req.method, c.req.path);
  });
  app.onError((error, c) => {
    if (error instanceof ApiError || error instanceof SignalsError) return refusal(c, error);
    // Not a user's mistake: say so without a stack, and keep the details for the operator.
    console.error(`wfkit serve: internal error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    const body = { error: "internal_error", message: "The service failed on this request; this is a bug in wfkit serve (its log has the details). Nothing was changed unless the response said so." };
    return c.json(isSignalsPath(c.req.path) ? asSignalsBody(body) : body, 500);
  });
  return app;
}

function toRegExp(path: string): RegExp {
  return new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}/?$`);
}
