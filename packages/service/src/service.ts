/**
 * The Workflows service's state and rules, apart from HTTP: workflows, versions, runs,
 * reservations, idempotency, the fault switches of the admin surface. Every change is one
 * store transaction, made synchronously: requests are served one at a time between awaits,
 * so a check and the write that depends on it (an idempotency key, an allowance) can never
 * interleave with another request's.
 */
import { randomBytes } from "node:crypto";
import { defaultCatalogue, validateDefinition, type Catalogue, type CatalogueSubject, type Estimate } from "@wfkit/core";
import { Authenticator, formatApiKey, newSecret, sha256, validIpAllowlistEntry } from "./auth.js";
import { Clock } from "./clock.js";
import { ApiError, errors, type UsageOutage } from "./errors.js";
import { DEFAULT_SEED, type MockFile, type Seed } from "./files.js";
import { LIMITS, PLAN_NAMES, RESEARCH_PRODUCT, RUN_HOST, planHas, statesIn, type PlanName, type RunFilter, type RunState } from "./policy.js";
import { mockResponseFor, OPEN_NODE_STATES, partDelayMs, planRun, subjectFailure, subjectsOf, type RunNode } from "./runs.js";
import { Store, type Row } from "./store.js";
import type { CreateWorkflowResponse, PartsResponse, PublishResponse, ResolveSubjectsResponse, Run, RunChangeResponse, RunListResponse, RunSummary, SaveVersionResponse, ValidateDefinitionResponse } from "@wfkit/client";
import { resolveHints } from "./subjects.js";
import { SIGNALS_TABLES, SignalsService } from "./signals/service.js";
import { DEFAULT_AI_LIMIT, type AiLimit } from "./signals/policy.js";

export interface ServiceOptions {
  /** The database file; in memory when absent. */
  db?: string;
  seed?: Seed;
  catalogue?: Catalogue;
  mocks?: MockFile;
  clock?: Clock;
  /** The admin surface's token; a random one when absent. */
  adminToken?: string;
  /** The Consumer Signals AI endpoints' shared limit per user (default 10 per 60 s). */
  signalsAiLimit?: AiLimit;
}

export interface Account {
  id: string;
  plan: string;
  region: string;
  acceptanceOutstanding: boolean;
  allowanceMinorUnits: number;
  usedMinorUnits: number;
  /** Entitlements beyond the plan's features (`anya`). */
  entitlements: string[];
}

export interface User {
  id: string;
  accountId: string;
  organisationId: string | null;
}

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

export interface Faults {
  usage: UsageOutage | null;
  resolverDown: boolean;
}

const ISO = (ms: number) => new Date(ms).toISOString();
const OPEN_STATES = statesIn("open");
const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;

export class WorkflowsService {
  readonly clock: Clock;
  readonly catalogue: Catalogue;
  readonly mocks: MockFile;
  readonly adminToken: string;
  readonly auth: Authenticator;
  readonly faults: Faults = { usage: null, resolverDown: false };
  /** The keys the seed made, with their secrets (kept so that a reset makes the same keys). */
  issuedKeys: IssuedKey[] = [];
  /** The alert tokens the seed made, in its order (kept, like the keys, for a reset). */
  issuedAlertTokens: IssuedAlertToken[] = [];
  /** The Consumer Signals API: alerts, views, alert tokens, the AI limit. */
  readonly signals: SignalsService;
  private readonly seed: Seed;
  private readonly seedSecrets = new Map<string, string>();
  private readonly seedAlertTokens = new Map<number, string>();

  private constructor(
    readonly store: Store,
    options: ServiceOptions,
  ) {
    this.clock = options.clock ?? new Clock("real");
    this.catalogue = options.catalogue ?? defaultCatalogue;
    this.mocks = options.mocks ?? {};
    this.seed = options.seed ?? DEFAULT_SEED;
    this.adminToken = options.adminToken ?? `wfa_${newSecret()}`;
    this.auth = new Authenticator(store, this.clock, this.sessionSecret());
    this.signals = new SignalsService(store, this.clock, this.auth, options.signalsAiLimit ?? DEFAULT_AI_LIMIT);
  }

