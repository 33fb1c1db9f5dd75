/**
 * The admin surface, for tests and CI: move the clock, reset, take the usage system or the
 * resolver down, change an account, revoke and issue credentials. A Hono sub-app under
 * `/__admin`, outside the API: each route answers a row of @wfkit/api's `ADMIN_ROUTES`, whose
 * `admin` credential (the admin token, not an API credential, from loopback callers only, and
 * in-process callers, which have no socket) it is registered behind. Its refusals take the
 * Workflows API's shape.
 */
import { ADMIN_BASE_PATH, ADMIN_ROUTES, type AdminRoute } from "@wfkit/api";
import type { Hono } from "hono";
import { apiApp, honoRoute, renderWorkflows, type RouteHandler, type ServiceEnv } from "./api-app.js";
import { errors, type UsageOutage } from "./errors.js";
import type { WorkflowsService } from "./service.js";
import { routeObject } from "./request.js";
import { ENTITLEMENTS, SCOPES } from "./policy.js";

export const ADMIN_PREFIX = ADMIN_BASE_PATH;

const USAGE_STATES = ["up", "credit_policy_unconfigured", "platform_unavailable"] as const;

/** A path parameter of the route (Hono's, always present on a matched route). */
const param = (c: Parameters<RouteHandler>[0], name: string) => c.req.param(name)!;

