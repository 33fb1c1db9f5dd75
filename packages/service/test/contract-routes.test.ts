/**
 * The app against the contract: walking Hono's routes, every route the service registers is
 * a row of @wfkit/api's route tables and every row is registered, with the credential the row
 * names; the only other routes are each sub-app's own middleware and catch-all and the
 * assistant surface's gate. A 405's `Allow` is the table's methods for the path, and every
 * route refuses a request without its credential in its API's shape before reading anything.
 */
import { ADMIN_BASE_PATH, ADMIN_ROUTES, SIGNALS_ROUTES as SIGNALS_TABLE, WORKFLOWS_BASE_PATH, WORKFLOWS_ROUTES, fillPath, honoPath, methodsAt, splitRoute, type RouteSpec } from "@wfkit/api";
import { describe, expect, it } from "vitest";
import { API_ROUTES, ROUTE_SCOPES, SIGNALS_BASE_PATH, SIGNALS_ROUTES, createApp } from "../src/index.js";
import { harness } from "./helpers.js";

/** Every row of the three tables as Hono registers it: `METHOD /whole/:path`. */
function contractRoutes(): Map<string, RouteSpec> {
  const tables: [string, Readonly<Record<string, RouteSpec>>][] = [
    ["", WORKFLOWS_ROUTES],
    [SIGNALS_BASE_PATH, SIGNALS_TABLE],
    [ADMIN_BASE_PATH, ADMIN_ROUTES],
  ];
  const routes = new Map<string, RouteSpec>();
  for (const [base, table] of tables)
    for (const [key, spec] of Object.entries(table)) {
      const { method, path } = splitRoute(key);
      routes.set(`${method} ${base}${honoPath(path)}`, spec);
    }
  return routes;
}

describe("the app's routes are the contract's", () => {
  it("registers exactly the contract's routes, each once", async () => {
    const { app } = await harness();
    const registered = app.routes.filter((route) => route.method !== "ALL").map((route) => `${route.method} ${route.path}`);
    expect(new Set(registered).size, "a route registered twice").toBe(registered.length);
    expect([...registered].sort()).toEqual([...contractRoutes().keys()].sort());
  });

  it("has no other routes than each sub-app's middleware and catch-all, and the assistant surface", async () => {
    const { app } = await harness();
    const others = new Set(app.routes.filter((route) => route.method === "ALL").map((route) => route.path));
    expect([...others].sort()).toEqual([`${ADMIN_BASE_PATH}/*`, "/anya", "/anya/*", `${SIGNALS_BASE_PATH}/*`, `${WORKFLOWS_BASE_PATH}/*`].sort());
  });

  it("exports the route lists the app registers, and the scopes the contract gives", () => {
    const workflows = API_ROUTES.map((route) => `${route.method} ${route.path}`);
    const signals = SIGNALS_ROUTES.map((route) => `${route.method} ${SIGNALS_BASE_PATH}${route.path}`);
    const contract = [...contractRoutes().keys()];
    expect([...workflows, ...signals].sort()).toEqual(contract.filter((key) => !key.includes(ADMIN_BASE_PATH)).sort());
    for (const [key, spec] of Object.entries(WORKFLOWS_ROUTES)) {
      const { method, path } = splitRoute(key);
      expect(ROUTE_SCOPES[`${method} ${honoPath(path)}`], key).toBe(spec.auth);
    }
    for (const route of SIGNALS_ROUTES) {
      const spec = SIGNALS_TABLE[`${route.method} ${route.path.replace(/:([A-Za-z]+)/g, "{$1}")}` as keyof typeof SIGNALS_TABLE];
      expect({ jwt: "jwt", "jwt+ai_limit": "ai", alert_token: "alert_token" }[spec.auth], route.path).toBe(route.access);
    }
  });

  it("refuses to build an app with a contract route that has no handler", async () => {
    const { service } = await harness();
    const taken = API_ROUTES.pop()!;
    try {
      expect(() => createApp(service)).toThrow(/POST \/api\/v1\/workflows\/\{wf\}\/runs\/\{run\}\/cancel have no handler/);
    } finally {
      API_ROUTES.push(taken);
    }
  });
});

