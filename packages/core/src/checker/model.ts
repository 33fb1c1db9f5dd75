/**
 * The checker's view of an input: nodes and edges indexed once, with the facts every rule
 * needs (which node an id names, which edges join two real nodes). Built in one O(n + e)
 * pass that reads the input defensively: any value at all may arrive here.
 */
import { type NodeKind, isPlainObject, ownField, hasOwnField } from "../model.js";
import { isVersionSaveBody } from "../body-form.js";
import { joinPointer } from "../fault.js";
import { type Adjacency, buildAdjacency } from "./graph.js";
import { type EdgeFields, FieldReader, type NodeFields } from "./read.js";
import { IdTable } from "./id-table.js";
import { jsonEqual } from "../json-equal.js";
import type { CataloguePart } from "../catalogue.js";
import { int32Array, uint8Array } from "./small-arrays.js";

export class NodeInfo implements NodeFields {
  /** Set on the second and later nodes that reuse an id: the node that owns it. */
  duplicateOf?: NodeInfo;
  /** Dense index among the graph's nodes (first occurrence of each id), or -1. */
  graphIndex = -1;
  // Read from `raw` by buildModel (see read.ts); read again only by patchModel, when `raw` is replaced.
  id: string | undefined = undefined;
  kind: NodeKind | undefined = undefined;
  partId: string | undefined = undefined;
  partVersion: unknown = undefined;
  hasTerminal = false;
  jobId: string | undefined = undefined;
  jobVersion: string | undefined = undefined;
  subjectRefs: unknown[] | undefined = undefined;
  clean = false;
  /**
   * The node's catalogue entry once RuleContext.partOf has looked it up (null: not in the
   * catalogue); undefined until then, and again after patchModel re-reads the node.
   */
  catalogueEntry: CataloguePart | null | undefined = undefined;

  constructor(
    /** Where the `nodes` array is, e.g. "/nodes" or "/scope/graph/nodes". */
    private readonly arrayPointer: string,
    /** Position in the `nodes` array. */
    readonly index: number,
    /** The node object, or null when the array entry is not an object (replaced only by patchModel). */
    public raw: Record<string, unknown> | null,
  ) {}

  /** JSON Pointer to the node; built on demand, as only faulty nodes need one. */
  get pointer(): string {
    return `${this.arrayPointer}/${this.index}`;
  }
}

export type EdgeStatus =
  | "malformed" // not an object, or from/to not strings
  | "dangling"
  | "self"
  | "duplicate"
  | "into-trigger"
  | "from-destination"
  | "ok";

/** An edge with a problem (its status is never "ok"); fine edges live in `GraphModel.okEdges`. */
export class EdgeInfo {
  /** For a duplicate edge: the file index of the first edge with the same endpoints. */
  duplicateOf = -1;

  constructor(
    private readonly arrayPointer: string,
    /** Position in the `edges` array. */
    readonly index: number,
    readonly status: Exclude<EdgeStatus, "ok">,
    /** `from` and `to` when they are strings. */
    readonly from: string | undefined,
    readonly to: string | undefined,
    readonly fromNode: NodeInfo | undefined,
    readonly toNode: NodeInfo | undefined,
  ) {}

  get pointer(): string {
    return `${this.arrayPointer}/${this.index}`;
  }

  /** JSON Pointer to another edge of the same array. */
  pointerOf(index: number): string {
    return `${this.arrayPointer}/${index}`;
  }
}

/** The edges with nothing wrong, in file order: graph indices of both ends and the file index. */
export interface OkEdges {
  readonly count: number;
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly index: Int32Array;
}

export interface TopLevelSpec {
  readonly pointer: string;
  readonly raw: unknown;
}

