/**
 * What `wfkit deploy` would change, as `terraform plan` shows it: the body about to be saved
 * against the one this project last deployed to the workflow (kept in .wfkit/state.json),
 * node by node (by id) and edge by edge (by its ends), with each changed field's path and
 * its values before and after; and every other field of the body (a version-save body's
 * trigger and destinations, the graph's `schemaVersion`...). Pure.
 */
import { isPlainObject, isVersionSaveBody } from "@wfkit/core";
import { printable } from "./printable.js";
import { canonicalJson } from "./state-file.js";

export interface FieldChange {
  /** Where, as a dotted path (`terminal.job.version`, `subjectRefs[1].label`); `` for the whole value. */
  path: string;
  /** Absent when the field is new. */
  before?: unknown;
  /** Absent when the field is gone. */
  after?: unknown;
}

export interface NodeSummary {
  id: string;
  /** trigger, part, gate, destination (or what the node's `kind` says). */
  kind: string;
  /** The part id and version, the trigger's or destination's kind, the gate's belowFloor. */
  detail?: string;
}

export interface EdgeSummary {
  from: string;
  to: string;
}

export interface PlanChanges {
  nodes: { added: NodeSummary[]; removed: NodeSummary[]; changed: (NodeSummary & { fields: FieldChange[] })[] };
  edges: { added: EdgeSummary[]; removed: EdgeSummary[]; changed: (EdgeSummary & { fields: FieldChange[] })[] };
  /** The body's fields outside the graph's nodes and edges. */
  other: FieldChange[];
}

/** Field changes listed per node, edge or body at most: more are summed up in one line. */
const MAX_FIELDS = 20;

/**
 * The nodes and edges of a definition or version-save body, and the rest of the body with
 * paths as it writes them (`schemaVersion`, or `scope.graph.schemaVersion` and `trigger.kind`).
 */
function split(body: unknown): { nodes: unknown[]; edges: unknown[]; rest: unknown } {
  const graphParts = (graph: unknown) => {
    if (!isPlainObject(graph)) return { nodes: [], edges: [], graphRest: graph };
    const { nodes, edges, ...graphRest } = graph;
    return { nodes: Array.isArray(nodes) ? nodes : [], edges: Array.isArray(edges) ? edges : [], graphRest };
  };
  if (isVersionSaveBody(body) && isPlainObject(body.scope)) {
    const { nodes, edges, graphRest } = graphParts(body.scope.graph);
    return { nodes, edges, rest: { ...body, scope: { ...body.scope, graph: graphRest } } };
  }
  const { nodes, edges, graphRest } = graphParts(body);
  return { nodes, edges, rest: graphRest };
}

export function summarizeNode(node: unknown): NodeSummary {
  const object = isPlainObject(node) ? node : {};
  const id = typeof object.id === "string" ? object.id : String(object.id);
  const kind = typeof object.kind === "string" ? object.kind : typeof object.partId === "string" ? "part" : "node";
  const nested = (key: string) => (isPlainObject(object[key]) && typeof (object[key] as Record<string, unknown>).kind === "string" ? String((object[key] as Record<string, unknown>).kind) : undefined);
  const detail =
    kind === "part" && typeof object.partId === "string"
      ? `${object.partId}${typeof object.partVersion === "string" ? `@${object.partVersion}` : ""}`
      : kind === "gate" && typeof object.belowFloor === "string"
        ? object.belowFloor
        : kind === "trigger"
          ? nested("trigger")
          : kind === "destination"
            ? nested("destination")
            : undefined;
  return detail === undefined ? { id, kind } : { id, kind, detail };
}

function edgeKey(edge: unknown): EdgeSummary {
  const object = isPlainObject(edge) ? edge : {};
  return { from: String(object.from), to: String(object.to) };
}

/** Items keyed, the n-th item with a repeated key told apart by its occurrence. */
function keyed(items: readonly unknown[], keyOf: (item: unknown) => string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const seen = new Map<string, number>();
  for (const item of items) {
    const key = keyOf(item);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    out.set(n ? `${key}\u0000${n}` : key, item);
  }
  return out;
}

/** The leaves where `before` and `after` differ (objects by key, arrays of one length by index; anything else whole). */
export function fieldChanges(before: unknown, after: unknown, at = "", out: FieldChange[] = []): FieldChange[] {
  if (canonicalJson(before) === canonicalJson(after)) return out;
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const where = at ? `${at}.${key}` : key;
      if (!Object.hasOwn(after, key)) out.push({ path: where, before: before[key] });
      else if (!Object.hasOwn(before, key)) out.push({ path: where, after: after[key] });
      else fieldChanges(before[key], after[key], where, out);
    }
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((item, i) => fieldChanges(item, after[i], `${at}[${i}]`, out));
    return out;
  }
  out.push({ path: at, before, after });
  return out;
}

