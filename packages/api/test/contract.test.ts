/**
 * The contract as data, held to the two references and to itself: the route tables are the
 * references' endpoint tables (method, path, credential), read-only routes are the ones that
 * may be sent again, the parameter rules' defaults are values the rules take, `periods`
 * follows the reference (no maximum) with wfkit serve's bound kept apart, the error table
 * reads back as the reference's rows, and `methodsAt` finds a path's methods as a 405 lists
 * them.
 */
import { ALERT_FIELDS, GEOGRAPHIES as CORE_GEOGRAPHIES, VIEW_FIELDS } from "@wfkit/core";
import { describe, expect, it } from "vitest";
import {
  ADMIN_ROUTES,
  ERRORS,
  GEOGRAPHIES,
  RUN_FILTERS,
  RUN_STATES,
  SIGNALS_PARAMS,
  SIGNALS_ROUTES,
  TERMINAL_RUN_STATES,
  WORKFLOWS_PARAMS,
  WORKFLOWS_ROUTES,
  fillPath,
  honoPath,
  integerAllowed,
  isCalendarDate,
  kindOf,
  methodsAt,
  scopesGrant,
  signalsKindOf,
  splitRoute,
  type ParamRule,
  type RouteSpec,
} from "../src/index.js";

/** The Workflows API reference's endpoint table (section 4), as it writes it: method, path, scope (R, W). */
const WORKFLOWS_REFERENCE = `
GET /api/v1/workflows/catalogue/parts R
POST /api/v1/workflows/catalogue/resolve-subjects R
POST /api/v1/workflows/catalogue/validate-definition R
POST /api/v1/workflows W
POST /api/v1/workflows/{wf}/versions W
POST /api/v1/workflows/{wf}/versions/{version}/publish W
POST /api/v1/workflows/{wf}/run W
GET /api/v1/workflows/{wf}/runs/{run} R
GET /api/v1/workflows/{wf}/runs R
GET /api/v1/workflows/runs R
POST /api/v1/workflows/{wf}/runs/{run}/deliver W
POST /api/v1/workflows/{wf}/runs/{run}/cancel W
GET /api/v1/workflows/templates R`;

/**
 * The Consumer Signals API reference's endpoint table (section 4), and the routes it says exist
 * without showing them (`GET /api/alerts`, the three AI endpoints, which section 8 limits):
 * method, path, credential (J, A).
 */
const SIGNALS_REFERENCE = `
GET /api/signals J
GET /api/cpix J
GET /api/history J
GET /api/signals/accuracy J
GET /api/briefing/latest J
GET /api/sectors/{sectorId}/import-pressure J
GET /api/census-marts J
GET /api/housing J
GET /api/macro J
POST /api/alerts A
GET /api/views A
POST /api/views A
DELETE /api/views/{id} A
GET /api/alerts A
POST /api/investigate J+limit
POST /api/investigate/stream J+limit
POST /api/analyze J+limit`;

const rows = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((line) => line.split(" ") as [string, string, string]);

const tables: [string, Readonly<Record<string, RouteSpec>>][] = [
  ["workflows", WORKFLOWS_ROUTES],
  ["signals", SIGNALS_ROUTES],
  ["admin", ADMIN_ROUTES],
];

describe("the route tables are the references' endpoint tables", () => {
  it("the Workflows API: every route and no other, with its scope", () => {
    const reference = rows(WORKFLOWS_REFERENCE);
    expect(Object.keys(WORKFLOWS_ROUTES).sort()).toEqual(reference.map(([method, path]) => `${method} ${path}`).sort());
    for (const [method, path, scope] of reference) expect(WORKFLOWS_ROUTES[`${method} ${path}` as keyof typeof WORKFLOWS_ROUTES].auth, path).toBe(scope === "R" ? "read:workflows" : "write:workflows");
  });

  it("the Consumer Signals API: every route and no other, with its credential", () => {
    const reference = rows(SIGNALS_REFERENCE);
    expect(Object.keys(SIGNALS_ROUTES).sort()).toEqual(reference.map(([method, path]) => `${method} ${path}`).sort());
    const auth = { J: "jwt", A: "alert_token", "J+limit": "jwt+ai_limit" } as const;
    for (const [method, path, credential] of reference) expect(SIGNALS_ROUTES[`${method} ${path}` as keyof typeof SIGNALS_ROUTES].auth, path).toBe(auth[credential as keyof typeof auth]);
  });

  it("classification is explicit: every mutating Workflows route needs write:workflows but the two catalogue reads", () => {
    for (const [key, spec] of Object.entries(WORKFLOWS_ROUTES)) {
      const { method, path } = splitRoute(key);
      if (method !== "GET" && !path.startsWith("/api/v1/workflows/catalogue/")) expect(spec.auth, key).toBe("write:workflows");
    }
  });

  it("the admin surface takes the admin token on every route, and is outside both APIs", () => {
    for (const [key, spec] of Object.entries(ADMIN_ROUTES)) expect(spec.auth, key).toBe("admin");
  });
});

