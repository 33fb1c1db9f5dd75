/**
 * The Workflows service's state and rules, apart from HTTP: the facade the app calls. Its jobs
 * live in modules of their own: seeding and identity (accounts.ts), the catalogue
 * (catalogue.ts), workflows and versions (workflows.ts), the run engine (run-engine.ts, with
 * the run tables' rows in run-rows.ts and the walk's rules in runs.ts); the admin surface's
 * reset is here, since it touches them all. Every change is one store transaction, made
 * synchronously: requests are served one at a time between awaits, so a check and the write
 * that depends on it (an idempotency key, an allowance) can never interleave with another
 * request's.
 */
import { randomBytes } from "node:crypto";
import { defaultCatalogue, type Catalogue } from "@wfkit/core";
import type { CreateWorkflowResponse, PartsResponse, PublishResponse, ResolveSubjectsResponse, Run, RunChangeResponse, RunListResponse, SaveVersionResponse, ValidateDefinitionResponse } from "@wfkit/client";
import { Accounts, type AccountChange, type IssuedAlertToken, type IssuedKey } from "./accounts.js";
import { Authenticator, newSecret } from "./auth.js";
import { CatalogueService, type FaultSwitches } from "./catalogue.js";
import { Clock } from "./clock.js";
import { DEFAULT_SEED, type MockFile, type Seed } from "./files.js";
import type { RunFilter } from "./policy.js";
import { text, type Account, type User } from "./rows.js";
import { RunEngine } from "./run-engine.js";
import { SignalsService } from "./signals/service.js";
import { DEFAULT_AI_LIMIT, type AiLimit } from "./signals/policy.js";
import { Store } from "./store.js";
import { Workflows, type WorkflowRow } from "./workflows.js";

export type { Account, User } from "./rows.js";
export type { FaultSwitches } from "./catalogue.js";
export type { IssuedAlertToken, IssuedKey } from "./accounts.js";
export type { WorkflowRow } from "./workflows.js";

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

export class WorkflowsService {
  readonly clock: Clock;
  readonly catalogue: Catalogue;
  readonly mocks: MockFile;
  readonly adminToken: string;
  readonly auth: Authenticator;
  readonly faults: FaultSwitches = { usage: null, resolverDown: false };
  /** The Consumer Signals API: alerts, views, alert tokens, the AI limit. */
  readonly signals: SignalsService;
  private readonly identity: Accounts;
  private readonly parts_: CatalogueService;
  private readonly workflows: Workflows;
  private readonly engine: RunEngine;

  private constructor(
    readonly store: Store,
    options: ServiceOptions,
  ) {
    this.clock = options.clock ?? new Clock("real");
    this.catalogue = options.catalogue ?? defaultCatalogue;
    this.mocks = options.mocks ?? {};
    this.adminToken = options.adminToken ?? `wfa_${newSecret()}`;
    // The key that signs session JWTs: random for each process and kept in memory only, so no
    // file holds it (a hash could not check a signature) and a service's sessions end when it
    // stops; each start prints a new JWT, and `POST /__admin/sessions` makes more.
    this.auth = new Authenticator(store, this.clock, randomBytes(32).toString("hex"));
    this.signals = new SignalsService(store, this.clock, this.auth, options.signalsAiLimit ?? DEFAULT_AI_LIMIT);
    this.identity = new Accounts(store, this.clock, this.auth, this.signals, options.seed ?? DEFAULT_SEED);
    this.parts_ = new CatalogueService(this.catalogue, this.faults);
    this.workflows = new Workflows(store, this.clock, this.identity, this.catalogue);
    this.engine = new RunEngine(store, this.clock, this.mocks, this.parts_, this.workflows, this.identity, this.faults);
  }

  static async create(options: ServiceOptions = {}): Promise<WorkflowsService> {
    const store = await Store.open(options.db);
    const service = new WorkflowsService(store, options);
    if (service.identity.empty()) service.identity.applySeed();
    else service.identity.recallSeededKeys();
    service.engine.resumeOpenRuns();
    service.signals.startAlertClock();
    return service;
  }

  close(): void {
    this.clock.clear();
    this.store.close();
  }

  // ---- identity and the seed (accounts.ts) -------------------------------------------------

  /** The keys the seed made, with their secrets (kept so that a reset makes the same keys). */
  get issuedKeys(): IssuedKey[] {
    return this.identity.issuedKeys;
  }

  /** The alert tokens the seed made, in its order (kept, like the keys, for a reset). */
  get issuedAlertTokens(): IssuedAlertToken[] {
    return this.identity.issuedAlertTokens;
  }

  user(id: string): User | undefined {
    return this.identity.user(id);
  }

  account(id: string): Account | undefined {
    return this.identity.account(id);
  }

  accounts(): Account[] {
    return this.identity.accounts();
  }

  signalsCredentials(): { jwt: string | null; alertToken: string | null } {
    return this.identity.signalsCredentials();
  }

  // ---- the catalogue (catalogue.ts) ----------------------------------------------------------

  parts(unattendedSafeOnly: boolean): PartsResponse {
    return this.parts_.parts(unattendedSafeOnly);
  }

