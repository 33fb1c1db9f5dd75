/**
 * The HTTP face of the service: a Hono app (Request → Response), so tests call
 * `app.request()` in-process and `wfkit serve` puts the same app on a port.
 *
 * One sub-app per API, mounted with `app.route`: the Workflows API here, the Consumer Signals
 * API (`signals/routes.ts`) and the admin surface (`admin.ts`), each built by `apiApp` from its
 * route table in @wfkit/api's contract (the credential each route takes, its parameters and
 * body, the methods a path has for a 405) and rendering its own refusals. A route is
 * registered only with a row in the contract, so a mutating route cannot be added without
 * saying which scope it needs (a test walks the registered routes against the contract).
 */
import { RUN_FILTERS, WORKFLOWS_BASE_PATH, WORKFLOWS_PARAMS, WORKFLOWS_ROUTES, type RunFilter, type Scope, type WorkflowsRoute } from "@wfkit/api";
import { Hono, type Context } from "hono";
import { adminApp, ADMIN_PREFIX } from "./admin.js";
import { anyaRoutes } from "./anya.js";
import { apiApp, durable, honoRoute, jsonText, renderWorkflows, type RouteHandler } from "./api-app.js";
import { errors } from "./errors.js";
import { ANYA_PATH, LIMITS, characterCount } from "./policy.js";
import { routeObject } from "./request.js";
import type { WorkflowsService } from "./service.js";
import { TEMPLATES } from "./generated/templates.js";
import { signalsApp } from "./signals/routes.js";
import { SIGNALS_BASE_PATH } from "./signals/policy.js";

export { authorize } from "./auth.js";

export interface ApiRoute {
  method: "GET" | "POST";
  /** The whole path, as Hono writes it (`/api/v1/workflows/:wf/run`). */
  path: string;
  handle: RouteHandler;
}

export const MOCK_CASE_HEADER = "Wfkit-Mock-Case";

/** A path parameter of the route (Hono's, always present on a matched route). */
const param = (c: Context, name: string) => c.req.param(name)!;

