/** The route table: every registered API route has a scope, and the scopes follow the reference. */
import { describe, expect, it } from "vitest";
import { API_ROUTES, ROUTE_SCOPES, createApp } from "../src/index.js";
import { harness } from "./helpers.js";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

describe("route table", () => {
  it("classifies every mutating API route the app registers", async () => {
    const { service } = await harness();
    const app = createApp(service);
    const registered = app.routes.filter((route) => route.path.startsWith("/api/") && route.method !== "ALL");
    expect(registered.length).toBe(API_ROUTES.length);
    for (const route of registered) {
      const scope = ROUTE_SCOPES[`${route.method} ${route.path}`];
      expect(scope, `${route.method} ${route.path} has no scope in ROUTE_SCOPES`).toBeDefined();
      if (MUTATING.has(route.method) && !route.path.startsWith("/api/v1/workflows/catalogue/")) expect(scope, `${route.method} ${route.path}`).toBe("write:workflows");
    }
  });

  it("refuses to build an app with a route that has no classification", async () => {
    const { service } = await harness();
    const routes = API_ROUTES as unknown as { method: string; path: string; handle: unknown }[];
    routes.push({ method: "POST", path: "/api/v1/workflows/:wf/archive", handle: () => new Response() });
    try {
      expect(() => createApp(service)).toThrow(/POST \/api\/v1\/workflows\/:wf\/archive has no scope/);
    } finally {
      routes.pop();
    }
  });

  it("gives the two catalogue POSTs the read scope, as the reference says", () => {
    expect(ROUTE_SCOPES["POST /api/v1/workflows/catalogue/validate-definition"]).toBe("read:workflows");
    expect(ROUTE_SCOPES["POST /api/v1/workflows/catalogue/resolve-subjects"]).toBe("read:workflows");
  });
});
