/**
 * Seeding and identity: accounts, organisations, users and their credentials, as the seed makes
 * them (at first start and on reset, with the same secrets) and as the admin surface changes
 * them (plans, usage resets, keys, OAuth tokens, sessions).
 */
import { randomBytes } from "node:crypto";
import { formatApiKey, newSecret, sha256, validIpAllowlistEntry, type Authenticator } from "./auth.js";
import type { Clock } from "./clock.js";
import { ApiError, errors } from "./errors.js";
import type { Seed } from "./files.js";
import { PLAN_NAMES, RESEARCH_PRODUCT, planHas, statesIn, type PlanName } from "./policy.js";
import { ACCOUNT_COLUMNS, accountOf, userOf, type Account, type User } from "./rows.js";
import { SignalsService } from "./signals/service.js";
import type { Store } from "./store.js";

/** A Consumer Signals alert token as issued (shown once, like a key). */
export interface IssuedAlertToken {
  user: string;
  token: string;
}

/** A key as issued: the full secret is shown here once and never again. */
export interface IssuedKey {
  id: string;
  key: string;
  role?: "read" | "write";
}

export interface AccountChange {
  plan?: string;
  region?: string;
  acceptanceOutstanding?: boolean;
  allowanceMinorUnits?: number;
  resetUsage?: boolean;
  entitlements?: string[];
}

const OPEN_STATES = statesIn("open");

