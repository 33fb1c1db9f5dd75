/**
 * Credentials: API keys, session JWTs and OAuth access tokens, resolved to a caller.
 *
 * A resolved credential is cached for `LIMITS.credentialCacheMs` on the service clock, as the
 * identity service's cache does: a key revoked in the database keeps working until its cache
 * entry is older than the TTL. Expiry and the IP allowlist are checked on every request
 * (they are facts of the cached key, not of the database). Unknown credentials are never
 * cached, so a key made a moment ago works at once.
 *
 * At its end, the middleware each route of the service is registered behind (`authenticate`),
 * chosen by the credential the route's row in @wfkit/api's contract names.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { BlockList, isIP } from "node:net";
import type { Auth } from "@wfkit/api";
import type { Context, MiddlewareHandler } from "hono";
import type { ServiceEnv } from "./api-app.js";
import type { Clock } from "./clock.js";
import { errors } from "./errors.js";
import { API_KEY_PREFIX, LIMITS, OAUTH_TOKEN_PREFIX, planHas, RESEARCH_PRODUCT, scopesGrant, WORKFLOWS_REGIONS, type Scope } from "./policy.js";
import { clientIp } from "./request.js";
import type { WorkflowsService } from "./service.js";
import { signalsErrors } from "./signals/errors.js";
import type { Store } from "./store.js";

/** Why a credential is not accepted: a sentence without its full stop, for a 401's message. */
export class CredentialRefused extends Error {}

export type CredentialKind = "api_key" | "session" | "oauth";

export interface Caller {
  kind: CredentialKind;
  userId: string;
  /** The API key's id, for keys. */
  keyId?: string;
  /** Scopes limit API keys only; null for sessions and OAuth tokens. */
  scopes: readonly string[] | null;
  products: readonly string[] | null;
}

interface ResolvedCredential extends Caller {
  expiresAt: number | null;
  ipAllowlist: readonly string[];
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function newSecret(): string {
  return randomBytes(24).toString("base64url").replace(/[-_]/g, "x");
}

export function formatApiKey(keyId: string, secret: string): string {
  return `${API_KEY_PREFIX}${keyId}_${secret}`;
}

export class Authenticator {
  private readonly cache = new Map<string, { resolved: ResolvedCredential; at: number }>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly sessionSecret: string,
  ) {}

  /** The caller behind an Authorization header, or a 401 / 403 ApiError. */
  authenticate(header: string | undefined, clientIp: string): Caller {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
    if (!header) throw errors.unauthenticated("No credential was sent");
    if (!match) throw errors.unauthenticated("The Authorization header is not `Bearer <credential>`");
    try {
      return this.caller(match[1]!, clientIp);
    } catch (error) {
      if (error instanceof CredentialRefused) throw errors.unauthenticated(error.message);
      throw error;
    }
  }

  /**
   * The caller behind a credential (without its `Bearer`): a `CredentialRefused` says why
   * not, so each API words its own 401 (the Consumer Signals side answers in its shape).
   */
  caller(credential: string, clientIp: string): Caller {
    const cacheKey = sha256(credential);
    const now = this.clock.now();
    let entry = this.cache.get(cacheKey);
    if (!entry || now - entry.at >= LIMITS.credentialCacheMs) {
      this.cache.delete(cacheKey);
      const resolved = this.resolve(credential, now);
      entry = { resolved, at: now };
      this.cache.set(cacheKey, entry);
    }
    const { resolved } = entry;
    if (resolved.expiresAt !== null && now >= resolved.expiresAt) throw new CredentialRefused(`The ${describeKind(resolved.kind)} expired at ${new Date(resolved.expiresAt).toISOString()}`);
    if (resolved.ipAllowlist.length && !ipAllowed(resolved.ipAllowlist, clientIp)) throw errors.ipNotAllowed(clientIp);
    return resolved;
  }

  /** Forgets every cached credential (admin reset). */
  clearCache(): void {
    this.cache.clear();
  }

  issueSession(userId: string, ttlMs: number = LIMITS.sessionTtlMs): string {
    const now = this.clock.now();
    const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
    const payload = base64url(JSON.stringify({ sub: userId, typ: "session", iat: Math.floor(now / 1000), exp: Math.floor((now + ttlMs) / 1000) }));
    return `${header}.${payload}.${this.sign(`${header}.${payload}`)}`;
  }

  private sign(text: string): string {
    return createHmac("sha256", this.sessionSecret).update(text).digest("base64url");
  }

  private resolve(credential: string, now: number): ResolvedCredential {
    if (credential.startsWith(API_KEY_PREFIX)) return this.resolveKey(credential);
    if (credential.startsWith(OAUTH_TOKEN_PREFIX)) return this.resolveOauth(credential);
    if (credential.split(".").length === 3) return this.resolveSession(credential, now);
    throw new CredentialRefused("The credential is not an API key, a session token or an OAuth access token this service issued");
  }

  private resolveKey(credential: string): ResolvedCredential {
    const match = /^wfk_([a-z0-9]{1,32})_([A-Za-z0-9]+)$/.exec(credential);
    const row = match ? this.store.get("SELECT * FROM api_keys WHERE id = ?", [match[1]!]) : undefined;
    if (!match || !row || !hashesEqual(sha256(match[2]!), String(row.secret_hash))) throw new CredentialRefused("The API key is unknown");
    if (row.revoked_at !== null) throw new CredentialRefused("The API key was revoked");
    return {
      kind: "api_key",
      keyId: String(row.id),
      userId: String(row.user_id),
      scopes: JSON.parse(String(row.scopes)) as string[],
      products: JSON.parse(String(row.products)) as string[],
      expiresAt: row.expires_at === null ? null : Number(row.expires_at),
      ipAllowlist: JSON.parse(String(row.ip_allowlist)) as string[],
    };
  }

