/**
 * What the service's Hono sub-apps share (one per API: the Workflows API, the Consumer Signals
 * API, the admin surface; `app.ts` mounts them with `app.route`). Each is built by `apiApp`
 * from its routes and its table in @wfkit/api's contract:
 *
 * - every route is registered with the credential its row names, as middleware in front of its
 *   handler (`authenticate`, in auth.ts), which puts the caller and the row in `c.var`;
 * - a path the table has with other methods is a 405 whose `Allow` lists them (from the table,
 *   not from the registered routes); any other path under the sub-app is a 404;
 * - every refusal, and any failure, is rendered by the sub-app's `onError` in its API's shape;
 * - no answer leaves before what it reports is on disk (`durable`).
 */
import { honoPath, methodsAt, splitRoute, type RouteSpec } from "@wfkit/api";
import { Hono, type Context, type Handler, type MiddlewareHandler } from "hono";
import { authenticate, type Caller } from "./auth.js";
import { ApiError, errors } from "./errors.js";
import type { WorkflowsService } from "./service.js";
import type { SignalsCaller } from "./signals/service.js";

/** What a handler finds in `c.var`: the service, the route's row in the contract, and the caller its credential resolved to. */
export interface ServiceEnv {
  Variables: {
    service: WorkflowsService;
    route: RouteSpec;
    /** Set on the Workflows API's routes. */
    caller: Caller;
    /** Set on the Consumer Signals API's routes. */
    signalsCaller: SignalsCaller;
  };
}

export type ServiceContext = Context<ServiceEnv>;
export type RouteHandler = (c: ServiceContext) => Response | Promise<Response>;

/** A refusal, or any other failure, as a response in an API's shape. */
export type Render = (c: Context, error: unknown) => Response;

/** A route as a sub-app registers it: the contract's key, its method and Hono path (relative to the sub-app), its handler. */
interface Registered {
  key: string;
  spec: RouteSpec;
  method: string;
  path: string;
  handle: RouteHandler;
}

export interface ApiAppOptions {
  service: WorkflowsService;
  /** The contract's route table of this API. */
  table: Readonly<Record<string, RouteSpec>>;
  /** Where the sub-app is mounted: its routes' paths are under this. */
  base: string;
  /** Where the table's paths are, in the app (`""`: its paths are whole). */
  tableBase: string;
  /** Every route, by its key in `table`; exactly the table's keys. */
  routes: readonly { method: string; path: string; handle: RouteHandler }[];
  render: Render;
  /** The API's 404 and 405 for a path under `base` that no route has (absent: the app's own 404). */
  unmatched?: { routeNotFound(method: string, path: string): Error; methodNotAllowed(method: string, path: string, allowed: readonly string[]): Error };
}

/** The key of a route's row in a table whose paths start at `tableBase`, from its Hono method and whole path. */
export function contractKey(method: string, path: string, tableBase: string): string {
  return `${method} ${path.slice(tableBase.length).replace(/:([A-Za-z]+)/g, "{$1}")}`;
}

/** The route of a table row as Hono registers it, its path whole (under `tableBase`). */
export function honoRoute(key: string, tableBase: string): { method: string; path: string } {
  const { method, path } = splitRoute(key);
  return { method, path: tableBase + honoPath(path) };
}

/** No answer before what it reports is on disk (the store syncs its journal in groups); a failure to write is rendered as the API's `storage_failed`. */
export function durable(service: WorkflowsService, render: Render): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (service.store.isDurable) return;
    try {
      await service.store.durable();
    } catch (error) {
      c.res = render(c, errors.storageFailed(error instanceof Error ? error.message : String(error)));
    }
  };
}

/**
 * A route's handler behind its middleware, registered as one Hono handler: the middleware runs
 * for this route's method and path only (never for a request that ends in a 404 or a 405), and
 * `app.routes` lists each route once.
 */
function behind(spec: RouteSpec, middleware: MiddlewareHandler<ServiceEnv>, handle: RouteHandler): Handler<ServiceEnv> {
  return async (c) => {
    c.set("route", spec);
    let response: Response | undefined;
    const early = await middleware(c, async () => {
      response = await handle(c);
    });
    return response ?? early ?? c.res;
  };
}

/** An answer already in JSON, sent as `c.json` would send it. */
export function jsonText(c: Context, json: string, status: 200 = 200): Response {
  return c.body(json, status, { "Content-Type": "application/json" });
}

/** The `internal_error` of a failure that is not a refusal: said without a stack, the details kept for the operator. */
export function logInternal(c: Context, error: unknown): void {
  console.error(`wfkit serve: internal error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

/** A refusal of the Workflows API (or the admin surface, or the gate of `/anya`) as a response: `{error, message, ...}`. */
export function renderWorkflows(c: Context, error: unknown): Response {
  if (error instanceof ApiError) return c.json(error.body, error.status, error.headers);
  logInternal(c, error);
  const internal = errors.internal();
  return c.json(internal.body, internal.status);
}

export function apiApp(options: ApiAppOptions): Hono<ServiceEnv> {
  const { service, table, base, tableBase, render } = options;
  const routes = options.routes.map((route): Registered => {
    const key = contractKey(route.method, route.path, tableBase);
    const spec = table[key];
    if (!spec)
      throw new Error(
        `route ${route.method} ${route.path} has no scope in the contract (@wfkit/api's route table has no ${key}); add its row there first, with the credential it takes (every mutating route needs write:workflows unless the reference says it is a read)`,
      );
    return { key, spec, method: route.method, path: route.path.slice(base.length) || "/", handle: route.handle };
  });
  const missing = Object.keys(table).filter((key) => !routes.some((route) => route.key === key));
  if (missing.length) throw new Error(`the contract's routes ${missing.join(", ")} have no handler in wfkit serve`);

  const app = new Hono<ServiceEnv>();
  const isDurable = durable(service, render);
  app.use("*", async (c, next) => {
    c.set("service", service);
    await isDurable(c, next);
  });
  for (const route of routes) {
    app.on(route.method, route.path, behind(route.spec, authenticate(route.spec.auth), route.handle));
  }
  const { unmatched } = options;
  if (unmatched)
    app.all("*", (c) => {
      const allowed = methodsAt(table, c.req.path.slice(tableBase.length));
      throw allowed.length ? unmatched.methodNotAllowed(c.req.method, c.req.path, allowed) : unmatched.routeNotFound(c.req.method, c.req.path);
    });
  app.onError((error, c) => render(c, error));
  return app;
}