  static async create(options: ServiceOptions = {}): Promise<WorkflowsService> {
    const store = await Store.open(options.db);
    const service = new WorkflowsService(store, options);
    if (!store.get("SELECT id FROM accounts LIMIT 1")) {
      service.applySeed();
      service.grantSeedEntitlements();
    } else service.recallSeededKeys();
    service.resumeOpenRuns();
    service.signals.startAlertClock();
    return service;
  }

  close(): void {
    this.clock.clear();
    this.store.close();
  }

  // ---- identity -------------------------------------------------------------------------

  /**
   * The key that signs session JWTs: random for each process and kept in memory only, so no
   * file holds it (a hash could not check a signature) and a service's sessions end when it
   * stops; each start prints a new JWT, and `POST /__admin/sessions` makes more.
   */
  private sessionSecret(): string {
    return randomBytes(32).toString("hex");
  }

  user(id: string): User | undefined {
    const row = this.store.get("SELECT * FROM users WHERE id = ?", [id]);
    return row && { id: String(row.id), accountId: String(row.account_id), organisationId: row.organisation_id === null ? null : String(row.organisation_id) };
  }

  account(id: string): Account | undefined {
    const row = this.store.get("SELECT * FROM accounts WHERE id = ?", [id]);
    return row && toAccount(row);
  }

  accounts(): Account[] {
    return this.store.all("SELECT * FROM accounts ORDER BY id").map(toAccount);
  }