  private resolveOauth(credential: string): ResolvedCredential {
    const row = this.store.get("SELECT * FROM oauth_tokens WHERE token_hash = ?", [sha256(credential)]);
    if (!row) throw new CredentialRefused("The OAuth access token is unknown");
    if (row.revoked_at !== null) throw new CredentialRefused("The OAuth access token was revoked");
    return { kind: "oauth", userId: String(row.user_id), scopes: null, products: null, expiresAt: row.expires_at === null ? null : Number(row.expires_at), ipAllowlist: [] };
  }

  private resolveSession(token: string, now: number): ResolvedCredential {
    const [header, payload, signature] = token.split(".") as [string, string, string];
    if (!hashesEqual(this.sign(`${header}.${payload}`), signature)) throw new CredentialRefused("The session token's signature does not match this service");
    let claims: { sub?: unknown; exp?: unknown; typ?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as typeof claims;
    } catch {
      throw new CredentialRefused("The session token's payload is not JSON");
    }
    if (typeof claims.sub !== "string" || typeof claims.exp !== "number" || claims.typ !== "session") throw new CredentialRefused("The session token lacks its subject or expiry");
    if (!this.store.get("SELECT id FROM users WHERE id = ?", [claims.sub])) throw new CredentialRefused("The session token's user no longer exists");
    if (claims.exp * 1000 <= now) throw new CredentialRefused("The session token expired");
    return { kind: "session", userId: claims.sub, scopes: null, products: null, expiresAt: claims.exp * 1000, ipAllowlist: [] };
  }
}

function describeKind(kind: CredentialKind): string {
  return kind === "api_key" ? "API key" : kind === "session" ? "session token" : "OAuth access token";
}

function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/** Plain addresses, or CIDR blocks, IPv4 or IPv6; an IPv4-mapped IPv6 address counts as IPv4. */
export function ipAllowed(allowlist: readonly string[], clientIp: string): boolean {
  const address = clientIp.startsWith("::ffff:") && isIP(clientIp.slice(7)) === 4 ? clientIp.slice(7) : clientIp;
  const family = isIP(address);
  if (!family) return false;
  const list = new BlockList();
  for (const entry of allowlist) {
    const [base, bits] = entry.split("/");
    const entryFamily = isIP(base ?? "");
    if (!entryFamily) continue;
    const type = entryFamily === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(base!, type);
    else list.addSubnet(base!, Number(bits), type);
  }
  return list.check(address, family === 4 ? "ipv4" : "ipv6");
}

export function validIpAllowlistEntry(entry: string): boolean {
  const [base, bits, extra] = entry.split("/");
  const family = isIP(base ?? "");
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

// ---- the middleware in front of each route, by the credential its row in the contract names ----

/**
 * Who is calling a Workflows API route and whether they may: credential, product, plan,
 * region, scope, then an outstanding acceptance. The order is the order a client can fix them in.
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

function isLoopback(ip: string): boolean {
  return ip === "" || ip === "::1" || /^(::ffff:)?127\./.test(ip);
}

/** The admin surface answers loopback callers (and in-process ones, which have no socket) with the admin token only. */
function guardAdmin(c: Context, service: WorkflowsService): void {
  if (!isLoopback(clientIp(c))) throw errors.adminForbidden("The admin surface answers loopback callers only.");
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "");
  const expected = Buffer.from(service.adminToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw errors.adminForbidden("The admin surface needs `Authorization: Bearer <admin token>` (printed by `wfkit serve` at start; API credentials do not work here).");
}

/**
 * The middleware that lets a request through to its route, by the credential the route's row
 * in the contract names (`Auth`): it puts the caller in `c.var`, or throws the API's refusal.
 * An AI endpoint also takes one request from the user's share of the shared limit (a 429 when
 * it is used up) and answers with the limit's headers.
 */
export function authenticate(auth: Auth): MiddlewareHandler<ServiceEnv> {
  switch (auth) {
    case "read:workflows":
    case "write:workflows":
      return async (c, next) => {
        c.set("caller", authorize(c, c.var.service, auth));
        await next();
      };
    case "jwt":
    case "jwt+ai_limit":
      return async (c, next) => {
        const { signals } = c.var.service;
        const caller = signals.jwtCaller(c.req.header("Authorization"), clientIp(c));
        if (auth === "jwt+ai_limit") {
          const decision = signals.limiter.take(caller.userId);
          if (!decision.allowed) {
            const { max, windowMs } = signals.limiter.limit;
            throw signalsErrors.rateLimited(decision.retryAfterSeconds, { max, windowSeconds: windowMs / 1000 }, decision.headers);
          }
          for (const [name, value] of Object.entries(decision.headers)) c.header(name, value);
        }
        c.set("signalsCaller", caller);
        await next();
      };
    case "alert_token":
      return async (c, next) => {
        c.set("signalsCaller", c.var.service.signals.alertTokenCaller(c.req.header("X-Alert-Token")));
        await next();
      };
    case "admin":
      return async (c, next) => {
        guardAdmin(c, c.var.service);
        await next();
      };
  }
}
