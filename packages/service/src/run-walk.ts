/**
 * The walk: a run moves through its version's plan one node at a time, each step one
 * synchronous transaction (between awaits) that writes only what it changes. A node gets its
 * `run_nodes` row when it leaves `pending` (until then the plan says what it is), so every node
 * before the first pending one has its row and has succeeded or passed; a part that finishes
 * updates its own row and the run's header; a trigger, gate or destination reads its inputs'
 * outputs and no other node's. runs.ts holds the rules (order, mocks, subjects, usage).
 */
import type { CatalogueService } from "./catalogue.js";
import type { Clock } from "./clock.js";
import type { MockFile } from "./files.js";
import type { RunState } from "./policy.js";
import { integer, isoTime, optionalText, text } from "./rows.js";
import { RUN_COLUMNS, runOf, type RunRow } from "./run-rows.js";
import { mockResponseFor, partDelayMs, subjectFailure, type NodeState, type PlannedNode } from "./runs.js";
import type { Store } from "./store.js";
import type { VersionPlan, Workflows } from "./workflows.js";

export class RunWalk {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly mocks: MockFile,
    private readonly catalogue: CatalogueService,
    private readonly workflows: Workflows,
  ) {}

  /** After a restart: open runs carry on (a part that was running starts its delay again). */
  resume(): void {
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

  /** Runs started since the walk last took first steps. */
  private starting: string[] = [];

  /** A new run's walk, from its first node, once the current request is answered. */
  begin(runId: string): void {
    this.starting.push(runId);
    this.clock.schedule(0, () => this.beginStarted());
  }

  /**
   * The first steps of every run started since the last call, in one transaction (runs started
   * together under load share its cost). Should that fail, each run is stepped on its own, so
   * that one run's failure stops only that run.
   */
  private beginStarted(): void {
    if (!this.starting.length) return;
    const runIds = this.starting;
    this.starting = [];
    try {
      this.store.transaction(() => {
        for (const runId of runIds) this.firstStep(runId);
      });
    } catch {
      const failures: unknown[] = [];
      for (const runId of runIds) {
        try {
          this.store.transaction(() => this.firstStep(runId));
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length === 1) throw failures[0];
      if (failures.length) throw new AggregateError(failures, `the first steps of ${failures.length} runs failed`);
    }
  }

  /** Inside a transaction: a run's first step, unless it was cancelled (or reset away) before it. */
  private firstStep(runId: string): void {
    const run = this.openRun(runId);
    if (run && (run.state === "queued" || run.state === "running")) this.step(run, 0, this.clock.now());
  }

  plan(run: RunRow): VersionPlan {
    return this.workflows.plan(run.versionId)!;
  }

  private openRun(runId: string): RunRow | undefined {
    const row = this.store.get(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`, [runId]);
    return row && runOf(row);
  }

  /** The position of the first node still pending: the nodes before it all have their rows. */
  nextPosition(runId: string): number {
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
  step(run: RunRow, next: number, now: number): void {
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
  cancelPending(run: RunRow, next: number, finishedAt: string | null): void {
    const nodes = this.plan(run).nodes;
    for (let position = next; position < nodes.length; position++) this.insertNode(run.id, position, nodes[position]!, "cancelled", null, false, null, finishedAt);
  }

  /** The inputs' outputs merged (later inputs win), as JSON; one input's is passed on as it is stored. */
  private mergedOutput(runId: string, inputs: readonly number[]): string {
    const outputs = inputs.map((input) => {
      const row = this.store.get("SELECT output FROM run_nodes WHERE run_id = ? AND position = ?", [runId, input]);
      return row ? optionalText(row, "output") : null;
    });
    if (outputs.length === 1 && outputs[0]?.startsWith("{")) return outputs[0];
    return JSON.stringify(Object.assign({}, ...outputs.map((output) => (output !== null ? (JSON.parse(output) as unknown) : {}))));
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
  finish(run: RunRow, state: RunState, now: number): void {
    const drawn = integer(this.store.get("SELECT drawn_minor_units FROM runs WHERE id = ?", [run.id])!, "drawn_minor_units");
    const release = run.reservedMinorUnits - drawn;
    this.store.run("UPDATE runs SET state = ?, released_minor_units = ?, updated_at = ?, finished_at = ? WHERE id = ?", [state, release, now, now, run.id]);
    this.store.run("UPDATE accounts SET used_minor_units = MAX(0, used_minor_units - ?) WHERE id = ?", [release, run.accountId]);
  }
}