/** What differs from `before` (undefined: nothing deployed from this project yet, so everything is new) to `after`. */
export function planChanges(before: unknown, after: unknown): PlanChanges {
  const now = split(after);
  // Nothing deployed yet: compared with an empty body of the same form, so everything is new.
  const old = before === undefined ? { nodes: [], edges: [], rest: isPlainObject(now.rest) && isPlainObject(now.rest.scope) ? { scope: { graph: {} } } : {} } : split(before);
  const changes: PlanChanges = { nodes: { added: [], removed: [], changed: [] }, edges: { added: [], removed: [], changed: [] }, other: [] };
  const nodeKey = (node: unknown) => summarizeNode(node).id;
  const oldNodes = keyed(old.nodes, nodeKey);
  const newNodes = keyed(now.nodes, nodeKey);
  for (const [key, node] of newNodes) {
    if (!oldNodes.has(key)) changes.nodes.added.push(summarizeNode(node));
    else {
      const fields = fieldChanges(oldNodes.get(key), node);
      if (fields.length) changes.nodes.changed.push({ ...summarizeNode(node), fields });
    }
  }
  for (const [key, node] of oldNodes) if (!newNodes.has(key)) changes.nodes.removed.push(summarizeNode(node));
  const edgeId = (edge: unknown) => JSON.stringify(edgeKey(edge));
  const oldEdges = keyed(old.edges, edgeId);
  const newEdges = keyed(now.edges, edgeId);
  for (const [key, edge] of newEdges) {
    if (!oldEdges.has(key)) changes.edges.added.push(edgeKey(edge));
    else {
      const fields = fieldChanges(oldEdges.get(key), edge);
      if (fields.length) changes.edges.changed.push({ ...edgeKey(edge), fields });
    }
  }
  for (const [key, edge] of oldEdges) if (!newEdges.has(key)) changes.edges.removed.push(edgeKey(edge));
  changes.other = fieldChanges(old.rest, now.rest);
  return changes;
}

export function changeCount(changes: PlanChanges): { add: number; change: number; remove: number } {
  return {
    add: changes.nodes.added.length + changes.edges.added.length + changes.other.filter((field) => !("before" in field)).length,
    change: changes.nodes.changed.length + changes.edges.changed.length + changes.other.filter((field) => "before" in field && "after" in field).length,
    remove: changes.nodes.removed.length + changes.edges.removed.length + changes.other.filter((field) => !("after" in field)).length,
  };
}

/** A value as one short line: compact JSON, cut at 60 characters, shown through `printable`. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? "undefined";
  return printable(json.length > 60 ? `${json.slice(0, 59)}…` : json);
}

function describeField(field: FieldChange): string {
  const where = field.path ? `${printable(field.path)}: ` : "";
  if (!("before" in field)) return `${where}${shown(field.after)} (new)`;
  if (!("after" in field)) return `${where}${shown(field.before)} (gone)`;
  return `${where}${shown(field.before)} → ${shown(field.after)}`;
}

function describeFields(fields: readonly FieldChange[]): string {
  const listed = fields.slice(0, MAX_FIELDS).map(describeField);
  if (fields.length > MAX_FIELDS) listed.push(`and ${fields.length - MAX_FIELDS} more`);
  return listed.join("; ");
}

function describeNode(node: NodeSummary): string {
  return `${printable(node.kind)} ${printable(node.id)}${node.detail === undefined ? "" : ` (${printable(node.detail)})`}`;
}

const describeEdge = (edge: EdgeSummary) => `edge ${printable(edge.from)} -> ${printable(edge.to)}`;

/** The plan's lines, terraform's way: `+` added, `-` removed, `~` changed; the counts last. */
export function renderChanges(changes: PlanChanges): string[] {
  const lines = [
    ...changes.nodes.added.map((node) => `  + ${describeNode(node)}`),
    ...changes.nodes.removed.map((node) => `  - ${describeNode(node)}`),
    ...changes.nodes.changed.map((node) => `  ~ ${describeNode(node)}: ${describeFields(node.fields)}`),
    ...changes.edges.added.map((edge) => `  + ${describeEdge(edge)}`),
    ...changes.edges.removed.map((edge) => `  - ${describeEdge(edge)}`),
    ...changes.edges.changed.map((edge) => `  ~ ${describeEdge(edge)}: ${describeFields(edge.fields)}`),
    ...changes.other.slice(0, MAX_FIELDS).map((field) => `  ${!("before" in field) ? "+" : !("after" in field) ? "-" : "~"} ${describeField(field)}`),
  ];
  if (changes.other.length > MAX_FIELDS) lines.push(`  ~ and ${changes.other.length - MAX_FIELDS} more fields outside the graph`);
  const count = changeCount(changes);
  lines.push(`  ${count.add} to add, ${count.change} to change, ${count.remove} to remove`);
  return lines;
}