export interface GraphModel {
  readonly input: unknown;
  /** Where the Definition sits in the input: "" or "/scope/graph". */
  readonly graphPointer: string;
  readonly isVersionBody: boolean;
  /** The Definition object, when the input has one. */
  readonly graph: Record<string, unknown> | null;
  /** True when `nodes` is an array: without one no edge end can be judged (`shape` says why). */
  readonly nodesUsable: boolean;
  /** True when `nodes` and `edges` are both arrays, so graph-level rules can judge. */
  readonly graphUsable: boolean;
  /**
   * True when every entry of `nodes` is an object with an id to be wired by and every edge
   * names both its ends (see graphIdOf). Otherwise which node leads where is not known, and
   * reachability (`unreachable`, `dead-end`) is not judged: `shape` reports what cannot be read.
   */
  readonly wiringKnown: boolean;
  /**
   * Every object of the input has only known fields, each present when required and valid
   * (read.ts): `shape` and `unknown-field` have nothing to report. False means "look closer".
   */
  readonly clean: boolean;
  readonly nodes: NodeInfo[];
  /** How many entries the `edges` array has. */
  readonly edgeCount: number;
  /** Every edge with a problem, in file order. */
  readonly problemEdges: EdgeInfo[];
  readonly okEdges: OkEdges;
  /** The node array (empty when `nodes` is not an array). */
  readonly rawNodes: readonly unknown[];
  /** How many entries of `nodes` are not clean (see NodeInfo.clean). */
  readonly uncleanNodeCount: number;
  /** The edge array (when it is one) and the indices of its entries that are not clean objects. */
  readonly rawEdges: readonly unknown[];
  readonly uncleanEdges: readonly number[];
  /** JSON Pointer to the edges array. */
  readonly edgesPointer: string;
  /** Nodes that own their id, in document order; `graphIndex` indexes this list. */
  readonly graphNodes: NodeInfo[];
  /**
   * The entries of `nodes` by kind, each list in document order, duplicates included
   * (`unknown`: no object, or none of the four kinds), and the nodes that reuse an id. Rules
   * that judge one kind walk its list instead of every node: on a large graph each walk over
   * all the node objects costs a trip through memory.
   */
  readonly nodesByKind: NodesByKind;
  readonly duplicateNodes: readonly NodeInfo[];
  /** The node that owns each id (see IdTable). */
  readonly byId: { get(id: string): NodeInfo | undefined; has(id: string): boolean };
  readonly topLevelTrigger: TopLevelSpec | undefined;
  readonly topLevelDestinations: TopLevelSpec[];
  /** Edges with status "ok", as compressed adjacency over `graphIndex`. */
  readonly successors: Adjacency;
  readonly predecessors: Adjacency;
}

export interface NodesByKind {
  readonly trigger: readonly NodeInfo[];
  readonly part: readonly NodeInfo[];
  readonly gate: readonly NodeInfo[];
  readonly destination: readonly NodeInfo[];
  readonly unknown: readonly NodeInfo[];
}

