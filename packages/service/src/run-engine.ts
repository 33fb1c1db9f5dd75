/**
 * The run engine: starting a run (reservation, idempotency), reading and listing runs,
 * delivering and cancelling; the walk that carries a run on is run-walk.ts. Each change is one
 * synchronous transaction between awaits.
 */
import type { Run, RunChangeResponse, RunListResponse } from "@wfkit/client";
import type { Accounts } from "./accounts.js";
import { sha256 } from "./auth.js";
import type { CatalogueService, FaultSwitches } from "./catalogue.js";
import type { Clock } from "./clock.js";
import { errors } from "./errors.js";
import type { MockFile } from "./files.js";
import { LIMITS, RUN_HOST, statesIn, type RunFilter, type RunState } from "./policy.js";
import { integer, isoTime, text } from "./rows.js";
import { NODE_VIEW_COLUMNS, presentRun, RUN_COLUMNS, runOf, SUMMARY_COLUMNS, summaryOf, type RunRow } from "./run-rows.js";
import { RunWalk } from "./run-walk.js";
import type { Store } from "./store.js";
import type { Workflows } from "./workflows.js";
import { newId } from "./ids.js";

const OPEN_STATES = statesIn("open");

export class RunEngine {
  private readonly walk: RunWalk;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly mocks: MockFile,
    catalogue: CatalogueService,
    private readonly workflows: Workflows,
    private readonly accounts: Accounts,
    private readonly faults: FaultSwitches,
  ) {
    this.walk = new RunWalk(store, clock, mocks, catalogue, workflows);
  }

  /**
   * Starts a run of the published version, reserving its estimate. With an idempotency key,
   * a request seen before gets the original answer (`replayed`), and the same key with another
   * request is refused. Only a started run is remembered: a refusal (no allowance, usage
   * system down) can be retried with the same key once its cause is gone.
   */
  startRun(userId: string, workflowId: string, request: { question?: string; mockCase: string; idempotencyKey?: string }): { status: number; body: unknown; replayed: boolean } {
    const workflow = this.workflows.ownedWorkflow(userId, workflowId, "run it");
    const now = this.clock.now();
    const fingerprint = sha256(JSON.stringify([workflowId, request.question ?? null, request.mockCase]));
    const key = request.idempotencyKey;
    if (key !== undefined) {
      const seen = this.store.get("SELECT fingerprint, status, response, created_at FROM idempotency_keys WHERE caller = ? AND key = ?", [userId, key]);
      if (seen && integer(seen, "created_at") + LIMITS.idempotencyRetentionMs > now) {
        if (text(seen, "fingerprint") !== fingerprint) throw errors.idempotencyKeyReused();
        return { status: integer(seen, "status"), body: JSON.parse(text(seen, "response")), replayed: true };
      }
    }
    if (workflow.publishedVersionId === null) throw errors.noPublishedVersion(workflowId);
    const cases = this.mocks.cases ?? {};
    if (request.mockCase !== "default" && !Object.hasOwn(cases, request.mockCase)) throw errors.unknownMockCase(request.mockCase, Object.keys(cases));
    if (this.faults.usage) throw errors.usageUnavailable(this.faults.usage);
    const plan = this.workflows.plan(workflow.publishedVersionId)!;
    const cost = plan.estimate.costMinorUnits;
    const account = this.accounts.accountOf(userId)!;
    const available = account.allowanceMinorUnits - account.usedMinorUnits;
    if (cost > available) throw errors.allowanceExhausted(cost, Math.max(0, available));
    const runId = newId("run");
    const body = { ok: true, runId, host: RUN_HOST, estimate: { costMinorUnits: cost } };
    this.store.transaction(() => {
      this.store.run("UPDATE accounts SET used_minor_units = used_minor_units + ? WHERE id = ?", [cost, account.id]);
      this.store.run(
        "INSERT INTO runs (id, workflow_id, version_id, owner_user_id, account_id, state, question, mock_case, reserved_minor_units, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)",
        [runId, workflowId, plan.id, userId, account.id, request.question ?? null, request.mockCase, cost, now, now],
      );
      if (key !== undefined)
        this.store.run("INSERT OR REPLACE INTO idempotency_keys (caller, key, fingerprint, status, response, created_at) VALUES (?, ?, ?, ?, ?, ?)", [userId, key, fingerprint, 200, JSON.stringify(body), now]);
    });
    this.walk.begin(runId);
    return { status: 200, body, replayed: false };
  }

  run(userId: string, workflowId: string, runId: string): Run {
    this.workflows.visibleWorkflow(userId, workflowId);
    return this.present(this.header(workflowId, runId));
  }

  workflowRuns(userId: string, workflowId: string): RunListResponse {
    this.workflows.visibleWorkflow(userId, workflowId);
    return { runs: this.store.all(`SELECT ${SUMMARY_COLUMNS()} FROM runs WHERE workflow_id = ? ORDER BY created_at DESC, id`, [workflowId]).map(summaryOf) };
  }

  ownedRuns(userId: string, filter: RunFilter): RunListResponse {
    const states = statesIn(filter);
    const rows = this.store.all(
      `SELECT ${SUMMARY_COLUMNS("r.")} FROM runs r JOIN workflows w ON w.id = r.workflow_id WHERE w.owner_user_id = ? AND r.state IN (${states.map(() => "?").join(", ")}) ORDER BY r.created_at DESC, r.id`,
      [userId, ...states],
    );
    return { runs: rows.map(summaryOf) };
  }

  deliver(userId: string, workflowId: string, runId: string): RunChangeResponse {
    this.workflows.ownedWorkflow(userId, workflowId, "deliver its runs");
    const run = this.header(workflowId, runId);
    if (run.state !== "held") throw errors.runNotHeld(runId, run.state);
    const now = this.clock.now();
    this.store.transaction(() => {
      this.store.run("UPDATE run_nodes SET state = 'passed', delivered = 1, finished_at = ? WHERE run_id = ? AND state = 'held'", [isoTime(now), runId]);
      this.store.run("UPDATE runs SET state = 'running', updated_at = ? WHERE id = ?", [now, runId]);
      this.walk.step({ ...run, state: "running" }, this.walk.nextPosition(runId), now);
    });
    return { ok: true, run: this.present(this.header(workflowId, runId)) };
  }

  cancel(userId: string, workflowId: string, runId: string): RunChangeResponse {
    this.workflows.ownedWorkflow(userId, workflowId, "cancel its runs");
    const run = this.header(workflowId, runId);
    if (!OPEN_STATES.includes(run.state)) throw errors.runFinished(runId, run.state);
    const now = this.clock.now();
    this.store.transaction(() => {
      this.store.run("UPDATE run_nodes SET state = 'cancelled', finished_at = ? WHERE run_id = ? AND state IN ('running', 'held')", [isoTime(now), runId]);
      this.walk.cancelPending(run, this.walk.nextPosition(runId), isoTime(now));
      this.walk.finish(run, "cancelled", now);
    });
    return { ok: true, run: this.present(this.header(workflowId, runId)) };
  }

  /** After a restart: open runs carry on (a part that was running starts its delay again). */
  resumeOpenRuns(): void {
    this.walk.resume();
  }

  private header(workflowId: string, runId: string): RunRow {
    const row = this.store.get(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ? AND workflow_id = ?`, [runId, workflowId]);
    if (!row) throw errors.runNotFound(runId);
    return runOf(row);
  }

  private present(run: RunRow): Run {
    return presentRun(run, this.walk.plan(run).nodes, this.store.all(`SELECT ${NODE_VIEW_COLUMNS} FROM run_nodes WHERE run_id = ? ORDER BY position`, [run.id]));
  }
}
