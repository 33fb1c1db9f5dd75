/**
 * The Definition model: the graph the workflows service validates and saves
 * (schemaVersion 1), and the version-save body that wraps it.
 *
 * Every object type is open (`[field: string]: unknown`): fields wfkit does not know are
 * kept and passed through untouched, and reported as `unknown-field` warnings.
 */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };

/** The only schema version the service accepts. */
export const SCHEMA_VERSION = 1;

export const TRIGGER_KINDS = ["on_demand", "scheduled"] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export const GATE_BELOW_FLOOR = ["hold"] as const;
export const DESTINATION_KINDS = ["standalone"] as const;

/** The kinds a node may have. A node with no `kind` but a `partId` is a part. */
export const NODE_KINDS = ["trigger", "part", "gate", "destination"] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** What starts a run: the `trigger` object of a trigger node, or the body's top-level `trigger`. */
export interface TriggerSpec {
  kind: TriggerKind;
  /** Scheduled triggers only (assumption: the reference does not show their fields). */
  schedule?: string;
  timezone?: string;
  [field: string]: unknown;
}

/** Where results go: the `destination` object of a destination node, or an entry of `destinations`. */
export interface DestinationSpec {
  kind: "standalone";
  [field: string]: unknown;
}

/** A subject pinned by resolving a hint: the only form a terminal part accepts. */
export interface Subject {
  canonicalId: string;
  kind: "company";
  label?: string;
  identifiers?: unknown[];
  [field: string]: unknown;
}

export interface TerminalJob {
  id: string;
  version: string;
  [field: string]: unknown;
}

export interface TerminalSpec {
  job: TerminalJob;
  /** Pinned subjects. Names or hints are faults (`subject-not-canonical`). */
  subjectRefs: unknown[];
  [field: string]: unknown;
}

export interface TriggerNode {
  id: string;
  kind: "trigger";
  trigger: TriggerSpec;
  [field: string]: unknown;
}

export interface PartNode {
  id: string;
  /** Parts carry no `kind` in the reference; `"part"` is accepted as an explicit spelling. */
  kind?: "part";
  partId: string;
  partVersion: string;
  terminal?: TerminalSpec;
  [field: string]: unknown;
}

export interface GateNode {
  id: string;
  kind: "gate";
  belowFloor: "hold";
  [field: string]: unknown;
}

export interface DestinationNode {
  id: string;
  kind: "destination";
  destination: DestinationSpec;
  [field: string]: unknown;
}

export type WorkflowNode = TriggerNode | PartNode | GateNode | DestinationNode;

export interface Edge {
  from: string;
  to: string;
  [field: string]: unknown;
}

export interface Definition {
  schemaVersion: 1;
  nodes: WorkflowNode[];
  edges: Edge[];
  [field: string]: unknown;
}

/** The body of `POST /workflows/{wf}/versions`: the graph, and optionally its trigger and destinations. */
export interface VersionSaveBody {
  scope: { graph: Definition; [field: string]: unknown };
  trigger?: TriggerSpec;
  destinations?: DestinationSpec[];
  [field: string]: unknown;
}

export type DefinitionInput = Definition | VersionSaveBody;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads an own property only: inherited names such as `__proto__` or `toString` never count. */
export function ownField(object: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined;
}

export function hasOwnField(object: Record<string, unknown>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, name);
}