export function buildModel(input: unknown): GraphModel {
  const { isVersionBody, graphPointer, graph, rawNodes, rawEdges } = locateGraph(input);
  const nodeList: unknown[] = Array.isArray(rawNodes) ? rawNodes : [];
  const edgeList: unknown[] = Array.isArray(rawEdges) ? rawEdges : [];

  const nodes: NodeInfo[] = new Array(nodeList.length);
  const graphNodes: NodeInfo[] = [];
  const byId = new IdTable<NodeInfo>(nodeList.length, graphNodes);
  const nodesPointer = joinPointer(graphPointer, "nodes");
  const reader = new FieldReader();
  const envelopeClean = graph !== null && isCleanEnvelope(reader, input, graph, isVersionBody);
  let uncleanNodeCount = 0;
  const nodesByKind = { trigger: [] as NodeInfo[], part: [] as NodeInfo[], gate: [] as NodeInfo[], destination: [] as NodeInfo[], unknown: [] as NodeInfo[] };
  const duplicateNodes: NodeInfo[] = [];
  // Entries of `nodes` with no id to be wired by, and edges whose ends cannot be read.
  let unwiredCount = 0;
  // By graph index: whether the node is a trigger or a destination, for the edge walk below
  // (a typed array read instead of a visit to each edge's node objects).
  const endKinds = uint8Array(nodeList.length);
  for (let index = 0; index < nodeList.length; index++) {
    const value = nodeList[index];
    const raw = isPlainObject(value) ? value : null;
    const info = new NodeInfo(nodesPointer, index, raw);
    if (raw) reader.readNode(raw, info);
    nodes[index] = info;
    if (!info.clean) uncleanNodeCount++;
    switch (info.kind) {
      case "part": nodesByKind.part.push(info); break;
      case "trigger": nodesByKind.trigger.push(info); break;
      case "gate": nodesByKind.gate.push(info); break;
      case "destination": nodesByKind.destination.push(info); break;
      default: nodesByKind.unknown.push(info);
    }
    if (info.id === undefined) {
      unwiredCount++;
      continue;
    }
    const graphIndex = graphNodes.length;
    const owner = byId.claim(info as NodeInfo & { id: string });
    if (owner === info) {
      info.graphIndex = graphIndex;
      endKinds[graphIndex] = info.kind === "trigger" ? TRIGGER_END : info.kind === "destination" ? DESTINATION_END : 0;
    } else {
      info.duplicateOf = owner;
      duplicateNodes.push(info);
    }
  }

  // Most edges are fine, and a fine edge needs no object of its own: it lives in the typed
  // arrays below (and in the adjacency). Only edges with a problem get an EdgeInfo.
  const edgesPointer = joinPointer(graphPointer, "edges");
  const problemEdges: EdgeInfo[] = [];
  const uncleanEdges: number[] = [];
  const scratch: EdgeFields = { from: undefined, to: undefined, clean: false };
  const problem = (index: number, status: EdgeInfo["status"], fields: EdgeFields, fromNode: NodeInfo | undefined, toNode: NodeInfo | undefined): EdgeInfo => {
    const edge = new EdgeInfo(edgesPointer, index, status, fields.from, fields.to, fromNode, toNode);
    problemEdges.push(edge);
    return edge;
  };
  // Endpoints (graph indices) and file index of edges joining two distinct nodes, in file order.
  const joinFrom = int32Array(edgeList.length);
  const joinTo = int32Array(edgeList.length);
  const joinIndex = int32Array(edgeList.length);
  let joinedCount = 0;
  // Ends are resolved to graph indices (-1: no such node); node objects are touched only for
  // edges with a problem.
  let lastFrom: string | undefined;
  let lastTo: string | undefined;
  let lastFromIndex = -1;
  let lastToIndex = -1;
  for (let index = 0; index < edgeList.length; index++) {
    const value = edgeList[index];
    const raw = isPlainObject(value) ? value : null;
    if (raw) reader.readEdge(raw, scratch);
    else scratch.from = scratch.to = undefined;
    if (!raw || !scratch.clean) uncleanEdges.push(index);
    const { from, to } = scratch;
    // Edge lists are written along paths (`a -> b -> c` gives a→b, b→c) and fans (`a -> [b, c]`
    // gives a→b, a→c), so an end often repeats one of the previous edge's: comparing with
    // those first skips most hash lookups, the costliest step of the model.
    const fromIndex = from === undefined ? -1 : from === lastTo ? lastToIndex : from === lastFrom ? lastFromIndex : byId.indexOf(from);
    const toIndex = to === undefined ? -1 : to === lastTo ? lastToIndex : to === lastFrom ? lastFromIndex : byId.indexOf(to);
    lastFrom = from;
    lastFromIndex = fromIndex;
    lastTo = to;
    lastToIndex = toIndex;
    if (fromIndex >= 0 && toIndex >= 0 && fromIndex !== toIndex) {
      joinFrom[joinedCount] = fromIndex;
      joinTo[joinedCount] = toIndex;
      joinIndex[joinedCount] = index;
      joinedCount++;
      continue;
    }
    const fromNode = fromIndex < 0 ? undefined : graphNodes[fromIndex];
    const toNode = toIndex < 0 ? undefined : graphNodes[toIndex];
    if (from === undefined || to === undefined) {
      problem(index, "malformed", scratch, fromNode, toNode);
      unwiredCount++;
    }
    else if (!fromNode || !toNode) problem(index, "dangling", scratch, fromNode, toNode);
    else problem(index, "self", scratch, fromNode, toNode);
  }

  // One walk over each node's joined edges, in file order, finds the repeats (remembering
  // for each target the first edge that reached it from this node), the edges into a trigger
  // or out of a destination, and lays out the successors of the remaining ("ok") edges.
  // Grouping by source with a stable counting sort keeps file order within each node, so the
  // successor lists come out exactly as a counting sort of the ok edges would make them.
  const size = graphNodes.length;
  const joinedOrder = int32Array(joinedCount);
  for (let e = 0; e < joinedCount; e++) joinedOrder[e] = e;
  const byEdge = buildAdjacency(size, joinFrom, joinedOrder, joinedCount);
  const firstEdgeTo = int32Array(size).fill(-1);
  const isOk = uint8Array(joinedCount);
  const successorOffsets = int32Array(size + 1);
  const successorTargets = int32Array(joinedCount);
  let okCount = 0;
  const endpoints = (e: number): EdgeFields => ({ from: graphNodes[joinFrom[e]!]!.id, to: graphNodes[joinTo[e]!]!.id, clean: false });
  for (let node = 0; node < size; node++) {
    const fromDestination = endKinds[node] === DESTINATION_END;
    const startK = byEdge.offsets[node]!;
    const endK = byEdge.offsets[node + 1]!;
    for (let k = startK; k < endK; k++) {
      const e = byEdge.targets[k]!;
      const target = joinTo[e]!;
      const first = firstEdgeTo[target]!;
      if (first >= startK && first < k) {
        problem(joinIndex[e]!, "duplicate", endpoints(e), graphNodes[node]!, graphNodes[target]!).duplicateOf = joinIndex[byEdge.targets[first]!]!;
        continue;
      }
      firstEdgeTo[target] = k;
      if (endKinds[target] === TRIGGER_END) problem(joinIndex[e]!, "into-trigger", endpoints(e), graphNodes[node]!, graphNodes[target]!);
      else if (fromDestination) problem(joinIndex[e]!, "from-destination", endpoints(e), graphNodes[node]!, graphNodes[target]!);
      else {
        isOk[e] = 1;
        successorTargets[okCount++] = target;
      }
    }
    successorOffsets[node + 1] = okCount;
  }
  // When every joined edge is fine (a valid graph), the ok edges are the joined ones: views
  // of the same arrays, which nothing writes to any more, instead of copies.
  const allOk = okCount === joinedCount;
  const okFrom = allOk ? joinFrom.subarray(0, okCount) : int32Array(okCount);
  const okTo = allOk ? joinTo.subarray(0, okCount) : int32Array(okCount);
  const okIndex = allOk ? joinIndex.subarray(0, okCount) : int32Array(okCount);
  if (!allOk)
    for (let e = 0, o = 0; e < joinedCount; e++) {
      if (isOk[e] === 0) continue;
      okFrom[o] = joinFrom[e]!;
      okTo[o] = joinTo[e]!;
      okIndex[o] = joinIndex[e]!;
      o++;
    }
  // Problems were found in two passes; rules report them in file order.
  problemEdges.sort((a, b) => a.index - b.index);
  const successors = { offsets: successorOffsets, targets: successorTargets.subarray(0, okCount) };
  const predecessors = buildAdjacency(size, okTo, okFrom, okCount);

  const { topLevelTrigger, topLevelDestinations } = topLevelSpecs(input, isVersionBody);

  return {
    input,
    graphPointer,
    isVersionBody,
    graph,
    nodesUsable: Array.isArray(rawNodes),
    graphUsable: Array.isArray(rawNodes) && Array.isArray(rawEdges),
    wiringKnown: unwiredCount === 0,
    clean: envelopeClean && uncleanNodeCount === 0 && uncleanEdges.length === 0,
    nodes,
    edgeCount: edgeList.length,
    problemEdges,
    okEdges: { count: okCount, from: okFrom, to: okTo, index: okIndex },
    rawNodes: nodeList,
    uncleanNodeCount,
    rawEdges: edgeList,
    uncleanEdges,
    edgesPointer,
    graphNodes,
    nodesByKind,
    duplicateNodes,
    byId,
    topLevelTrigger,
    topLevelDestinations,
    successors,
    predecessors,
  };
}

