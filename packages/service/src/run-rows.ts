/**
 * The run tables' rows: `runs` (a run's header: who, what, usage, state) and `run_nodes` (one
 * row a node, from the moment it leaves `pending`: its state, output and charge), with their
 * typed mappers and the wire shapes made from them. Each read selects the columns its answer
 * needs: a run list reads no node, the walk reads what it passes on, and only the polled run
 * parses outputs, which it returns.
 */
import type { NodeState, Run, RunNodeView, RunSummary } from "@wfkit/client";
import { RUN_HOST, type RunState } from "./policy.js";
import { flag, integer, isoTime, optionalInteger, optionalText, text } from "./rows.js";
import type { PlannedNode } from "./runs.js";
import type { Row } from "./store.js";


// ---- runs -----------------------------------------------------------------------------------

/** A `runs` row (RUN_COLUMNS). */
export interface RunRow {
  id: string;
  workflowId: string;
  versionId: string;
  ownerUserId: string;
  accountId: string;
  state: RunState;
  question: string | null;
  mockCase: string;
  reservedMinorUnits: number;
  drawnMinorUnits: number;
  releasedMinorUnits: number;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export const RUN_COLUMNS =
  "id, workflow_id, version_id, owner_user_id, account_id, state, question, mock_case, reserved_minor_units, drawn_minor_units, released_minor_units, created_at, updated_at, finished_at";

export function runOf(row: Row): RunRow {
  return {
    id: text(row, "id"),
    workflowId: text(row, "workflow_id"),
    versionId: text(row, "version_id"),
    ownerUserId: text(row, "owner_user_id"),
    accountId: text(row, "account_id"),
    state: text(row, "state") as RunState,
    question: optionalText(row, "question"),
    mockCase: text(row, "mock_case"),
    reservedMinorUnits: integer(row, "reserved_minor_units"),
    drawnMinorUnits: integer(row, "drawn_minor_units"),
    releasedMinorUnits: integer(row, "released_minor_units"),
    createdAt: integer(row, "created_at"),
    updatedAt: integer(row, "updated_at"),
    finishedAt: optionalInteger(row, "finished_at"),
  };
}

/** The columns of a run list's entry, and no others (`r.` for a join). */
export const SUMMARY_COLUMNS = (alias = "") =>
  ["id", "workflow_id", "version_id", "state", "question", "created_at", "updated_at", "finished_at"].map((column) => alias + column).join(", ");

/** A run list's entry, straight from its row (SUMMARY_COLUMNS). */
export function summaryOf(row: Row): RunSummary {
  const finishedAt = optionalInteger(row, "finished_at");
  return {
    runId: text(row, "id"),
    workflowId: text(row, "workflow_id"),
    versionId: text(row, "version_id"),
    state: text(row, "state") as RunState,
    question: optionalText(row, "question"),
    createdAt: isoTime(integer(row, "created_at")),
    updatedAt: isoTime(integer(row, "updated_at")),
    finishedAt: finishedAt === null ? null : isoTime(finishedAt),
  };
}

// ---- run_nodes ------------------------------------------------------------------------------

export const NODE_VIEW_COLUMNS = "position, node_id, kind, part_id, cost_minor_units, state, output, below_floor, failure, delivered, started_at, finished_at";

/** A node as the polled run shows it (NODE_VIEW_COLUMNS): its output and failure parsed, since they are returned. */
export function nodeViewOf(row: Row): RunNodeView {
  const view: RunNodeView = { nodeId: text(row, "node_id"), kind: text(row, "kind") as RunNodeView["kind"], costMinorUnits: 0, state: "pending" };
  const partId = optionalText(row, "part_id");
  if (partId !== null) view.partId = partId;
  view.costMinorUnits = integer(row, "cost_minor_units");
  view.state = text(row, "state") as NodeState;
  const output = optionalText(row, "output");
  if (output !== null) view.output = JSON.parse(output) as Record<string, unknown>;
  if (flag(row, "below_floor")) view.belowFloor = true;
  const failure = optionalText(row, "failure");
  if (failure !== null) view.failure = JSON.parse(failure) as { code: string; message: string };
  if (flag(row, "delivered")) view.delivered = true;
  const startedAt = optionalText(row, "started_at");
  if (startedAt !== null) view.startedAt = startedAt;
  const finishedAt = optionalText(row, "finished_at");
  if (finishedAt !== null) view.finishedAt = finishedAt;
  return view;
}

/** A node that has no row yet: pending, as its version's plan has it. */
export function pendingView(node: PlannedNode): RunNodeView {
  return { nodeId: node.nodeId, kind: node.kind, ...(node.partId !== undefined ? { partId: node.partId } : {}), costMinorUnits: node.costMinorUnits, state: "pending" };
}

/**
 * The polled run: its state, usage, every node's state and output, and a child run per part.
 * `rows` are the nodes that have left `pending` (NODE_VIEW_COLUMNS, by position); the others
 * are the plan's.
 */
export function presentRun(run: RunRow, plan: readonly PlannedNode[], rows: readonly Row[]): Run {
  const nodes = plan.map(pendingView);
  for (const row of rows) nodes[integer(row, "position")] = nodeViewOf(row);
  return {
    runId: run.id,
    workflowId: run.workflowId,
    versionId: run.versionId,
    state: run.state,
    question: run.question,
    createdAt: isoTime(run.createdAt),
    updatedAt: isoTime(run.updatedAt),
    finishedAt: run.finishedAt === null ? null : isoTime(run.finishedAt),
    host: RUN_HOST,
    mockCase: run.mockCase,
    estimate: { costMinorUnits: run.reservedMinorUnits },
    usage: { reservedMinorUnits: run.reservedMinorUnits, drawnMinorUnits: run.drawnMinorUnits, releasedMinorUnits: run.releasedMinorUnits },
    childRuns: nodes
      .filter((node) => node.kind === "part")
      .map((node) => ({ runId: `${run.id}.${node.nodeId}`, nodeId: node.nodeId, partId: node.partId, state: node.state, ...(node.failure ? { failure: node.failure } : {}) })),
    nodes,
  };
}