  resolveSubjects(hints: readonly string[]): ResolveSubjectsResponse {
    return this.parts_.resolveSubjects(hints);
  }

  /** validate-definition: the checker's verdict, with the service's catalogue. */
  validate(definition: unknown): ValidateDefinitionResponse {
    return this.parts_.validate(definition);
  }

  // ---- workflows and versions (workflows.ts) -------------------------------------------------

  createWorkflow(userId: string, name: string): CreateWorkflowResponse {
    return this.workflows.createWorkflow(userId, name);
  }

  /** The workflow if the caller may see it (its owner, or a member of the owner's organisation). */
  visibleWorkflow(userId: string, workflowId: string): WorkflowRow {
    return this.workflows.visibleWorkflow(userId, workflowId);
  }

  ownedWorkflow(userId: string, workflowId: string, action: string): WorkflowRow {
    return this.workflows.ownedWorkflow(userId, workflowId, action);
  }

  saveVersion(userId: string, workflowId: string, body: unknown): SaveVersionResponse {
    return this.workflows.saveVersion(userId, workflowId, body);
  }

  publish(userId: string, workflowId: string, versionId: string): PublishResponse {
    return this.workflows.publish(userId, workflowId, versionId);
  }

  // ---- runs (run-engine.ts) ------------------------------------------------------------------

  startRun(userId: string, workflowId: string, request: { question?: string; mockCase: string; idempotencyKey?: string }): { status: number; body: unknown; replayed: boolean } {
    return this.engine.startRun(userId, workflowId, request);
  }

  run(userId: string, workflowId: string, runId: string): Run {
    return this.engine.run(userId, workflowId, runId);
  }

  workflowRuns(userId: string, workflowId: string): RunListResponse {
    return this.engine.workflowRuns(userId, workflowId);
  }

  ownedRuns(userId: string, filter: RunFilter): RunListResponse {
    return this.engine.ownedRuns(userId, filter);
  }

  /** `workflowRuns` as the JSON it is answered with, worked out again only when a table it reads has changed. */
  workflowRunsJson(userId: string, workflowId: string): string {
    return this.store.remembered(`workflowRuns ${userId} ${workflowId}`, ["runs", "workflows", "users"], () => JSON.stringify(this.engine.workflowRuns(userId, workflowId)));
  }

  /** `ownedRuns` as the JSON it is answered with, worked out again only when a table it reads has changed. */
  ownedRunsJson(userId: string, filter: RunFilter): string {
    return this.store.remembered(`ownedRuns ${userId} ${filter}`, ["runs", "workflows"], () => JSON.stringify(this.engine.ownedRuns(userId, filter)));
  }

  deliver(userId: string, workflowId: string, runId: string): RunChangeResponse {
    return this.engine.deliver(userId, workflowId, runId);
  }

  cancel(userId: string, workflowId: string, runId: string): RunChangeResponse {
    return this.engine.cancel(userId, workflowId, runId);
  }

  // ---- admin -------------------------------------------------------------------------------

  /** Empties the database and applies the seed again (the same keys), forgetting cached credentials. */
  reset(): void {
    this.clock.clear();
    const tables = dataTables(this.store);
    this.store.transaction(() => {
      for (const table of tables) this.store.run(`DELETE FROM "${table}"`);
    });
    this.workflows.forgetPlans();
    this.auth.clearCache();
    this.signals.limiter.clear();
    this.faults.usage = null;
    this.faults.resolverDown = false;
    this.identity.applySeed();
    this.signals.startAlertClock();
  }

  updateAccount(id: string, change: AccountChange): Account {
    return this.identity.updateAccount(id, change);
  }

  revokeKey(keyId: string): void {
    this.identity.revokeKey(keyId);
  }

  /** A new API key; refused for an account whose plan has no API access (it cannot create keys). */
  createKey(request: { userId: string; scopes: string[]; products?: string[]; expiresAt?: number | null; ipAllowlist?: string[] }): IssuedKey {
    return this.identity.createKey(request);
  }

  createOauthToken(userId: string): string {
    return this.identity.createOauthToken(userId);
  }

  createSession(userId: string): string {
    return this.identity.createSession(userId);
  }
}

/**
 * Every table that holds the service's data, read from the schema (not `meta`, which holds the
 * schema version and the journal's sequence, nor SQLite's own), children before the tables
 * their foreign keys name, so that a reset empties them in an order that never leaves a
 * dangling reference, whatever tables later migrations add.
 */
function dataTables(store: Store): string[] {
  const names = store.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'meta' ORDER BY name").map((row) => text(row, "name"));
  const parents = new Map(names.map((name) => [name, store.all("SELECT DISTINCT \"table\" AS parent FROM pragma_foreign_key_list(?)", [name]).map((row) => text(row, "parent"))]));
  const ordered: string[] = [];
  const placed = new Set<string>();
  // Children first: a table goes once every table naming it as a parent has gone.
  const place = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const child of names) if (parents.get(child)!.includes(name) && child !== name) place(child, path);
    path.delete(name);
    placed.add(name);
    ordered.push(name);
  };
  for (const name of names) place(name, new Set());
  return ordered;
}