/** A path of the tables with its `{parameters}` filled in. */
const sample = (path: string) => fillPath(path, { wf: "wf_x", version: "ver_x", run: "run_x", sectorId: "grocery", id: "view_x", account: "acct_default", key: "read", alert: "alert_x" });

describe("each route is behind the credential its row names", () => {
  it("without a credential, every route is refused as its row's credential is, before its body or query is read", async () => {
    const { call } = await harness();
    const expected: Record<RouteSpec["auth"], [number, string]> = {
      "read:workflows": [401, "UNAUTHENTICATED"],
      "write:workflows": [401, "UNAUTHENTICATED"],
      jwt: [401, "unauthenticated"],
      "jwt+ai_limit": [401, "unauthenticated"],
      alert_token: [401, "unauthenticated"],
      admin: [403, "admin_forbidden"],
    };
    const tables: [string, Readonly<Record<string, RouteSpec>>][] = [
      ["", WORKFLOWS_ROUTES],
      [SIGNALS_BASE_PATH, SIGNALS_TABLE],
      [ADMIN_BASE_PATH, ADMIN_ROUTES],
    ];
    for (const [base, table] of tables)
      for (const [key, spec] of Object.entries(table)) {
        const { method, path } = splitRoute(key);
        // A body and a query no route takes: the credential is refused first all the same.
        const reply = await call(method, `${base}${sample(path)}?unknown=1`, { credential: null, ...(method === "GET" ? {} : { rawBody: "{not json" }) });
        const [status, code] = expected[spec.auth];
        expect(reply.status, key).toBe(status);
        expect(base === SIGNALS_BASE_PATH ? [reply.body.ok, reply.body.code] : [reply.body.error], key).toEqual(base === SIGNALS_BASE_PATH ? [false, code] : [code]);
      }
  });

  it("a read-only key reaches the reads and is refused the writes, as each row's scope says", async () => {
    const { call, keys } = await harness();
    for (const [key, spec] of Object.entries(WORKFLOWS_ROUTES)) {
      const { method, path } = splitRoute(key);
      const reply = await call(method, sample(path), { credential: keys.read, ...(method === "GET" ? {} : { body: {} }) });
      if (spec.auth === "write:workflows") expect([reply.status, reply.body.error], key).toEqual([403, "insufficient_scope"]);
      else expect(reply.body.error, key).not.toBe("insufficient_scope");
    }
  });
});

describe("a 405 lists the table's methods for the path", () => {
  it("for every path of the two APIs, each method it lacks is a 405 naming the ones it has, in the API's shape", async () => {
    const { call } = await harness();
    const tables: [string, Readonly<Record<string, RouteSpec>>, boolean][] = [
      ["", WORKFLOWS_ROUTES, false],
      [SIGNALS_BASE_PATH, SIGNALS_TABLE, true],
    ];
    for (const [base, table, signals] of tables)
      for (const key of Object.keys(table)) {
        const path = sample(splitRoute(key).path);
        const allowed = methodsAt(table, path);
        for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !(allowed as string[]).includes(m))) {
          const reply = await call(method, base + path, { credential: null });
          expect(reply.status, `${method} ${path}`).toBe(405);
          expect(reply.headers.get("Allow"), `${method} ${path}`).toBe(allowed.join(", "));
          expect(signals ? reply.body.code : reply.body.error).toBe("method_not_allowed");
        }
      }
  });

  it("a path no table has is a 404 in the shape of the API it is under", async () => {
    const { call } = await harness();
    for (const [path, signals] of [
      [`${WORKFLOWS_BASE_PATH}/wf_x/nothing`, false],
      [`${SIGNALS_BASE_PATH}/api/nothing`, true],
      [`${ADMIN_BASE_PATH}/nothing`, false],
      ["/nothing", false],
    ] as const) {
      const reply = await call("GET", path, { credential: null });
      expect(reply.status, path).toBe(404);
      expect(signals ? [reply.body.ok, reply.body.code] : [reply.body.error], path).toEqual(signals ? [false, "route_not_found"] : ["route_not_found"]);
    }
  });
});