/** Values of buildModel's `endKinds`. */
const TRIGGER_END = 1;
const DESTINATION_END = 2;

/** Where the Definition is in `input`, and its node and edge arrays (whatever they are). */
function locateGraph(input: unknown) {
  const isVersionBody = isVersionSaveBody(input);
  const graphPointer = isVersionBody ? "/scope/graph" : "";
  let graph: Record<string, unknown> | null = null;
  if (isVersionBody) {
    const scope = ownField(input, "scope");
    const inner = isPlainObject(scope) ? ownField(scope, "graph") : undefined;
    graph = isPlainObject(inner) ? inner : null;
  } else if (isPlainObject(input)) {
    graph = input;
  }
  const rawNodes = graph ? ownField(graph, "nodes") : undefined;
  const rawEdges = graph ? ownField(graph, "edges") : undefined;
  return { isVersionBody, graphPointer, graph, rawNodes, rawEdges };
}

/** A version-save body's own `trigger` and `destinations`. */
function topLevelSpecs(input: unknown, isVersionBody: boolean): { topLevelTrigger: TopLevelSpec | undefined; topLevelDestinations: TopLevelSpec[] } {
  let topLevelTrigger: TopLevelSpec | undefined;
  const topLevelDestinations: TopLevelSpec[] = [];
  if (isVersionBody) {
    const body = input as Record<string, unknown>;
    if (hasOwnField(body, "trigger")) topLevelTrigger = { pointer: "/trigger", raw: ownField(body, "trigger") };
    const destinations = ownField(body, "destinations");
    if (Array.isArray(destinations))
      destinations.forEach((raw, i) => topLevelDestinations.push({ pointer: `/destinations/${i}`, raw }));
  }
  return { topLevelTrigger, topLevelDestinations };
}