/** Each route of the contract's Workflows table, answered; its credential, scope and body rule are its row's. */
const HANDLERS = {
  "GET /api/v1/workflows/catalogue/parts": (c) => {
    const flag = c.req.query("unattendedSafe");
    if (flag !== undefined && !(WORKFLOWS_PARAMS.unattendedSafe.enumeration as readonly string[]).includes(flag)) throw errors.badRequest(`unattendedSafe must be 1 (only parts allowed on a scheduled trigger) or 0 (all parts), not \`${flag}\``, "?unattendedSafe");
    return c.json(c.var.service.parts(flag === "1"));
  },
  "POST /api/v1/workflows/catalogue/resolve-subjects": async (c) => {
    const hints = (await routeObject(c)).hints;
    if (!Array.isArray(hints) || hints.length === 0) throw errors.badRequest("hints must be a non-empty array of strings (tickers or names), all in one call", "/hints");
    if (hints.length > LIMITS.hintsPerCall) throw errors.badRequest(`at most ${LIMITS.hintsPerCall} hints per call (got ${hints.length})`, "/hints");
    hints.forEach((hint, i) => {
      if (typeof hint !== "string" || !hint.trim() || hint.length > LIMITS.hintLength) throw errors.badRequest(`hints[${i}] must be a non-empty string of at most ${LIMITS.hintLength} characters`, `/hints/${i}`);
    });
    return c.json(c.var.service.resolveSubjects(hints as string[]));
  },
  "POST /api/v1/workflows/catalogue/validate-definition": async (c) => {
    const body = await routeObject(c);
    if (!("definition" in body)) throw errors.badRequest("the body must be {definition: <the Definition>}", "/definition");
    return c.json(c.var.service.validate(body.definition));
  },
  "GET /api/v1/workflows/templates": (c) => c.json(TEMPLATES),
  "POST /api/v1/workflows": async (c) => {
    const { name } = await routeObject(c);
    if (typeof name !== "string" || !name.trim()) throw errors.badRequest("name must be a non-empty string", "/name");
    if (name.length > LIMITS.workflowNameLength) throw errors.badRequest(`name must be at most ${LIMITS.workflowNameLength} characters`, "/name");
    return c.json(c.var.service.createWorkflow(c.var.caller.userId, name), 201);
  },
  "POST /api/v1/workflows/{wf}/versions": async (c) => {
    const body = await routeObject(c);
    if (!("scope" in body)) throw errors.badRequest("the body must be {scope: {graph: <the Definition>}}, optionally with top-level trigger and destinations", "/scope");
    return c.json(c.var.service.saveVersion(c.var.caller.userId, param(c, "wf"), body), 201);
  },
  "POST /api/v1/workflows/{wf}/versions/{version}/publish": async (c) => {
    await routeObject(c);
    return c.json(c.var.service.publish(c.var.caller.userId, param(c, "wf"), param(c, "version")));
  },
  "POST /api/v1/workflows/{wf}/run": async (c) => {
    const key = c.req.header("Idempotency-Key");
    if (key !== undefined && (key.length === 0 || key.length > LIMITS.idempotencyKeyLength || !/^[\x21-\x7e]+$/.test(key)))
      throw errors.badRequest(`Idempotency-Key must be 1 to ${LIMITS.idempotencyKeyLength} visible ASCII characters (a UUID is a good choice)`, "Idempotency-Key");
    const body = await routeObject(c);
    if (body.question !== undefined && typeof body.question !== "string") throw errors.badRequest("question must be a string (a label for the run)", "/question");
    const question = body.question as string | undefined;
    // Characters as a person counts them (code points), not UTF-16 units: 600 emoji are 600.
    if (question !== undefined && characterCount(question) > LIMITS.questionLength)
      throw errors.badRequest(`question must be at most ${LIMITS.questionLength} characters (got ${characterCount(question)}, counted as Unicode code points); shorten the label`, "/question");
    const mockCase = c.req.header(MOCK_CASE_HEADER) ?? "default";
    const result = c.var.service.startRun(c.var.caller.userId, param(c, "wf"), { ...(question !== undefined ? { question } : {}), mockCase, ...(key !== undefined ? { idempotencyKey: key } : {}) });
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.body as object, result.status as 200);
  },
  "GET /api/v1/workflows/runs": (c) => {
    const state = c.req.query("state") ?? WORKFLOWS_PARAMS.state.default;
    if (!(RUN_FILTERS as readonly string[]).includes(state)) throw errors.badRequest(`state must be one of ${RUN_FILTERS.join(", ")} (got \`${state}\`)`, "?state");
    return jsonText(c, c.var.service.ownedRunsJson(c.var.caller.userId, state as RunFilter));
  },
  "GET /api/v1/workflows/{wf}/runs": (c) => jsonText(c, c.var.service.workflowRunsJson(c.var.caller.userId, param(c, "wf"))),
  "GET /api/v1/workflows/{wf}/runs/{run}": (c) => c.json(c.var.service.run(c.var.caller.userId, param(c, "wf"), param(c, "run"))),
  "POST /api/v1/workflows/{wf}/runs/{run}/deliver": async (c) => {
    await routeObject(c);
    return c.json(c.var.service.deliver(c.var.caller.userId, param(c, "wf"), param(c, "run")));
  },
  "POST /api/v1/workflows/{wf}/runs/{run}/cancel": async (c) => {
    await routeObject(c);
    return c.json(c.var.service.cancel(c.var.caller.userId, param(c, "wf"), param(c, "run")));
  },
} satisfies Record<WorkflowsRoute, RouteHandler>;

/** Every route of the Workflows API, as the app registers it; `createApp` refuses one the contract does not have. */
export const API_ROUTES: ApiRoute[] = Object.entries(HANDLERS).map(([key, handle]) => ({ ...(honoRoute(key, "") as { method: "GET" | "POST"; path: string }), handle: handle as RouteHandler }));

/** The scope each route needs, from the contract (`/api/v1/workflows/:wf/run` as Hono writes it). Classification is explicit: validate-definition and resolve-subjects are POSTs but reads. */
export const ROUTE_SCOPES: Readonly<Record<string, Scope>> = Object.fromEntries(
  Object.entries(WORKFLOWS_ROUTES).map(([key, spec]) => {
    const route = honoRoute(key, "");
    return [`${route.method} ${route.path}`, spec.auth];
  }),
);

export function createApp(service: WorkflowsService): Hono {
  const workflows = apiApp({
    service,
    table: WORKFLOWS_ROUTES,
    base: WORKFLOWS_BASE_PATH,
    tableBase: "",
    routes: API_ROUTES,
    render: renderWorkflows,
    unmatched: errors,
  });
  const app = new Hono();
  app.route(WORKFLOWS_BASE_PATH, workflows);
  app.route(SIGNALS_BASE_PATH, signalsApp(service));
  app.route(ADMIN_PREFIX, adminApp(service));
  // The assistant surface's gate, and every path no API has: the Workflows API's shape.
  app.use(`${ANYA_PATH}/*`, durable(service, renderWorkflows));
  anyaRoutes(app, service);
  app.notFound(async (c) => {
    try {
      await service.store.durable();
    } catch (error) {
      return renderWorkflows(c, errors.storageFailed(error instanceof Error ? error.message : String(error)));
    }
    return renderWorkflows(c, errors.routeNotFound(c.req.method, c.req.path));
  });
  app.onError((error, c) => renderWorkflows(c, error));
  return app;
}
