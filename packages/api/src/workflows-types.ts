/**
 * The Workflows API on the wire: every request and response body, in one place. The client
 * reads these and `@wfkit/service` answers with them (its handlers' return types), so the two
 * cannot drift: a change here that the service does not follow fails its build. Which route
 * answers with which is `WorkflowsAnswers` (`routes.ts`).
 *
 * Where the reference leaves a shape "not shown", the shape is the local service's choice,
 * listed in docs/service.md under Assumptions.
 */
import type { Catalogue, Definition, Estimate, Fault } from "@wfkit/core";
import type { NodeState, RunState, UnresolvedReason } from "./enums.js";

export interface PartsResponse {
  catalogueVersion: 1;
  parts: Catalogue["parts"];
}

export interface ResolveSubjectsRequest {
  hints: string[];
}

export interface ResolvedSubject {
  canonicalId: string;
  kind: "company";
  label: string;
  identifiers: unknown[];
}

export interface UnresolvedHint {
  hint: string;
  reason: UnresolvedReason;
  candidates?: { canonicalId: string; label: string; ticker: string }[];
}

export interface ResolveSubjectsResponse {
  subjects: ResolvedSubject[];
  unresolved: UnresolvedHint[];
}

export interface ValidateDefinitionResponse {
  ok: true;
  definition: unknown;
  estimate: Estimate;
  /** Warnings only: a definition with errors is a `400 validation_failed`. */
  warnings: Fault[];
}

export interface Template {
  id: string;
  name: string;
  description: string;
  definition: Definition;
}

export interface CreateWorkflowResponse {
  workflow: { id: string; name: string };
}

/** A version save body: `{scope: {graph}}`, optionally with top-level trigger and destinations. */
export interface SaveVersionRequest {
  scope: { graph: unknown };
  trigger?: unknown;
  destinations?: unknown;
}

export interface SaveVersionResponse {
  version: { id: string; workflowId: string; published: false; estimate: Estimate; createdAt: string };
}

export interface PublishResponse {
  ok: true;
  workflow: { id: string; publishedVersionId: string };
  version: { id: string; published: true; publishedAt: string };
}

export interface StartRunRequest {
  question?: string;
}

export interface StartRunResponse {
  ok: true;
  runId: string;
  host: string;
  estimate: { costMinorUnits: number };
}

export interface RunSummary {
  runId: string;
  workflowId: string;
  versionId: string;
  state: RunState;
  question: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface ChildRun {
  runId: string;
  nodeId: string;
  partId: string | undefined;
  state: NodeState;
  failure?: { code: string; message: string };
}

export interface RunNodeView {
  nodeId: string;
  kind: "trigger" | "part" | "gate" | "destination";
  partId?: string;
  /** What this node draws from the reservation when it finishes with a value. */
  costMinorUnits: number;
  state: NodeState;
  output?: Record<string, unknown>;
  belowFloor?: boolean;
  failure?: { code: string; message: string };
  /** Set on a gate whose held result was delivered. */
  delivered?: boolean;
  startedAt?: string;
  finishedAt?: string;
}

/** The polled run. */
export interface Run extends RunSummary {
  host: string;
  mockCase: string;
  estimate: { costMinorUnits: number };
  usage: { reservedMinorUnits: number; drawnMinorUnits: number; releasedMinorUnits: number };
  childRuns: ChildRun[];
  nodes: RunNodeView[];
}

export interface RunListResponse {
  runs: RunSummary[];
}

/** Deliver and cancel both answer with the run as it is afterwards. */
export interface RunChangeResponse {
  ok: true;
  run: Run;
}

/** Every refusal: `error` is the stable code, `message` says what is wrong and what to do. */
export interface ErrorBody {
  error: string;
  message: string;
  [field: string]: unknown;
}