/**
 * The model of `input`, made from `previous` (the model of an earlier input) when `input`
 * differs from it only inside node objects, for callers that build a new version of a
 * document from the old one's objects (the DSL's CompileCache does) and never mutate an
 * object once checked. The edge array must hold the same edges (the very objects, or equal
 * ones), and the node array the same node objects but for the ones returned in `changed`,
 * each with the id and kind of the node it replaces; then the ids, the edges and everything
 * derived from them are as before, and only the changed nodes are read again. `changed`
 * lists the nodes whose content changed (a new object equal to the old one, key order
 * included, is not a change). Returns undefined when `input` is not such a version (the
 * caller then builds the model afresh).
 *
 * `previous` is consumed: its NodeInfo objects are updated in place and shared with the
 * result, so only the result may be used afterwards.
 */
export function patchModel(previous: GraphModel, input: unknown): { model: GraphModel; changed: number[] } | undefined {
  const { isVersionBody, graph, rawNodes, rawEdges } = locateGraph(input);
  if (graph === null || isVersionBody !== previous.isVersionBody || !previous.graphUsable) return undefined;
  if (!Array.isArray(rawNodes) || !Array.isArray(rawEdges)) return undefined;
  const oldNodes = previous.rawNodes;
  const oldEdges = previous.rawEdges;
  if (rawNodes.length !== oldNodes.length || rawEdges.length !== oldEdges.length) return undefined;
  for (let i = 0; i < rawEdges.length; i++)
    if (rawEdges[i] !== oldEdges[i] && !jsonEqual(rawEdges[i], oldEdges[i], { keyOrder: true })) return undefined;
  // A node compiled again from unchanged text is a new object with the same content: it is
  // not a change (its reading and its faults, pointers included, would be the same).
  const changed: number[] = [];
  const sameContent: number[] = [];
  for (let i = 0; i < rawNodes.length; i++) {
    if (rawNodes[i] === oldNodes[i]) continue;
    if (jsonEqual(rawNodes[i], oldNodes[i], { keyOrder: true })) sameContent.push(i);
    else changed.push(i);
  }

  // Read every changed node before touching the model, so a refusal leaves `previous` whole.
  const reader = new FieldReader();
  const readings: NodeInfo[] = [];
  for (const index of changed) {
    const info = previous.nodes[index]!;
    const value = rawNodes[index];
    if (info.raw === null || !isPlainObject(value)) return undefined;
    const reading = new NodeInfo("", index, value);
    reader.readNode(value, reading);
    if (reading.id !== info.id || reading.kind !== info.kind) return undefined;
    readings.push(reading);
  }
  for (const index of sameContent) if (previous.nodes[index]!.raw) previous.nodes[index]!.raw = rawNodes[index] as Record<string, unknown>;
  let uncleanNodeCount = previous.uncleanNodeCount;
  changed.forEach((index, k) => {
    const info = previous.nodes[index]!;
    const reading = readings[k]!;
    uncleanNodeCount += Number(!reading.clean) - Number(!info.clean);
    info.raw = reading.raw;
    copyFields(reading, info);
  });
  const envelopeClean = isCleanEnvelope(reader, input, graph, isVersionBody);
  return {
    model: {
      ...previous,
      input,
      graph,
      clean: envelopeClean && uncleanNodeCount === 0 && previous.uncleanEdges.length === 0,
      rawNodes,
      uncleanNodeCount,
      rawEdges,
      ...topLevelSpecs(input, isVersionBody),
    },
    changed,
  };
}

