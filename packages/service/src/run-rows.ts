/**
 * The run tables' rows: `runs` (a run's header: who, what, usage, state) and `run_nodes` (one
 * row a node: its state, output and charge), with their typed mappers and the wire shapes made
 * from them. Each read selects the columns its answer needs: a run list reads no node, the walk
 * reads no output, and only the polled run parses outputs, which it returns.
 */
import type { NodeState, Run, RunNodeView, RunSummary } from "@wfkit/client";
import { RUN_HOST, type RunState } from "./policy.js";
import { flag, integer, optionalInteger, optionalText, text } from "./rows.js";
import type { Row } from "./store.js";

const ISO = (ms: number) => new Date(ms).toISOString();

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
    createdAt: ISO(integer(row, "created_at")),
    updatedAt: ISO(integer(row, "updated_at")),
    finishedAt: finishedAt === null ? null : ISO(finishedAt),
  };
}

// ---- run_nodes ------------------------------------------------------------------------------

/** A node as the walk reads it: everything but its output and failure (WALK_COLUMNS). */
export interface WalkNode {
  position: number;
  nodeId: string;
  kind: RunNodeView["kind"];
  partId: string | null;
  costMinorUnits: number;
  /** The ids of the nodes it waits on, as stored (JSON); parsed only for a node the walk reaches. */
  upstreamJson: string;
  state: NodeState;
  belowFloor: boolean;
  delivered: boolean;
}

export const WALK_COLUMNS = "position, node_id, kind, part_id, cost_minor_units, upstream, state, below_floor, delivered";

export function walkNodeOf(row: Row): WalkNode {
  return {
    position: integer(row, "position"),
    nodeId: text(row, "node_id"),
    kind: text(row, "kind") as RunNodeView["kind"],
    partId: optionalText(row, "part_id"),
    costMinorUnits: integer(row, "cost_minor_units"),
    upstreamJson: text(row, "upstream"),
    state: text(row, "state") as NodeState,
    belowFloor: flag(row, "below_floor"),
    delivered: flag(row, "delivered"),
  };
}

export const NODE_VIEW_COLUMNS = "node_id, kind, part_id, cost_minor_units, state, output, below_floor, failure, delivered, started_at, finished_at";

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

/** The polled run: its state, usage, every node's state and output, and a child run per part. */
export function presentRun(run: RunRow, nodes: RunNodeView[]): Run {
  return {
    runId: run.id,
    workflowId: run.workflowId,
    versionId: run.versionId,
    state: run.state,
    question: run.question,
    createdAt: ISO(run.createdAt),
    updatedAt: ISO(run.updatedAt),
    finishedAt: run.finishedAt === null ? null : ISO(run.finishedAt),
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