  private applySeed(): void {
    const seed = this.seed;
    const now = this.clock.now();
    const issued: IssuedKey[] = [];
    const issuedAlertTokens: IssuedAlertToken[] = [];
    this.store.transaction(() => {
      for (const account of seed.accounts)
        this.store.run("INSERT INTO accounts (id, plan, region, acceptance_outstanding, allowance_minor_units) VALUES (?, ?, ?, ?, ?)", [
          account.id,
          account.plan,
          account.region ?? "eu",
          account.acceptanceOutstanding ? 1 : 0,
          account.allowanceMinorUnits ?? 100_000,
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
  private recallSeededKeys(): void {
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

  // ---- catalogue ------------------------------------------------------------------------

  parts(unattendedSafeOnly: boolean): PartsResponse {
    return { catalogueVersion: 1, parts: this.catalogue.parts.filter((part) => !unattendedSafeOnly || part.unattendedSafe) };
  }

  resolveSubjects(hints: readonly string[]): ResolveSubjectsResponse {
    return resolveHints(hints, this.catalogue.subjects ?? [], !this.faults.resolverDown);
  }

  /** validate-definition: the checker's verdict, with the service's catalogue. */
  validate(definition: unknown): ValidateDefinitionResponse {
    const result = validateDefinition(definition, { catalogue: this.catalogue });
    if (!result.ok) throw errors.validation(result.faults);
    return { ok: true, definition, estimate: result.estimate, warnings: result.faults };
  }

  // ---- workflows and versions --------------------------------------------------------------

  createWorkflow(userId: string, name: string): CreateWorkflowResponse {
    const id = newId("wf");
    this.store.transaction(() => this.store.run("INSERT INTO workflows (id, name, owner_user_id, created_at) VALUES (?, ?, ?, ?)", [id, name, userId, this.clock.now()]));
    return { workflow: { id, name } };
  }

  /** The workflow if the caller may see it (its owner, or a member of the owner's organisation). */
  visibleWorkflow(userId: string, workflowId: string): Row {
    const row = this.store.get("SELECT w.*, u.organisation_id FROM workflows w JOIN users u ON u.id = w.owner_user_id WHERE w.id = ?", [workflowId]);
    const caller = this.user(userId);
    if (!row || !caller) throw errors.workflowNotFound(workflowId);
    const sameOrganisation = caller.organisationId !== null && caller.organisationId === row.organisation_id;
    if (row.owner_user_id !== userId && !sameOrganisation) throw errors.workflowNotFound(workflowId);
    return row;
  }

  ownedWorkflow(userId: string, workflowId: string, action: string): Row {
    const row = this.visibleWorkflow(userId, workflowId);
    if (row.owner_user_id !== userId) throw errors.notOwner(action);
    return row;
  }

  saveVersion(userId: string, workflowId: string, body: unknown): SaveVersionResponse {
    this.ownedWorkflow(userId, workflowId, "save versions");
    const result = validateDefinition(body, { catalogue: this.catalogue });
    if (!result.ok) throw errors.validation(result.faults);
    const id = newId("ver");
    const now = this.clock.now();
    this.store.transaction(() =>
      this.store.run("INSERT INTO versions (id, workflow_id, body, estimate, created_at) VALUES (?, ?, ?, ?, ?)", [id, workflowId, JSON.stringify(body), JSON.stringify(result.estimate), now]),
    );
    return { version: { id, workflowId, published: false, estimate: result.estimate, createdAt: ISO(now) } };
  }

  publish(userId: string, workflowId: string, versionId: string): PublishResponse {
    this.ownedWorkflow(userId, workflowId, "publish versions");
    const version = this.store.get("SELECT id, published_at FROM versions WHERE id = ? AND workflow_id = ?", [versionId, workflowId]);
    if (!version) throw errors.versionNotFound(versionId);
    const now = this.clock.now();
    this.store.transaction(() => {
      this.store.run("UPDATE versions SET published_at = ? WHERE id = ?", [now, versionId]);
      this.store.run("UPDATE workflows SET published_version_id = ? WHERE id = ?", [versionId, workflowId]);
    });
    return { ok: true, workflow: { id: workflowId, publishedVersionId: versionId }, version: { id: versionId, published: true, publishedAt: ISO(now) } };
  }

  // ---- runs -------------------------------------------------------------------------------

  /**
   * Starts a run of the published version, reserving its estimate. With an idempotency key,
   * a request seen before gets the original answer (`replayed`), and the same key with another
   * request is refused. Only a started run is remembered: a refusal (no allowance, usage
   * system down) can be retried with the same key once its cause is gone.
   */
  startRun(userId: string, workflowId: string, request: { question?: string; mockCase: string; idempotencyKey?: string }): { status: number; body: unknown; replayed: boolean } {
    const workflow = this.ownedWorkflow(userId, workflowId, "run it");
    const now = this.clock.now();
    const fingerprint = sha256(JSON.stringify([workflowId, request.question ?? null, request.mockCase]));
    const key = request.idempotencyKey;
    if (key !== undefined) {
      const seen = this.store.get("SELECT * FROM idempotency_keys WHERE caller = ? AND key = ?", [userId, key]);
      if (seen && Number(seen.created_at) + LIMITS.idempotencyRetentionMs > now) {
        if (seen.fingerprint !== fingerprint) throw errors.idempotencyKeyReused();
        return { status: Number(seen.status), body: JSON.parse(String(seen.response)), replayed: true };
      }
    }
    if (workflow.published_version_id === null) throw errors.noPublishedVersion(workflowId);
    const cases = this.mocks.cases ?? {};
    if (request.mockCase !== "default" && !Object.hasOwn(cases, request.mockCase)) throw errors.unknownMockCase(request.mockCase, Object.keys(cases));
    if (this.faults.usage) throw errors.usageUnavailable(this.faults.usage);
    const version = this.store.get("SELECT * FROM versions WHERE id = ?", [String(workflow.published_version_id)])!;
    const estimate = JSON.parse(String(version.estimate)) as Estimate;
    const user = this.user(userId)!;
    const account = this.account(user.accountId)!;
    const available = account.allowanceMinorUnits - account.usedMinorUnits;
    if (estimate.costMinorUnits > available) throw errors.allowanceExhausted(estimate.costMinorUnits, Math.max(0, available));
    const runId = newId("run");
    const body = { ok: true, runId, host: RUN_HOST, estimate: { costMinorUnits: estimate.costMinorUnits } };
    const nodes = planRun(JSON.parse(String(version.body)), estimate);
    this.store.transaction(() => {
      this.store.run("UPDATE accounts SET used_minor_units = used_minor_units + ? WHERE id = ?", [estimate.costMinorUnits, account.id]);
      this.store.run(
        "INSERT INTO runs (id, workflow_id, version_id, owner_user_id, account_id, state, question, mock_case, reserved_minor_units, nodes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)",
        [runId, workflowId, String(version.id), userId, account.id, request.question ?? null, request.mockCase, estimate.costMinorUnits, JSON.stringify(nodes), now, now],
      );
      if (key !== undefined)
        this.store.run("INSERT OR REPLACE INTO idempotency_keys (caller, key, fingerprint, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?)", [userId, key, fingerprint, 200, JSON.stringify(body), now]);
    });
    this.clock.schedule(0, () => this.advance(runId));
    return { status: 200, body, replayed: false };
  }

  run(userId: string, workflowId: string, runId: string): Run {
    this.visibleWorkflow(userId, workflowId);
    return presentRun(this.runRow(workflowId, runId));
  }

  workflowRuns(userId: string, workflowId: string): RunListResponse {
    this.visibleWorkflow(userId, workflowId);
    return { runs: this.store.all("SELECT * FROM runs WHERE workflow_id = ? ORDER BY created_at DESC, id", [workflowId]).map(summariseRun) };
  }

  ownedRuns(userId: string, filter: RunFilter): RunListResponse {
    const states = statesIn(filter);
    const rows = this.store.all(
      `SELECT r.* FROM runs r JOIN workflows w ON w.id = r.workflow_id WHERE w.owner_user_id = ? AND r.state IN (${states.map(() => "?").join(", ")}) ORDER BY r.created_at DESC, r.id`,
      [userId, ...states],
    );
    return { runs: rows.map(summariseRun) };
  }

  deliver(userId: string, workflowId: string, runId: string): RunChangeResponse {
    this.ownedWorkflow(userId, workflowId, "deliver its runs");
    const row = this.runRow(workflowId, runId);
    if (row.state !== "held") throw errors.runNotHeld(runId, String(row.state));
    const nodes = JSON.parse(String(row.nodes)) as RunNode[];
    const now = this.clock.now();
    for (const node of nodes)
      if (node.state === "held") Object.assign(node, { state: "passed", delivered: true, finishedAt: ISO(now) });
    this.store.transaction(() => {
      this.store.run("UPDATE runs SET state = 'running', nodes = ?, updated_at = ? WHERE id = ?", [JSON.stringify(nodes), now, runId]);
      this.advance(runId);
    });
    return { ok: true, run: presentRun(this.runRow(workflowId, runId)) };
  }

  cancel(userId: string, workflowId: string, runId: string): RunChangeResponse {
    this.ownedWorkflow(userId, workflowId, "cancel its runs");
    const row = this.runRow(workflowId, runId);
    if (!OPEN_STATES.includes(row.state as RunState)) throw errors.runFinished(runId, String(row.state));
    const nodes = JSON.parse(String(row.nodes)) as RunNode[];
    const now = this.clock.now();
    for (const node of nodes) if (OPEN_NODE_STATES.includes(node.state)) Object.assign(node, { state: "cancelled", finishedAt: ISO(now) });
    this.store.transaction(() => this.finish(row, "cancelled", nodes, now));
    return { ok: true, run: presentRun(this.runRow(workflowId, runId)) };
  }

  private runRow(workflowId: string, runId: string): Row {
    const row = this.store.get("SELECT * FROM runs WHERE id = ? AND workflow_id = ?", [runId, workflowId]);
    if (!row) throw errors.runNotFound(runId);
    return row;
  }

  /**
   * Moves a run forward as far as it can go without waiting: through triggers, gates and
   * destinations, up to the next part (which is started, and finishes after its delay), a
   * held gate, or the end.
   */
  private advance(runId: string): void {
    const row = this.store.get("SELECT * FROM runs WHERE id = ?", [runId]);
    if (!row || (row.state !== "queued" && row.state !== "running")) return;
    const nodes = JSON.parse(String(row.nodes)) as RunNode[];
    const byId = new Map(nodes.map((node) => [node.nodeId, node]));
    const now = this.clock.now();
    let state: RunState = "running";
    let startedPart: RunNode | undefined;
    for (const node of nodes) {
      if (node.state !== "pending") continue;
      const inputs = node.upstream.map((id) => byId.get(id)!);
      if (inputs.some((input) => input.state !== "succeeded" && input.state !== "passed")) break;
      const belowFloor = inputs.some((input) => input.belowFloor && !input.delivered);
      node.startedAt = ISO(now);
      if (node.kind === "part") {
        node.state = "running";
        startedPart = node;
        break;
      }
      // Triggers, gates and destinations pass their inputs' outputs on.
      node.output = Object.assign({}, ...inputs.map((input) => input.output ?? {}));
      if (node.kind === "gate" && belowFloor) {
        node.state = "held";
        node.belowFloor = true;
        state = "held";
        break;
      }
      node.state = node.kind === "gate" ? "passed" : "succeeded";
      node.finishedAt = ISO(now);
    }
    const done = nodes.every((node) => node.state === "succeeded" || node.state === "passed");
    this.store.transaction(() => {
      if (done) this.finish(row, "succeeded", nodes, now);
      else this.store.run("UPDATE runs SET state = ?, nodes = ?, updated_at = ? WHERE id = ?", [state, JSON.stringify(nodes), now, runId]);
    });
    if (startedPart) {
      const nodeId = startedPart.nodeId;
      this.clock.schedule(partDelayMs(this.mocks, startedPart.partId), () => this.completePart(runId, nodeId));
    }
  }

  private subjectIndex: ReadonlyMap<string, CatalogueSubject> | undefined;

  /** The companies this service holds (its catalogue's subject table), by canonical id. */
  private get subjectsById(): ReadonlyMap<string, CatalogueSubject> {
    return (this.subjectIndex ??= new Map((this.catalogue.subjects ?? []).map((subject) => [subject.canonicalId, subject])));
  }

  private completePart(runId: string, nodeId: string): void {
    const row = this.store.get("SELECT * FROM runs WHERE id = ?", [runId]);
    if (!row || row.state !== "running") return;
    const nodes = JSON.parse(String(row.nodes)) as RunNode[];
    const node = nodes.find((candidate) => candidate.nodeId === nodeId);
    if (!node || node.state !== "running") return;
    const now = this.clock.now();
    const mockCase = String(row.mock_case);
    const version = this.store.get("SELECT body FROM versions WHERE id = ?", [String(row.version_id)])!;
    const subjects = subjectsOf(JSON.parse(String(version.body)), nodeId);
    this.store.transaction(() => {
      node.finishedAt = ISO(now);
      // A terminal part against a subject the service does not hold fails before any mock answers.
      const unrunnable = subjectFailure(node, subjects, this.subjectsById, this.catalogue.subjects !== undefined);
      if (unrunnable) {
        node.state = "failed";
        node.failure = { code: unrunnable.code, message: unrunnable.message };
        node.output = { unrunnableSubjects: unrunnable.unrunnable };
        for (const other of nodes) if (other.state === "pending") other.state = "cancelled";
        this.finish(row, "failed", nodes, now);
        return;
      }
      const response = mockResponseFor(this.mocks, mockCase, node, (target) => this.countCall(mockCase, target), this.catalogue, subjects);
      if ("failure" in response) {
        node.state = "failed";
        node.failure = { code: response.failure.code, message: response.failure.message ?? `part ${node.partId} failed (${response.failure.code})` };
        for (const other of nodes) if (other.state === "pending") other.state = "cancelled";
        this.finish(row, "failed", nodes, now);
        return;
      }
      const inputsBelowFloor = node.upstream.some((id) => nodes.find((other) => other.nodeId === id)?.belowFloor);
      node.state = "succeeded";
      node.output = "value" in response ? response.value : response.belowFloor;
      if ("belowFloor" in response || inputsBelowFloor) node.belowFloor = true;
      this.store.run("UPDATE runs SET drawn_minor_units = drawn_minor_units + ?, nodes = ?, updated_at = ? WHERE id = ?", [node.costMinorUnits, JSON.stringify(nodes), now, runId]);
      // The next step in the same transaction: one journal line per finished part.
      this.advance(runId);
    });
  }

  private countCall(mockCase: string, target: string): number {
    this.store.run("INSERT INTO mock_counters (mock_case, target, calls) VALUES (?, ?, 1) ON CONFLICT (mock_case, target) DO UPDATE SET calls = calls + 1", [mockCase, target]);
    return Number(this.store.get("SELECT calls FROM mock_counters WHERE mock_case = ? AND target = ?", [mockCase, target])!.calls);
  }

  /** Ends a run; what is reserved and not drawn goes back to the allowance. Inside a transaction. */
  private finish(row: Row, state: RunState, nodes: RunNode[], now: number): void {
    const drawn = Number(this.store.get("SELECT drawn_minor_units FROM runs WHERE id = ?", [String(row.id)])!.drawn_minor_units);
    const release = Number(row.reserved_minor_units) - drawn;
    this.store.run("UPDATE runs SET state = ?, nodes = ?, released_minor_units = ?, updated_at = ?, finished_at = ? WHERE id = ?", [state, JSON.stringify(nodes), release, now, now, String(row.id)]);
    this.store.run("UPDATE accounts SET used_minor_units = MAX(0, used_minor_units - ?) WHERE id = ?", [release, String(row.account_id)]);
  }

  /** After a restart: open runs carry on (a part that was running starts its delay again). */
  private resumeOpenRuns(): void {
    for (const row of this.store.all("SELECT id, nodes FROM runs WHERE state IN ('queued', 'running')")) {
      const runId = String(row.id);
      const running = (JSON.parse(String(row.nodes)) as RunNode[]).find((node) => node.state === "running");
      if (running) this.clock.schedule(partDelayMs(this.mocks, running.partId), () => this.completePart(runId, running.nodeId));
      else this.clock.schedule(0, () => this.advance(runId));
    }
  }

  // ---- admin ------------------------------------------------------------------------------

  /** Empties the database and applies the seed again (the same keys), forgetting cached credentials. */
  reset(): void {
    this.clock.clear();
    this.store.transaction(() => {
      for (const table of [...SIGNALS_TABLES, "idempotency_keys", "mock_counters", "runs", "versions", "workflows", "oauth_tokens", "api_keys", "users", "organisations", "accounts"]) this.store.run(`DELETE FROM ${table}`);
    });
    this.auth.clearCache();
    this.signals.limiter.clear();
    this.faults.usage = null;
    this.faults.resolverDown = false;
    this.applySeed();
    this.grantSeedEntitlements();
    this.signals.startAlertClock();
  }

  /** The seed's `entitlements` of each account (applied with the seed, at first start and on reset). */
  private grantSeedEntitlements(): void {
    const granted = this.seed.accounts.filter((account) => account.entitlements?.length);
    if (!granted.length) return;
    this.store.transaction(() => {
      for (const account of granted) this.store.run("UPDATE accounts SET entitlements = ? WHERE id = ?", [JSON.stringify(account.entitlements), account.id]);
    });
  }

  updateAccount(id: string, change: { plan?: string; region?: string; acceptanceOutstanding?: boolean; allowanceMinorUnits?: number; resetUsage?: boolean; entitlements?: string[] }): Account {
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

function toAccount(row: Row): Account {
  return {
    id: String(row.id),
    plan: String(row.plan),
    region: String(row.region),
    acceptanceOutstanding: Number(row.acceptance_outstanding) === 1,
    allowanceMinorUnits: Number(row.allowance_minor_units),
    usedMinorUnits: Number(row.used_minor_units),
    entitlements: JSON.parse(String(row.entitlements ?? "[]")) as string[],
  };
}

function summariseRun(row: Row): RunSummary {
  return {
    runId: String(row.id),
    workflowId: String(row.workflow_id),
    versionId: String(row.version_id),
    state: String(row.state) as RunState,
    question: row.question === null ? null : String(row.question),
    createdAt: ISO(Number(row.created_at)),
    updatedAt: ISO(Number(row.updated_at)),
    finishedAt: row.finished_at === null ? null : ISO(Number(row.finished_at)),
  };
}

/** The polled run: its state, usage, every node's state and output, and a child run per part. */
function presentRun(row: Row): Run {
  const nodes = JSON.parse(String(row.nodes)) as RunNode[];
  const reserved = Number(row.reserved_minor_units);
  return {
    ...summariseRun(row),
    host: RUN_HOST,
    mockCase: String(row.mock_case),
    estimate: { costMinorUnits: reserved },
    usage: { reservedMinorUnits: reserved, drawnMinorUnits: Number(row.drawn_minor_units), releasedMinorUnits: Number(row.released_minor_units) },
    childRuns: nodes
      .filter((node) => node.kind === "part")
      .map((node) => ({ runId: `${String(row.id)}.${node.nodeId}`, nodeId: node.nodeId, partId: node.partId, state: node.state, ...(node.failure ? { failure: node.failure } : {}) })),
    nodes: nodes.map(({ upstream: _upstream, ...node }) => node),
  };
}
