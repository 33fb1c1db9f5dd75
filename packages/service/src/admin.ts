/**
 * The admin surface, for tests and CI: move the clock, reset, take the usage system or the
 * resolver down, change an account, revoke and issue credentials. Under `/__admin`, outside
 * the API; it needs the admin token (not an API credential) and answers loopback callers only
 * (and in-process callers, which have no socket).
 */
import { timingSafeEqual } from "node:crypto";
import type { Context, Hono } from "hono";
import { errors, type UsageOutage } from "./errors.js";
import type { WorkflowsService } from "./service.js";
import { clientIp, readObject } from "./request.js";
import { ENTITLEMENTS, SCOPES } from "./policy.js";

export const ADMIN_PREFIX = "/__admin";

function isLoopback(ip: string): boolean {
  return ip === "" || ip === "::1" || /^(::ffff:)?127\./.test(ip);
}

function guard(c: Context, service: WorkflowsService): void {
  if (!isLoopback(clientIp(c))) throw errors.adminForbidden("The admin surface answers loopback callers only.");
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "");
  const expected = Buffer.from(service.adminToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw errors.adminForbidden("The admin surface needs `Authorization: Bearer <admin token>` (printed by `wfkit serve` at start; API credentials do not work here).");
}

const USAGE_STATES = ["up", "credit_policy_unconfigured", "platform_unavailable"] as const;

export function adminRoutes(app: Hono, service: WorkflowsService): void {
  const post = (path: string, handle: (c: Context) => Promise<Response> | Response) =>
    app.post(`${ADMIN_PREFIX}${path}`, (c) => {
      guard(c, service);
      return handle(c);
    });

  app.get(`${ADMIN_PREFIX}/state`, (c) => {
    guard(c, service);
    return c.json({ now: new Date(service.clock.now()).toISOString(), faults: service.faults, accounts: service.accounts(), pendingTimers: service.clock.pending });
  });

  post("/clock/advance", async (c) => {
    const body = await readObject(c, ["ms"]);
    if (typeof body.ms !== "number" || !Number.isInteger(body.ms) || body.ms < 0) throw errors.badRequest("ms must be a whole number of milliseconds, 0 or more", "/ms");
    service.clock.advance(body.ms);
    return c.json({ now: new Date(service.clock.now()).toISOString() });
  });

  post("/reset", async (c) => {
    await readObject(c, [], true);
    service.reset();
    return c.json({ ok: true, keys: service.issuedKeys, alertTokens: service.issuedAlertTokens });
  });

  post("/faults", async (c) => {
    const body = await readObject(c, ["usage", "resolver"]);
    if (body.usage !== undefined && !(USAGE_STATES as readonly unknown[]).includes(body.usage)) throw errors.badRequest(`usage must be one of ${USAGE_STATES.join(", ")}`, "/usage");
    if (body.resolver !== undefined && body.resolver !== "up" && body.resolver !== "down") throw errors.badRequest("resolver must be up or down", "/resolver");
    if (body.usage !== undefined) service.faults.usage = body.usage === "up" ? null : (body.usage as UsageOutage);
    if (body.resolver !== undefined) service.faults.resolverDown = body.resolver === "down";
    return c.json({ faults: service.faults });
  });

  post("/accounts/:account", async (c) => {
    const body = await readObject(c, ["plan", "region", "acceptanceOutstanding", "allowanceMinorUnits", "resetUsage", "entitlements"]);
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
    return c.json({ account: service.updateAccount(c.req.param("account")!, body as Parameters<WorkflowsService["updateAccount"]>[1]) });
  });

  post("/keys/:key/revoke", async (c) => {
    await readObject(c, [], true);
    service.revokeKey(c.req.param("key")!);
    return c.json({ ok: true, note: "Revoked. A key already in the credential cache keeps working until its entry is 60 seconds old." });
  });

  post("/keys", async (c) => {
    const body = await readObject(c, ["user", "scopes", "products", "expiresAt", "ipAllowlist"]);
    if (typeof body.user !== "string") throw errors.badRequest("user must be a user id", "/user");
    const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");
    if (!strings(body.scopes) || !(body.scopes as string[]).every((scope) => (SCOPES as readonly string[]).includes(scope))) throw errors.badRequest(`scopes must be an array of ${SCOPES.join(", ")}`, "/scopes");
    if (body.products !== undefined && !strings(body.products)) throw errors.badRequest("products must be an array of strings", "/products");
    if (body.ipAllowlist !== undefined && !strings(body.ipAllowlist)) throw errors.badRequest("ipAllowlist must be an array of addresses or CIDR blocks", "/ipAllowlist");
    if (body.expiresAt !== undefined && (typeof body.expiresAt !== "string" || Number.isNaN(Date.parse(body.expiresAt)))) throw errors.badRequest("expiresAt must be an ISO 8601 date and time", "/expiresAt");
    const issued = service.createKey({
      userId: body.user,
      scopes: body.scopes as string[],
      ...(body.products !== undefined ? { products: body.products as string[] } : {}),
      ...(body.ipAllowlist !== undefined ? { ipAllowlist: body.ipAllowlist as string[] } : {}),
      ...(body.expiresAt !== undefined ? { expiresAt: Date.parse(body.expiresAt as string) } : {}),
    });
    return c.json(issued, 201);
  });

  post("/sessions", async (c) => {
    const body = await readObject(c, ["user"]);
    if (typeof body.user !== "string") throw errors.badRequest("user must be a user id", "/user");
    return c.json({ token: service.createSession(body.user) }, 201);
  });

  // The reference's Get Alert Token endpoint is not shown; tokens are issued here instead.
  post("/alert-tokens", async (c) => {
    const body = await readObject(c, ["user"]);
    if (typeof body.user !== "string") throw errors.badRequest("user must be a user id", "/user");
    if (!service.user(body.user)) throw errors.userNotFound(body.user);
    return c.json({ token: service.signals.createAlertToken(body.user) }, 201);
  });

  // Alerts that fire record their notifications here instead of sending them (nothing leaves
  // the machine): oldest first, each with the alert, the address(es), the value and when.
  app.get(`${ADMIN_PREFIX}/notifications`, (c) => {
    guard(c, service);
    const notifications = service.signals.notifications();
    return c.json({ notifications, count: notifications.length });
  });

  // The reference shows an alert's `active` but no transition of it: this is one.
  post("/alerts/:alert", async (c) => {
    const body = await readObject(c, ["active"]);
    if (typeof body.active !== "boolean") throw errors.badRequest("active must be true or false (false: the alert notifies nobody until it is made active again)", "/active");
    return c.json({ alert: service.signals.setAlertActive(c.req.param("alert")!, body.active) });
  });

  post("/oauth-tokens", async (c) => {
    const body = await readObject(c, ["user"]);
    if (typeof body.user !== "string") throw errors.badRequest("user must be a user id", "/user");
    return c.json({ token: service.createOauthToken(body.user) }, 201);
  });
}