describe("each row is consistent", () => {
  for (const [name, table] of tables)
    it(`${name}: reads have no body and may be sent again; the answer's status and shape fit`, () => {
      for (const [key, spec] of Object.entries(table)) {
        const { method, path } = splitRoute(key);
        expect(key, "METHOD /path").toMatch(/^(GET|POST|DELETE) \/[A-Za-z0-9/{}._-]*$/);
        if (method === "GET") expect([spec.body, spec.resend], key).toEqual([{ read: "none" }, "safe"]);
        if (method === "DELETE") expect(spec.resend, key).toBe("never");
        if (spec.status === 204) expect(spec.body, key).toEqual({ read: "none" });
        for (const name of Object.keys(spec.params ?? {})) expect(path, `${key} names {${name}}`).toContain(`{${name}}`);
        for (const rule of Object.values(spec.query)) expect(rule.in, key).toBe("query");
      }
    });

  it("only the run start is sent again with its Idempotency-Key; creating anything is never sent twice", () => {
    const withKey = Object.entries(WORKFLOWS_ROUTES).filter(([, spec]) => spec.resend === "with_key");
    expect(withKey.map(([key]) => key)).toEqual(["POST /api/v1/workflows/{wf}/run"]);
    for (const key of ["POST /api/v1/workflows", "POST /api/v1/workflows/{wf}/versions"] as const) expect(WORKFLOWS_ROUTES[key].resend).toBe("never");
    for (const key of ["POST /api/alerts", "POST /api/views", "POST /api/investigate", "POST /api/analyze", "POST /api/investigate/stream"] as const) expect(SIGNALS_ROUTES[key].resend).toBe("never");
  });

  it("the alert and view bodies' members are core's fields for them", () => {
    expect([...(SIGNALS_ROUTES["POST /api/alerts"].body.members ?? [])].sort()).toEqual(Object.keys(ALERT_FIELDS).sort());
    expect([...(SIGNALS_ROUTES["POST /api/views"].body.members ?? [])].sort()).toEqual(Object.keys(VIEW_FIELDS).sort());
  });

  it("every answer is checked but the event stream's", () => {
    for (const [name, table] of tables)
      for (const [key, spec] of Object.entries(table)) expect(spec.answer === null, `${name} ${key}`).toBe(key === "POST /api/investigate/stream");
  });
});

describe("the parameter rules", () => {
  const all: [string, ParamRule][] = [...Object.entries(SIGNALS_PARAMS), ...Object.entries(WORKFLOWS_PARAMS)];

  it("each default is a value its rule takes", () => {
    for (const [name, rule] of all) {
      if (rule.default === undefined) continue;
      expect(rule.required, name).toBeUndefined();
      if (rule.type === "enum") expect(rule.enumeration, name).toContain(rule.default);
      if (rule.type === "integer") expect(integerAllowed(rule, rule.default as number), name).toBe(true);
      if (rule.type === "date") expect(rule.default === "today" || isCalendarDate(String(rule.default)), name).toBe(true);
    }
  });

  it("the references' defaults: geography US, from 2020-01-01, to today, periods 1, state all", () => {
    expect([SIGNALS_PARAMS.geography.default, SIGNALS_PARAMS.from.default, SIGNALS_PARAMS.to.default, SIGNALS_PARAMS.periods.default, WORKFLOWS_PARAMS.state.default]).toEqual(["US", "2020-01-01", "today", 1, "all"]);
    expect(WORKFLOWS_PARAMS.state.enumeration).toEqual(RUN_FILTERS);
  });

  it("periods: a whole number of 1 or more, with no maximum, as the reference has it; wfkit serve's 52 is its own bound", () => {
    const rule = SIGNALS_PARAMS.periods;
    expect("maximum" in rule).toBe(false);
    for (const value of [1, 4, 52, 53, 520, Number.MAX_SAFE_INTEGER]) expect(integerAllowed(rule, value), String(value)).toBe(true);
    for (const value of [0, -1, 1.5, Number.NaN, Infinity, 2 ** 53]) expect(integerAllowed(rule, value), String(value)).toBe(false);
    for (const text of ["1", "52"]) expect(integerAllowed(rule, text, "service"), text).toBe(true);
    for (const text of ["0", "53", "1.5", "-1", "1e1", " 1", "", "99999999999999999999"]) expect(integerAllowed(rule, text, "service"), JSON.stringify(text)).toBe(false);
  });

  it("geographies are core's (the alert and view bodies'), and the single-geography endpoints take one of them", () => {
    expect(GEOGRAPHIES).toEqual(CORE_GEOGRAPHIES);
    for (const rule of [SIGNALS_PARAMS.importPressureGeography, SIGNALS_PARAMS.censusGeography]) {
      expect(rule.enumeration).toHaveLength(1);
      expect(GEOGRAPHIES).toContain(rule.enumeration[0]);
    }
  });

  it("calendar dates: real days written YYYY-MM-DD only", () => {
    for (const text of ["2024-02-29", "2020-01-01", "1999-12-31"]) expect(isCalendarDate(text), text).toBe(true);
    for (const text of ["2023-02-29", "2024-13-01", "2024-00-01", "2024-1-01", "0050-01-01", "2024-01-01T00:00", ""]) expect(isCalendarDate(text), text).toBe(false);
  });
});