export class Accounts {
  /** The keys the seed made, with their secrets (kept so that a reset makes the same keys). */
  issuedKeys: IssuedKey[] = [];
  /** The alert tokens the seed made, in its order (kept, like the keys, for a reset). */
  issuedAlertTokens: IssuedAlertToken[] = [];
  private readonly seedSecrets = new Map<string, string>();
  private readonly seedAlertTokens = new Map<number, string>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly auth: Authenticator,
    private readonly signals: SignalsService,
    private readonly seed: Seed,
  ) {}

  // ---- identity -------------------------------------------------------------------------

  /** Read on every authenticated request; users change only with the seed and a reset. */
  user(id: string): User | undefined {
    return this.store.remembered(`user ${id}`, ["users"], () => {
      const row = this.store.get("SELECT id, account_id, organisation_id FROM users WHERE id = ?", [id]);
      return row && Object.freeze(userOf(row));
    });
  }

  account(id: string): Account | undefined {
    const row = this.store.get(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`, [id]);
    return row && accountOf(row);
  }

  /** The account a user belongs to, read now (its usage changes with every run), or undefined for an unknown user. */
  accountOf(userId: string): Account | undefined {
    const user = this.user(userId);
    return user && this.account(user.accountId);
  }

  accounts(): Account[] {
    return this.store.all(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY id`).map(accountOf);
  }

  // ---- the seed ---------------------------------------------------------------------------

  /** True when the database holds no account yet: a first start. */
  empty(): boolean {
    return this.store.get("SELECT id FROM accounts LIMIT 1") === undefined;
  }

  /** Applies the seed, accounts with their `entitlements` (at first start and on reset), in one transaction. */
  applySeed(): void {
    const seed = this.seed;
    const now = this.clock.now();
    const issued: IssuedKey[] = [];
    const issuedAlertTokens: IssuedAlertToken[] = [];
    this.store.transaction(() => {
      for (const account of seed.accounts)
        this.store.run("INSERT INTO accounts (id, plan, region, acceptance_outstanding, allowance_minor_units, entitlements) VALUES (?, ?, ?, ?, ?, ?)", [
          account.id,
          account.plan,
          account.region ?? "eu",
          account.acceptanceOutstanding ? 1 : 0,
          account.allowanceMinorUnits ?? 100_000,
          JSON.stringify(account.entitlements ?? []),
        ]);
      for (const organisation of seed.organisations ?? []) this.store.run("INSERT INTO organisations (id, name) VALUES (?, ?)", [organisation.id, organisation.name ?? organisation.id]);
      for (const user of seed.users) this.store.run("INSERT INTO users (id, account_id, organisation_id, name) VALUES (?, ?, ?, ?)", [user.id, user.account, user.organisation ?? null, user.name ?? user.id]);
      for (const key of seed.apiKeys ?? []) {
        const secret = key.secret ?? this.seedSecrets.get(key.id) ?? newSecret();
        this.seedSecrets.set(key.id, secret);
        this.insertKey(key.id, secret, key.user, key.products ?? [RESEARCH_PRODUCT], key.scopes, key.expiresAt ? Date.parse(key.expiresAt) : null, key.ipAllowlist ?? [], key.id, now);
        issued.push({ id: key.id, key: formatApiKey(key.id, secret), ...(key.role ? { role: key.role } : {}) });
      }
      for (const token of seed.oauthTokens ?? []) this.store.run("INSERT INTO oauth_tokens (token_hash, user_id) VALUES (?, ?)", [sha256(token.token), token.user]);
      (seed.alertTokens ?? []).forEach((entry, i) => {
        const token = entry.token ?? this.seedAlertTokens.get(i) ?? SignalsService.newAlertToken();
        this.seedAlertTokens.set(i, token);
        this.signals.insertAlertToken(entry.user, token);
        issuedAlertTokens.push({ user: entry.user, token });
      });
    });
    this.issuedKeys = issued;
    this.issuedAlertTokens = issuedAlertTokens;
  }

  /**
   * A service reopened on a database seeded earlier: keys with a fixed secret in the seed are
   * known again; random secrets were shown at the first start only (only their hash is kept).
   */
  recallSeededKeys(): void {
    this.issuedKeys = (this.seed.apiKeys ?? [])
      .filter((key) => key.secret !== undefined && this.store.get("SELECT id FROM api_keys WHERE id = ?", [key.id]))
      .map((key) => ({ id: key.id, key: formatApiKey(key.id, key.secret!), ...(key.role ? { role: key.role } : {}) }));
    this.issuedAlertTokens = (this.seed.alertTokens ?? [])
      .filter((entry) => entry.token !== undefined && this.signals.hasAlertToken(entry.token))
      .map((entry) => ({ user: entry.user, token: entry.token! }));
  }

  /**
   * What `wfkit serve --json` reports for the Consumer Signals API: the seed's first alert
   * token (null when its random secret was shown at an earlier start) and a new JWT for that
   * token's user (else the seed's first user), so the two credentials are one user's.
   */
  signalsCredentials(): { jwt: string | null; alertToken: string | null } {
    const first = this.seed.alertTokens?.[0];
    const userId = first?.user ?? this.seed.users[0]?.id;
    const alertToken = this.seedAlertTokens.get(0) ?? (first?.token !== undefined && this.signals.hasAlertToken(first.token) ? first.token : null);
    return { jwt: userId !== undefined && this.user(userId) ? this.auth.issueSession(userId) : null, alertToken };
  }

  private insertKey(id: string, secret: string, userId: string, products: string[], scopes: string[], expiresAt: number | null, ipAllowlist: string[], label: string, now: number): void {
    this.store.run("INSERT INTO api_keys (id, secret_hash, user_id, label, products, scopes, expires_at, ip_allowlist, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
      id,
      sha256(secret),
      userId,
      label,
      JSON.stringify(products),
      JSON.stringify(scopes),
      expiresAt,
      JSON.stringify(ipAllowlist),
      now,
    ]);
  }

  // ---- the admin surface's changes ------------------------------------------------------------

  updateAccount(id: string, change: AccountChange): Account {
    if (!this.account(id)) throw new ApiError(404, { error: "account_not_found", message: `There is no account ${id} (accounts: ${this.accounts().map((a) => a.id).join(", ")}).` });
    if (change.plan !== undefined && !PLAN_NAMES.includes(change.plan as PlanName)) throw errors.badRequest(`plan must be one of ${PLAN_NAMES.join(", ")}`, "/plan");
    this.store.transaction(() => {
      if (change.plan !== undefined) this.store.run("UPDATE accounts SET plan = ?, used_minor_units = 0 WHERE id = ?", [change.plan, id]);
      if (change.region !== undefined) this.store.run("UPDATE accounts SET region = ? WHERE id = ?", [change.region, id]);
      if (change.acceptanceOutstanding !== undefined) this.store.run("UPDATE accounts SET acceptance_outstanding = ? WHERE id = ?", [change.acceptanceOutstanding ? 1 : 0, id]);
      if (change.allowanceMinorUnits !== undefined) this.store.run("UPDATE accounts SET allowance_minor_units = ? WHERE id = ?", [change.allowanceMinorUnits, id]);
      if (change.entitlements !== undefined) this.store.run("UPDATE accounts SET entitlements = ? WHERE id = ?", [JSON.stringify([...new Set(change.entitlements)]), id]);
      // A reset clears what finished runs drew; open runs keep their reservations.
      if (change.resetUsage)
        this.store.run(
          `UPDATE accounts SET used_minor_units = (SELECT COALESCE(SUM(reserved_minor_units - drawn_minor_units), 0) FROM runs WHERE account_id = ? AND state IN (${OPEN_STATES.map(() => "?").join(", ")})) WHERE id = ?`,
          [id, ...OPEN_STATES, id],
        );
    });
    return this.account(id)!;
  }

  revokeKey(keyId: string): void {
    if (!this.store.get("SELECT id FROM api_keys WHERE id = ?", [keyId])) throw new ApiError(404, { error: "key_not_found", message: `There is no API key ${keyId}.` });
    this.store.transaction(() => this.store.run("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [this.clock.now(), keyId]));
  }

  /** A new API key; refused for an account whose plan has no API access (it cannot create keys). */
  createKey(request: { userId: string; scopes: string[]; products?: string[]; expiresAt?: number | null; ipAllowlist?: string[] }): IssuedKey {
    const user = this.user(request.userId);
    if (!user) throw errors.userNotFound(request.userId);
    const account = this.account(user.accountId)!;
    if (!planHas(account.plan, "workflows_api")) throw errors.planRequired("workflows_api", account.plan);
    const bad = (request.ipAllowlist ?? []).find((entry) => !validIpAllowlistEntry(entry));
    if (bad !== undefined) throw errors.badRequest(`ipAllowlist entry \`${bad}\` is not an address or a CIDR block`, "/ipAllowlist");
    const id = randomBytes(6).toString("hex");
    const secret = newSecret();
    this.store.transaction(() =>
      this.insertKey(id, secret, user.id, request.products ?? [RESEARCH_PRODUCT], request.scopes, request.expiresAt ?? null, request.ipAllowlist ?? [], id, this.clock.now()),
    );
    return { id, key: formatApiKey(id, secret) };
  }

  createOauthToken(userId: string): string {
    if (!this.user(userId)) throw errors.userNotFound(userId);
    const token = `wfo_${newSecret()}`;
    this.store.transaction(() => this.store.run("INSERT INTO oauth_tokens (token_hash, user_id) VALUES (?, ?)", [sha256(token), userId]));
    return token;
  }

  createSession(userId: string): string {
    if (!this.user(userId)) throw errors.userNotFound(userId);
    return this.auth.issueSession(userId);
  }
}