function copyFields(from: NodeFields, to: NodeInfo): void {
  to.id = from.id;
  to.kind = from.kind;
  to.partId = from.partId;
  to.partVersion = from.partVersion;
  to.hasTerminal = from.hasTerminal;
  to.jobId = from.jobId;
  to.jobVersion = from.jobVersion;
  to.subjectRefs = from.subjectRefs;
  to.clean = from.clean;
  to.catalogueEntry = undefined;
}

/**
 * The objects around the nodes and edges: the Definition (`schemaVersion` 1, `nodes` and
 * `edges` arrays, nothing else) and, for a version-save body, the body and its `scope`.
 */
function isCleanEnvelope(reader: FieldReader, input: unknown, graph: Record<string, unknown>, isVersionBody: boolean): boolean {
  if (!reader.canEnumerateOwnFields(graph)) return false;
  let schemaVersion = false;
  let nodes = false;
  let edges = false;
  for (const field in graph) {
    const value = graph[field];
    if (field === "schemaVersion" && value === 1) schemaVersion = true;
    else if (field === "nodes" && Array.isArray(value)) nodes = true;
    else if (field === "edges" && Array.isArray(value)) edges = true;
    else return false;
  }
  if (!(schemaVersion && nodes && edges)) return false;
  if (!isVersionBody) return true;
  const body = input as Record<string, unknown>;
  if (!reader.canEnumerateOwnFields(body)) return false;
  for (const field in body) {
    const value = body[field];
    if (field === "scope") {
      if (!isPlainObject(value) || !reader.canEnumerateOwnFields(value)) return false;
      for (const inner in value) if (inner !== "graph") return false;
    } else if (field === "trigger") {
      if (!reader.isCleanTriggerSpec(value)) return false;
    } else if (field === "destinations") {
      if (!Array.isArray(value) || !value.every((spec) => reader.isCleanDestinationSpec(spec))) return false;
    } else return false;
  }
  return true;
}