describe("the error table", () => {
  it("reads back the reference's rows by status and code", () => {
    expect(
      [
        [400, "validation_failed"],
        [401, "UNAUTHENTICATED"],
        [402, "plan_required"],
        [402, "research_capacity_unavailable"],
        [403, "insufficient_scope"],
        [403, "GATE_REQUIRED"],
        [404, "no_published_version"],
        [503, "research_capacity_unavailable"],
        [503, "workflows_unavailable"],
        [404, "workflow_not_found"],
        [418, "validation_failed"],
      ].map(([status, code]) => kindOf(status as number, code as string)),
    ).toEqual(["validation_failed", "unauthenticated", "plan_required", "allowance_exhausted", "insufficient_scope", "gate_required", "no_published_version", "usage_unavailable", "workflows_unavailable", "other", "other"]);
  });

  it("the reference's body fields: required_feature, required_scope, details", () => {
    expect(ERRORS.planRequired.fields).toEqual(["required_feature"]);
    expect(ERRORS.insufficientScope.fields).toEqual(["required_scope"]);
    expect([ERRORS.allowanceExhausted.fields, ERRORS.usageUnavailable.fields]).toEqual([["details"], ["details"]]);
    expect(Object.values(ERRORS).filter((row) => row.retryable).map((row) => `${row.status} ${row.code}`)).toEqual(["503 research_capacity_unavailable", "429 null"]);
  });

  it("the Consumer Signals API's refusals are read by status alone", () => {
    expect([400, 401, 403, 404, 422, 429, 500, 502, 503, 504].map(signalsKindOf)).toEqual(["bad_request", "unauthenticated", "forbidden", "not_found", "bad_request", "rate_limited", "other", "unavailable", "unavailable", "unavailable"]);
  });
});

describe("enumerations", () => {
  it("run states: each open or terminal; the terminal ones are what a wait stops at", () => {
    expect(TERMINAL_RUN_STATES).toEqual(["succeeded", "failed", "cancelled"]);
    expect(new Set(Object.values(RUN_STATES))).toEqual(new Set(["open", "terminal"]));
  });

  it("write:workflows implies read:workflows, not the reverse", () => {
    expect([scopesGrant(["write:workflows"], "read:workflows"), scopesGrant(["read:workflows"], "write:workflows"), scopesGrant([], "read:workflows")]).toEqual([true, false, false]);
  });
});

describe("paths", () => {
  it("as Hono writes them, filled in, split from their key", () => {
    expect(honoPath("/api/v1/workflows/{wf}/runs/{run}")).toBe("/api/v1/workflows/:wf/runs/:run");
    expect(fillPath("/api/v1/workflows/{wf}/runs/{run}", { wf: "a/b", run: "r 1" })).toBe("/api/v1/workflows/a%2Fb/runs/r%201");
    expect(splitRoute("DELETE /api/views/{id}")).toEqual({ method: "DELETE", path: "/api/views/{id}" });
  });

  it("methodsAt: a parameter is any non-empty segment, one trailing slash is ignored, the table's order kept", () => {
    expect(methodsAt(SIGNALS_ROUTES, "/api/views")).toEqual(["GET", "POST"]);
    expect(methodsAt(SIGNALS_ROUTES, "/api/views/")).toEqual(["GET", "POST"]);
    expect(methodsAt(SIGNALS_ROUTES, "/api/views/v1")).toEqual(["DELETE"]);
    expect(methodsAt(SIGNALS_ROUTES, "/api/views//")).toEqual([]);
    expect(methodsAt(WORKFLOWS_ROUTES, "/api/v1/workflows")).toEqual(["POST"]);
    expect(methodsAt(WORKFLOWS_ROUTES, "/api/v1/workflows/runs")).toEqual(["GET"]);
    expect(methodsAt(WORKFLOWS_ROUTES, "/api/v1/workflows//runs")).toEqual([]);
    expect(methodsAt(WORKFLOWS_ROUTES, "/api/v1/workflows/wf_1")).toEqual([]);
    expect(methodsAt(WORKFLOWS_ROUTES, "/api/v1/workflows/runs/runs")).toEqual(["GET"]);
  });
});
