/**
 * The run engine: starting a run (reservation, idempotency), reading and listing runs,
 * delivering and cancelling, and the walk (runs.ts holds its rules: order, mocks, subjects,
 * usage). Each step is one synchronous transaction between awaits, and writes what it changes:
 * a node gets its `run_nodes` row when it leaves `pending` (until then its version's plan says
 * what it is), a part that finishes updates its own row and the run's header, and no step
 * reads or writes the other nodes' outputs (a trigger, gate or destination reads its inputs').
 */
import { randomBytes } from "node:crypto";
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
import { mockResponseFor, partDelayMs, subjectFailure, type NodeState, type PlannedNode } from "./runs.js";
import type { Store } from "./store.js";
import type { VersionPlan, Workflows } from "./workflows.js";

const OPEN_STATES = statesIn("open");
const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;

export class RunEngine {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly mocks: MockFile,
    private readonly catalogue: CatalogueService,
    private readonly workflows: Workflows,
    private readonly accounts: Accounts,
    private readonly faults: FaultSwitches,
  ) {}

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
    // A new run has no node row: its walk starts at position 0.
    this.clock.schedule(0, () => this.advance(runId, 0));
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
      this.step({ ...run, state: "running" }, this.nextPosition(runId), now);
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
      this.cancelPending(run, this.nextPosition(runId), isoTime(now));
      this.finish(run, "cancelled", now);
    });
    return { ok: true, run: this.present(this.header(workflowId, runId)) };
  }

  /** After a restart: open runs carry on (a part that was running starts its delay again). */
  resumeOpenRuns(): void {
    const rows = this.store.all("SELECT r.id, n.position, n.part_id FROM runs r LEFT JOIN run_nodes n ON n.run_id = r.id AND n.state = 'running' WHERE r.state IN ('queued', 'running') ORDER BY r.rowid");
    for (const row of rows) {
      const runId = text(row, "id");
      if (row.position === null) this.clock.schedule(0, () => this.advance(runId));
      else {
        const position = integer(row, "position");
        this.clock.schedule(partDelayMs(this.mocks, text(row, "part_id")), () => this.completePart(runId, position));
      }
    }
  }

  private header(workflowId: string, runId: string): RunRow {
    const row = this.store.get(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ? AND workflow_id = ?`, [runId, workflowId]);
    if (!row) throw errors.runNotFound(runId);
    return runOf(row);
  }

  private present(run: RunRow): Run {
    return presentRun(run, this.plan(run).nodes, this.store.all(`SELECT ${NODE_VIEW_COLUMNS} FROM run_nodes WHERE run_id = ? ORDER BY position`, [run.id]));
  }

  private plan(run: RunRow): VersionPlan {
    return this.workflows.plan(run.versionId)!;
  }

  private openRun(runId: string): RunRow | undefined {
    const row = this.store.get(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`, [runId]);
    return row && runOf(row);
  }

  /** The position of the first node still pending: the nodes before it all have their rows. */
  private nextPosition(runId: string): number {
    const last = this.store.get("SELECT position FROM run_nodes WHERE run_id = ? ORDER BY position DESC LIMIT 1", [runId]);
    return last ? integer(last, "position") + 1 : 0;
  }

  /** The positions whose result is below the floor, and whether each was delivered. */
  private belowFloor(runId: string): Map<number, boolean> {
    return new Map(this.store.all("SELECT position, delivered FROM run_nodes WHERE run_id = ? AND below_floor = 1", [runId]).map((row) => [integer(row, "position"), integer(row, "delivered") === 1]));
  }

  /** A timer's step: moves a run forward as far as it can go without waiting. */
  private advance(runId: string, next?: number): void {
    const run = this.openRun(runId);
    if (!run || (run.state !== "queued" && run.state !== "running")) return;
    this.store.transaction(() => this.step(run, next ?? this.nextPosition(runId), this.clock.now()));
  }

  /**
   * Inside a transaction: from the first pending node (`next`; every node before it succeeded
   * or passed), through triggers, gates and destinations, up to the next part (which is
   * started, and finishes after its delay), a held gate, or the end. Each node it reaches gets
   * its row.
   */
  private step(run: RunRow, next: number, now: number): void {
    const plan = this.plan(run);
    let below: Map<number, boolean> | undefined; // read when a gate needs it
    let state: RunState = "running";
    let position = next;
    for (; position < plan.nodes.length; position++) {
      const node = plan.nodes[position]!;
      const inputs = plan.inputs[position]!;
      if (node.kind === "part") {
        this.insertNode(run.id, position, node, "running", null, false, isoTime(now), null);
        const part = position;
        this.clock.schedule(partDelayMs(this.mocks, node.partId), () => this.completePart(run.id, part));
        break;
      }
      // Triggers, gates and destinations pass their inputs' outputs on.
      const output = this.mergedOutput(run.id, inputs);
      if (node.kind === "gate" && inputs.some((input) => (below ??= this.belowFloor(run.id)).get(input) === false)) {
        this.insertNode(run.id, position, node, "held", output, true, isoTime(now), null);
        state = "held";
        break;
      }
      this.insertNode(run.id, position, node, node.kind === "gate" ? "passed" : "succeeded", output, false, isoTime(now), isoTime(now));
    }
    if (position >= plan.nodes.length) this.finish(run, "succeeded", now);
    else this.store.run("UPDATE runs SET state = ?, updated_at = ? WHERE id = ?", [state, now, run.id]);
  }

  private insertNode(runId: string, position: number, node: PlannedNode, state: NodeState, output: string | null, belowFloor: boolean, startedAt: string | null, finishedAt: string | null): void {
    this.store.run(
      "INSERT INTO run_nodes (run_id, position, node_id, kind, part_id, cost_minor_units, state, output, below_floor, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [runId, position, node.nodeId, node.kind, node.partId ?? null, node.costMinorUnits, state, output, belowFloor ? 1 : 0, startedAt, finishedAt],
    );
  }

  /** The pending nodes from `next` on, cancelled: they get their rows (finished at `finishedAt` when the run was cancelled, unfinished when it failed). */
  private cancelPending(run: RunRow, next: number, finishedAt: string | null): void {
    const nodes = this.plan(run).nodes;
    for (let position = next; position < nodes.length; position++) this.insertNode(run.id, position, nodes[position]!, "cancelled", null, false, null, finishedAt);
  }

  /** The inputs' outputs merged (later inputs win), as JSON; one input's is passed on as it is stored. */
  private mergedOutput(runId: string, inputs: readonly number[]): string {
    const outputs = inputs.map((input) => this.store.get("SELECT output FROM run_nodes WHERE run_id = ? AND position = ?", [runId, input])?.output ?? null);
    if (outputs.length === 1 && typeof outputs[0] === "string" && outputs[0].startsWith("{")) return outputs[0];
    return JSON.stringify(Object.assign({}, ...outputs.map((output) => (typeof output === "string" ? (JSON.parse(output) as unknown) : {}))));
  }

  private completePart(runId: string, position: number): void {
    const run = this.openRun(runId);
    if (!run || run.state !== "running") return;
    // The part's row, and those of results below the floor (which make its own below the floor).
    const rows = this.store.all("SELECT position, state, below_floor FROM run_nodes WHERE run_id = ? AND (position = ? OR below_floor = 1)", [runId, position]);
    const own = rows.find((row) => integer(row, "position") === position);
    if (!own || text(own, "state") !== "running") return;
    const below = new Set(rows.filter((row) => integer(row, "below_floor") === 1).map((row) => integer(row, "position")));
    const now = this.clock.now();
    const plan = this.plan(run);
    const node = plan.nodes[position]!;
    const subjects = plan.subjects.get(node.nodeId) ?? [];
    const fail = (failure: { code: string; message: string }, output: unknown) => {
      this.store.run("UPDATE run_nodes SET state = 'failed', output = ?, failure = ?, finished_at = ? WHERE run_id = ? AND position = ?", [
        output === undefined ? null : JSON.stringify(output),
        JSON.stringify(failure),
        isoTime(now),
        runId,
        position,
      ]);
      this.cancelPending(run, position + 1, null);
      this.finish(run, "failed", now);
    };
    this.store.transaction(() => {
      // A terminal part against a subject the service does not hold fails before any mock answers.
      const unrunnable = subjectFailure(node, subjects, this.catalogue.subjectsById, this.catalogue.hasSubjectTable);
      if (unrunnable) return fail({ code: unrunnable.code, message: unrunnable.message }, { unrunnableSubjects: unrunnable.unrunnable });
      const response = mockResponseFor(this.mocks, run.mockCase, node, (target) => this.countCall(run.mockCase, target), this.catalogue.catalogue, subjects);
      if ("failure" in response) return fail({ code: response.failure.code, message: response.failure.message ?? `part ${node.partId} failed (${response.failure.code})` }, undefined);
      const belowFloor = "belowFloor" in response || plan.inputs[position]!.some((input) => below.has(input));
      const output = "value" in response ? response.value : response.belowFloor;
      this.store.run("UPDATE run_nodes SET state = 'succeeded', output = ?, below_floor = ?, finished_at = ? WHERE run_id = ? AND position = ?", [
        JSON.stringify(output),
        belowFloor ? 1 : 0,
        isoTime(now),
        runId,
        position,
      ]);
      this.store.run("UPDATE runs SET drawn_minor_units = drawn_minor_units + ?, updated_at = ? WHERE id = ?", [node.costMinorUnits, now, runId]);
      // The next step in the same transaction: one journal line per finished part.
      this.step(run, position + 1, now);
    });
  }

  private countCall(mockCase: string, target: string): number {
    this.store.run("INSERT INTO mock_counters (mock_case, target, calls) VALUES (?, ?, 1) ON CONFLICT (mock_case, target) DO UPDATE SET calls = calls + 1", [mockCase, target]);
    return integer(this.store.get("SELECT calls FROM mock_counters WHERE mock_case = ? AND target = ?", [mockCase, target])!, "calls");
  }

  /** Ends a run; what is reserved and not drawn goes back to the allowance. Inside a transaction. */
  private finish(run: RunRow, state: RunState, now: number): void {
    const drawn = integer(this.store.get("SELECT drawn_minor_units FROM runs WHERE id = ?", [run.id])!, "drawn_minor_units");
    const release = run.reservedMinorUnits - drawn;
    this.store.run("UPDATE runs SET state = ?, released_minor_units = ?, updated_at = ?, finished_at = ? WHERE id = ?", [state, release, now, now, run.id]);
    this.store.run("UPDATE accounts SET used_minor_units = MAX(0, used_minor_units - ?) WHERE id = ?", [release, run.accountId]);
  }
}