const HANDLERS = {
  "GET /state": (c) => {
    const { service } = c.var;
    return c.json({ now: new Date(service.clock.now()).toISOString(), faults: service.faults, accounts: service.accounts(), pendingTimers: service.clock.pending });
  },
  "POST /clock/advance": async (c) => {
    const body = await routeObject(c);
    if (typeof body.ms !== "number" || !Number.isInteger(body.ms) || body.ms < 0) throw errors.badRequest("ms must be a whole number of milliseconds, 0 or more", "/ms");
    c.var.service.clock.advance(body.ms);
    return c.json({ now: new Date(c.var.service.clock.now()).toISOString() });
  },
  "POST /reset": async (c) => {
    await routeObject(c);
    const { service } = c.var;
    service.reset();
    return c.json({ ok: true, keys: service.issuedKeys, alertTokens: service.issuedAlertTokens });
  },
  "POST /faults": async (c) => {
    const body = await routeObject(c);
    const { service } = c.var;
    if (body.usage !== undefined && !(USAGE_STATES as readonly unknown[]).includes(body.usage)) throw errors.badRequest(`usage must be one of ${USAGE_STATES.join(", ")}`, "/usage");
    if (body.resolver !== undefined && body.resolver !== "up" && body.resolver !== "down") throw errors.badRequest("resolver must be up or down", "/resolver");
    if (body.usage !== undefined) service.faults.usage = body.usage === "up" ? null : (body.usage as UsageOutage);
    if (body.resolver !== undefined) service.faults.resolverDown = body.resolver === "down";
    return c.json({ faults: service.faults });
  },
  "POST /accounts/{account}": async (c) => {
    const body = await routeObject(c);
    const check = (ok: boolean, field: string, what: string) => {
      if (!ok) throw errors.badRequest(`${field} must be ${what}`, `/${field}`);
    };
    check(body.plan === undefined || typeof body.plan === "string", "plan", "a string");
    check(body.region === undefined || (typeof body.region === "string" && body.region.length > 0), "region", "a non-empty string");
    check(body.acceptanceOutstanding === undefined || typeof body.acceptanceOutstanding === "boolean", "acceptanceOutstanding", "true or false");
    check(body.allowanceMinorUnits === undefined || (Number.isInteger(body.allowanceMinorUnits) && (body.allowanceMinorUnits as number) >= 0), "allowanceMinorUnits", "a whole number, 0 or more");
    check(body.resetUsage === undefined || typeof body.resetUsage === "boolean", "resetUsage", "true or false");
    check(
      body.entitlements === undefined || (Array.isArray(body.entitlements) && body.entitlements.every((entitlement) => (ENTITLEMENTS as readonly unknown[]).includes(entitlement))),
      "entitlements",
      `an array of ${ENTITLEMENTS.join(", ")} (the whole list the account holds beyond its plan; [] takes them away)`,
    );
    return c.json({ account: c.var.service.updateAccount(param(c, "account"), body as Parameters<WorkflowsService["updateAccount"]>[1]) });
  },
  "POST /keys/{key}/revoke": async (c) => {
    await routeObject(c);
    c.var.service.revokeKey(param(c, "key"));
    return c.json({ ok: true, note: "Revoked. A key already in the credential cache keeps working until its entry is 60 seconds old." });
  },
  "POST /keys": async (c) => {
    const body = await routeObject(c);
    if (typeof body.user !== "string") throw errors.badRequest("user must be a user id", "/user");
    const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");
    if (!strings(body.scopes) || !(body.scopes as string[]).every((scope) => (SCOPES as readonly string[]).includes(scope))) throw errors.badRequest(`scopes must be an array of ${SCOPES.join(", ")}`, "/scopes");
    if (body.products !== undefined && !strings(body.products)) throw errors.badRequest("products must be an array of strings", "/products");
    if (body.ipAllowlist !== undefined && !strings(body.ipAllowlist)) throw errors.badRequest("ipAllowlist must be an array of addresses or CIDR blocks", "/ipAllowlist");
    if (body.expiresAt !== undefined && (typeof body.expiresAt !== "string" || Number.isNaN(Date.parse(body.expiresAt)))) throw errors.badRequest("expiresAt must be an ISO 8601 date and time", "/expiresAt");
    const issued = c.var.service.createKey({
      userId: body.user,
      scopes: body.scopes as string[],
      ...(body.products !== undefined ? { products: body.products as string[] } : {}),
      ...(body.ipAllowlist !== undefined ? { ipAllowlist: body.ipAllowlist as string[] } : {}),
      ...(body.expiresAt !== undefined ? { expiresAt: Date.parse(body.expiresAt as string) } : {}),
    });
    return c.json(issued, 201);
  },
  "POST /sessions": async (c) => c.json({ token: c.var.service.createSession(await userOf(c)) }, 201),
  // The reference's Get Alert Token endpoint is not shown; tokens are issued here instead.
  "POST /alert-tokens": async (c) => {
    const user = await userOf(c);
    if (!c.var.service.user(user)) throw errors.userNotFound(user);
    return c.json({ token: c.var.service.signals.createAlertToken(user) }, 201);
  },
  // Alerts that fire record their notifications here instead of sending them (nothing leaves
  // the machine): oldest first, each with the alert, the address(es), the value and when.
  "GET /notifications": (c) => {
    const notifications = c.var.service.signals.notifications();
    return c.json({ notifications, count: notifications.length });
  },
  // The reference shows an alert's `active` but no transition of it: this is one.
  "POST /alerts/{alert}": async (c) => {
    const body = await routeObject(c);
    if (typeof body.active !== "boolean") throw errors.badRequest("active must be true or false (false: the alert notifies nobody until it is made active again)", "/active");
    return c.json({ alert: c.var.service.signals.setAlertActive(param(c, "alert"), body.active) });
  },
  "POST /oauth-tokens": async (c) => c.json({ token: c.var.service.createOauthToken(await userOf(c)) }, 201),
} satisfies Record<AdminRoute, RouteHandler>;

/** `{user}`: the user a credential is issued for. */
async function userOf(c: Parameters<RouteHandler>[0]): Promise<string> {
  const body = await routeObject(c);
  if (typeof body.user !== "string") throw errors.badRequest("user must be a user id", "/user");
  return body.user;
}

export function adminApp(service: WorkflowsService): Hono<ServiceEnv> {
  return apiApp({
    service,
    table: ADMIN_ROUTES,
    base: ADMIN_PREFIX,
    tableBase: ADMIN_PREFIX,
    routes: Object.entries(HANDLERS).map(([key, handle]) => ({ ...honoRoute(key, ADMIN_PREFIX), handle: handle as RouteHandler })),
    // Its unknown paths are the app's 404 (`route_not_found`), as they always were: no 405 here.
    render: renderWorkflows,
  });
}
