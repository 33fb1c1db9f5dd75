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

export class EdgeInfo implements EdgeFields {
  status: EdgeStatus = "ok";
  /** For a duplicate edge: the first edge with the same endpoints. */
  duplicateOf?: EdgeInfo;
  // Read from the edge object once by buildModel; never changed after.
  from: string | undefined = undefined;
  to: string | undefined = undefined;
  fromNode: NodeInfo | undefined = undefined;
  toNode: NodeInfo | undefined = undefined;
  /** The edge object has exactly `from` and `to`, both strings (see read.ts). */
  clean = false;

  constructor(
    private readonly arrayPointer: string,
    readonly index: number,
    /** The edge object, or null when the array entry is not an object. */
    readonly raw: Record<string, unknown> | null,
  ) {}

  get pointer(): string {
    return `${this.arrayPointer}/${this.index}`;
  }
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
  readonly edges: EdgeInfo[];
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

  const edges: EdgeInfo[] = new Array(edgeList.length);
  const edgesPointer = joinPointer(graphPointer, "edges");
  // Endpoints (graph indices) of edges joining two distinct nodes, in file order.
  const joinFrom = new Int32Array(edgeList.length);
  const joinTo = new Int32Array(edgeList.length);
  const joined: EdgeInfo[] = [];
  for (let index = 0; index < edgeList.length; index++) {
    const value = edgeList[index];
    const raw = isPlainObject(value) ? value : null;
    const edge = new EdgeInfo(edgesPointer, index, raw);
    if (raw) reader.readEdge(raw, edge);
    clean &&= edge.clean;
    const { from, to } = edge;
    const fromNode = from === undefined ? undefined : byId.get(from);
    const toNode = to === undefined ? undefined : byId.get(to);
    edge.fromNode = fromNode;
    edge.toNode = toNode;
    edges[index] = edge;
    if (from === undefined || to === undefined) edge.status = "malformed";
    else if (!fromNode || !toNode) edge.status = "dangling";
    else if (fromNode === toNode) edge.status = "self";
    else {
      joinFrom[joined.length] = fromNode.graphIndex;
      joinTo[joined.length] = toNode.graphIndex;
      joined.push(edge);
    }
  }

  // Repeated edges: walk each node's joined edges in file order, remembering for each
  // target the first edge that reached it from this node.
  const size = graphNodes.length;
  const joinedIndex = new Int32Array(joined.length);
  for (let e = 0; e < joined.length; e++) joinedIndex[e] = e;
  const byEdge = buildAdjacency(size, joinFrom, joinedIndex, joined.length);
  const firstEdgeTo = new Int32Array(size).fill(-1);
  const okFrom = new Int32Array(joined.length);
  const okTo = new Int32Array(joined.length);
  let okCount = 0;
  for (let node = 0; node < size; node++) {
    const startK = byEdge.offsets[node]!;
    const endK = byEdge.offsets[node + 1]!;
    for (let k = startK; k < endK; k++) {
      const e = byEdge.targets[k]!;
      const target = joinTo[e]!;
      const first = firstEdgeTo[target]!;
      if (first >= startK && first < k) {
        joined[e]!.status = "duplicate";
        joined[e]!.duplicateOf = joined[byEdge.targets[first]!];
      } else firstEdgeTo[target] = k;
    }
  }
  for (let e = 0; e < joined.length; e++) {
    const edge = joined[e]!;
    if (edge.status === "duplicate") continue;
    if (edge.toNode!.kind === "trigger") edge.status = "into-trigger";
    else if (edge.fromNode!.kind === "destination") edge.status = "from-destination";
    else {
      okFrom[okCount] = joinFrom[e]!;
      okTo[okCount] = joinTo[e]!;
      okCount++;
    }
  }
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
    edges,
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
