/**
 * The checker's view of an input: nodes and edges indexed once, with the facts every rule
 * needs (which node an id names, which edges join two real nodes). Built in one O(n + e)
 * pass that reads the input defensively: any value at all may arrive here.
 */
import { type NodeKind, isPlainObject, isVersionSaveBody, ownField, hasOwnField } from "../model.js";
import { joinPointer } from "../fault.js";
import { type Adjacency, buildAdjacency } from "./graph.js";
import { type EdgeFields, FieldReader, type NodeFields } from "./read.js";

export class NodeInfo implements NodeFields {
  /** Set on the second and later nodes that reuse an id: the node that owns it. */
  duplicateOf?: NodeInfo;
  /** Dense index among the graph's nodes (first occurrence of each id), or -1. */
  graphIndex = -1;
  // Read from `raw` once by buildModel (see read.ts); never changed after.
  id: string | undefined = undefined;
  kind: NodeKind | undefined = undefined;
  partId: string | undefined = undefined;
  partVersion: unknown = undefined;
  hasTerminal = false;
  terminal: unknown = undefined;
  clean = false;

  constructor(
    /** Where the `nodes` array is, e.g. "/nodes" or "/scope/graph/nodes". */
    private readonly arrayPointer: string,
    /** Position in the `nodes` array. */
    readonly index: number,
    /** The node object, or null when the array entry is not an object. */
    readonly raw: Record<string, unknown> | null,
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
  /** True when `nodes` and `edges` are both arrays, so graph-level rules can judge. */
  readonly graphUsable: boolean;
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
  /** The edge array (when it is one) and the indices of its entries that are not clean objects. */
  readonly rawEdges: readonly unknown[];
  readonly uncleanEdges: readonly number[];
  /** JSON Pointer to the edges array. */
  readonly edgesPointer: string;
  /** Nodes that own their id, in document order; `graphIndex` indexes this list. */
  readonly graphNodes: NodeInfo[];
  readonly byId: Map<string, NodeInfo>;
  readonly topLevelTrigger: TopLevelSpec | undefined;
  readonly topLevelDestinations: TopLevelSpec[];
  /** Edges with status "ok", as compressed adjacency over `graphIndex`. */
  readonly successors: Adjacency;
  readonly predecessors: Adjacency;
}

export function buildModel(input: unknown): GraphModel {
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
  const nodeList: unknown[] = Array.isArray(rawNodes) ? rawNodes : [];
  const edgeList: unknown[] = Array.isArray(rawEdges) ? rawEdges : [];

  const nodes: NodeInfo[] = new Array(nodeList.length);
  const graphNodes: NodeInfo[] = [];
  const byId = new Map<string, NodeInfo>();
  const nodesPointer = joinPointer(graphPointer, "nodes");
  const reader = new FieldReader();
  let clean = graph !== null && isCleanEnvelope(reader, input, graph, isVersionBody);
  for (let index = 0; index < nodeList.length; index++) {
    const value = nodeList[index];
    const raw = isPlainObject(value) ? value : null;
    const info = new NodeInfo(nodesPointer, index, raw);
    if (raw) reader.readNode(raw, info);
    nodes[index] = info;
    clean &&= info.clean;
    const id = info.id;
    if (id === undefined) continue;
    const owner = byId.get(id);
    if (owner) {
      info.duplicateOf = owner;
      continue;
    }
    info.graphIndex = graphNodes.length;
    graphNodes.push(info);
    byId.set(id, info);
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
  const joinFrom = new Int32Array(edgeList.length);
  const joinTo = new Int32Array(edgeList.length);
  const joinIndex = new Int32Array(edgeList.length);
  let joinedCount = 0;
  for (let index = 0; index < edgeList.length; index++) {
    const value = edgeList[index];
    const raw = isPlainObject(value) ? value : null;
    if (raw) reader.readEdge(raw, scratch);
    else scratch.from = scratch.to = undefined;
    if (!raw || !scratch.clean) {
      clean = false;
      uncleanEdges.push(index);
    }
    const { from, to } = scratch;
    const fromNode = from === undefined ? undefined : byId.get(from);
    const toNode = to === undefined ? undefined : byId.get(to);
    if (from === undefined || to === undefined) problem(index, "malformed", scratch, fromNode, toNode);
    else if (!fromNode || !toNode) problem(index, "dangling", scratch, fromNode, toNode);
    else if (fromNode === toNode) problem(index, "self", scratch, fromNode, toNode);
    else {
      joinFrom[joinedCount] = fromNode.graphIndex;
      joinTo[joinedCount] = toNode.graphIndex;
      joinIndex[joinedCount] = index;
      joinedCount++;
    }
  }

  // Repeated edges: walk each node's joined edges in file order, remembering for each
  // target the first edge that reached it from this node.
  const size = graphNodes.length;
  const joinedOrder = new Int32Array(joinedCount);
  for (let e = 0; e < joinedCount; e++) joinedOrder[e] = e;
  const byEdge = buildAdjacency(size, joinFrom, joinedOrder, joinedCount);
  const firstEdgeTo = new Int32Array(size).fill(-1);
  const repeatOf = new Int32Array(joinedCount).fill(-1);
  for (let node = 0; node < size; node++) {
    const startK = byEdge.offsets[node]!;
    const endK = byEdge.offsets[node + 1]!;
    for (let k = startK; k < endK; k++) {
      const e = byEdge.targets[k]!;
      const target = joinTo[e]!;
      const first = firstEdgeTo[target]!;
      if (first >= startK && first < k) repeatOf[e] = joinIndex[byEdge.targets[first]!]!;
      else firstEdgeTo[target] = k;
    }
  }
  const okFrom = new Int32Array(joinedCount);
  const okTo = new Int32Array(joinedCount);
  const okIndex = new Int32Array(joinedCount);
  let okCount = 0;
  const endpoints = (e: number): EdgeFields => ({ from: graphNodes[joinFrom[e]!]!.id, to: graphNodes[joinTo[e]!]!.id, clean: false });
  for (let e = 0; e < joinedCount; e++) {
    const fromNode = graphNodes[joinFrom[e]!]!;
    const toNode = graphNodes[joinTo[e]!]!;
    if (repeatOf[e]! >= 0) problem(joinIndex[e]!, "duplicate", endpoints(e), fromNode, toNode).duplicateOf = repeatOf[e]!;
    else if (toNode.kind === "trigger") problem(joinIndex[e]!, "into-trigger", endpoints(e), fromNode, toNode);
    else if (fromNode.kind === "destination") problem(joinIndex[e]!, "from-destination", endpoints(e), fromNode, toNode);
    else {
      okFrom[okCount] = joinFrom[e]!;
      okTo[okCount] = joinTo[e]!;
      okIndex[okCount] = joinIndex[e]!;
      okCount++;
    }
  }
  // Problems were found in two passes; rules report them in file order.
  problemEdges.sort((a, b) => a.index - b.index);
  const successors = buildAdjacency(size, okFrom, okTo, okCount);
  const predecessors = buildAdjacency(size, okTo, okFrom, okCount);

  let topLevelTrigger: TopLevelSpec | undefined;
  const topLevelDestinations: TopLevelSpec[] = [];
  if (isVersionBody) {
    if (hasOwnField(input, "trigger")) topLevelTrigger = { pointer: "/trigger", raw: ownField(input, "trigger") };
    const destinations = ownField(input, "destinations");
    if (Array.isArray(destinations))
      destinations.forEach((raw, i) => topLevelDestinations.push({ pointer: `/destinations/${i}`, raw }));
  }

  return {
    input,
    graphPointer,
    isVersionBody,
    graph,
    graphUsable: Array.isArray(rawNodes) && Array.isArray(rawEdges),
    clean,
    nodes,
    edgeCount: edgeList.length,
    problemEdges,
    okEdges: { count: okCount, from: okFrom, to: okTo, index: okIndex },
    rawEdges: edgeList,
    uncleanEdges,
    edgesPointer,
    graphNodes,
    byId,
    topLevelTrigger,
    topLevelDestinations,
    successors,
    predecessors,
  };
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
