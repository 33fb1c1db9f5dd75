/**
 * A definition's graph as the drawings read it: nodes and edges in input order, each with the
 * faults that name it, each part with its catalogue entry's cost, each edge with what flows
 * along it. Reads any shape (a Definition, a version-save body, or something half-typed) and
 * never throws: the drawing must exist for exactly the inputs that have faults.
 */
import { indexCatalogue, isPlainObject, isVersionSaveBody, type Catalogue, type CatalogueIndex, type Estimate, type Severity } from "@wfkit/core";

export type GraphNodeKind = "trigger" | "part" | "gate" | "destination" | "unknown" | "missing";

/** The parts of a Fault a drawing shows. */
export interface GraphFault {
  code: string;
  severity: Severity;
  message: string;
  nodeId: string | null;
  edge?: number;
  /**
   * Where in the input the fault points (a JSON Pointer). When it names a node of the
   * definition's `nodes` (`/nodes/3/...`) whose id is the fault's `nodeId`, the fault is drawn on
   * that node: two nodes may share an id, and the id alone names only the first.
   */
  pointer?: string;
}

export interface GraphNode {
  /** A synthetic name (`n0`, `n1`, ...): node ids are arbitrary strings, never written raw. */
  key: string;
  /** The id as the definition spells it. */
  id: string;
  kind: GraphNodeKind;
  /** Its place in the definition's `nodes`; absent for a placeholder of an undeclared node. */
  index?: number;
  /** The line under the id: the part and its version, the trigger's kind, ... */
  detail: string;
  /** The part's estimated cost in minor units, when the estimate has one. */
  costMinorUnits?: number;
  faults: GraphFault[];
}

export interface GraphEdge {
  key: string;
  /** Indices into `nodes`. */
  from: number;
  to: number;
  /** The edge's index in the definition's `edges`, which edge faults name. */
  index: number;
  /** What the upstream node produces that flows here (empty when nothing is known). */
  flows: string[];
  faults: GraphFault[];
}

export interface GraphModel {
  /** The JSON Pointer of the definition's `nodes` (`/nodes`, or `/scope/graph/nodes` in a version-save body). */
  nodesPointer: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Faults of the whole graph, or naming no node or edge drawn. */
  graphFaults: GraphFault[];
}

export interface GraphModelInput {
  definition: unknown;
  faults?: readonly GraphFault[];
  estimate?: Estimate;
  catalogue?: Catalogue;
}

/** Reads nodes and edges from a Definition or version-save body, tolerating any shape. */
export function graphModelOf(input: GraphModelInput): GraphModel {
  const { definition } = input;
  const versionSave = isVersionSaveBody(definition);
  const root = versionSave ? (isPlainObject(definition.scope) ? definition.scope.graph : undefined) : definition;
  const rawNodes = isPlainObject(root) && Array.isArray(root.nodes) ? root.nodes : [];
  const rawEdges = isPlainObject(root) && Array.isArray(root.edges) ? root.edges : [];
  const catalogue = input.catalogue ? indexCatalogue(input.catalogue) : undefined;
  const nodes: GraphNode[] = [];
  const partIdOf: (string | undefined)[] = [];
  const indexOf = new Map<string, number>();
  const addNode = (node: Omit<GraphNode, "key" | "faults">, partId?: string): number => {
    const index = nodes.length;
    nodes.push({ key: `n${index}`, ...node, faults: [] });
    partIdOf.push(partId);
    return index;
  };
  rawNodes.forEach((raw, position) => {
    if (!isPlainObject(raw) || typeof raw.id !== "string") return;
    const index = addNode({ ...describeNode(raw as Record<string, unknown> & { id: string }), index: position }, typeof raw.partId === "string" ? raw.partId : undefined);
    if (!indexOf.has(raw.id)) indexOf.set(raw.id, index);
  });
  const endpoint = (id: unknown): number | undefined => {
    if (typeof id !== "string") return undefined;
    let index = indexOf.get(id);
    if (index === undefined) {
      index = addNode({ id, kind: "missing", detail: "not declared" });
      indexOf.set(id, index);
    }
    return index;
  };
  const edges: GraphEdge[] = [];
  rawEdges.forEach((raw, edgeIndex) => {
    if (!isPlainObject(raw)) return;
    const from = endpoint(raw.from);
    const to = endpoint(raw.to);
    if (from === undefined || to === undefined) return;
    const flows = catalogue ? flowsAlong(catalogue, nodes[from]!.kind, partIdOf[from], nodes[to]!.kind, partIdOf[to]) : [];
    edges.push({ key: `e${edges.length}`, from, to, index: edgeIndex, flows, faults: [] });
  });
  for (const part of input.estimate?.parts ?? []) {
    const node = nodes[indexOf.get(part.nodeId) ?? -1];
    if (node?.kind === "part") node.costMinorUnits = part.costMinorUnits;
  }
  const nodesPointer = versionSave ? "/scope/graph/nodes" : "/nodes";
  const graphFaults = attachFaults(input.faults ?? [], nodes, edges, indexOf, nodesPointer);
  return { nodesPointer, nodes, edges, graphFaults };
}

/**
 * The node a fault is about. Its pointer decides between declarations that share the fault's
 * node id (a second `part report` is reported at `/nodes/3/id`, and must be drawn on the
 * fourth node, not on the first `report`); otherwise the id's first declaration, or its
 * placeholder, as edges name it.
 */
function nodeOfFault(fault: GraphFault, nodes: readonly GraphNode[], indexOf: ReadonlyMap<string, number>, byPosition: ReadonlyMap<number, GraphNode>, nodesPointer: string): GraphNode | undefined {
  if (fault.nodeId === null) return undefined;
  const position = fault.pointer === undefined ? undefined : nodePositionOf(fault.pointer, nodesPointer);
  const pointed = position === undefined ? undefined : byPosition.get(position);
  if (pointed && pointed.id === fault.nodeId) return pointed;
  return nodes[indexOf.get(fault.nodeId) ?? -1];
}

/** The index into `nodes` that a pointer under it names (`/nodes/3/id` is 3), if any. */
function nodePositionOf(pointer: string, nodesPointer: string): number | undefined {
  if (!pointer.startsWith(`${nodesPointer}/`)) return undefined;
  const token = pointer.slice(nodesPointer.length + 1).split("/", 1)[0]!;
  return /^(0|[1-9]\d{0,8})$/.test(token) ? Number(token) : undefined;
}

function attachFaults(faults: readonly GraphFault[], nodes: GraphNode[], edges: GraphEdge[], indexOf: ReadonlyMap<string, number>, nodesPointer: string): GraphFault[] {
  const edgeByIndex = new Map(edges.map((edge) => [edge.index, edge]));
  const byPosition = new Map<number, GraphNode>();
  for (const node of nodes) if (node.index !== undefined) byPosition.set(node.index, node);
  const graphFaults: GraphFault[] = [];
  for (const fault of faults) {
    const edge = fault.edge === undefined ? undefined : edgeByIndex.get(fault.edge);
    const node = nodeOfFault(fault, nodes, indexOf, byPosition, nodesPointer);
    if (edge) edge.faults.push(fault);
    else if (node) node.faults.push(fault);
    else graphFaults.push(fault);
  }
  return graphFaults;
}

/**
 * What the upstream node offers the downstream one: the catalogue's `produces` of the upstream
 * part (or the trigger's), narrowed to what the downstream part requires when that leaves
 * something, since the rest does not matter on this edge.
 */
function flowsAlong(catalogue: CatalogueIndex, fromKind: GraphNodeKind, fromPart: string | undefined, toKind: GraphNodeKind, toPart: string | undefined): string[] {
  const produced = fromKind === "trigger" ? catalogue.triggerProduces : fromKind === "part" && fromPart !== undefined ? (catalogue.parts.get(fromPart)?.produces ?? []) : [];
  const required = toKind === "part" && toPart !== undefined ? catalogue.parts.get(toPart)?.requires : toKind === "destination" ? catalogue.destinationRequires : undefined;
  const needed = required ? produced.filter((name) => required.includes(name)) : [];
  return [...(needed.length ? needed : produced)];
}

function describeNode(raw: Record<string, unknown> & { id: string }): Omit<GraphNode, "key" | "faults"> {
  const inner = (field: string) => (isPlainObject(raw[field]) ? (raw[field] as Record<string, unknown>) : {});
  switch (raw.kind) {
    case "trigger":
      return { id: raw.id, kind: "trigger", detail: `trigger: ${String(inner("trigger").kind ?? "?")}` };
    case "gate":
      return { id: raw.id, kind: "gate", detail: `gate: ${String(raw.belowFloor ?? "?")}` };
    case "destination":
      return { id: raw.id, kind: "destination", detail: `destination: ${String(inner("destination").kind ?? "?")}` };
    case undefined:
    case "part": {
      const version = typeof raw.partVersion === "string" ? `@${raw.partVersion}` : "";
      const subjects = Array.isArray(inner("terminal").subjectRefs) ? (inner("terminal").subjectRefs as unknown[]).length : 0;
      return { id: raw.id, kind: "part", detail: `${String(raw.partId ?? "?")}${version}${subjects ? ` (${subjects} subject${subjects === 1 ? "" : "s"})` : ""}` };
    }
    default:
      return { id: raw.id, kind: "unknown", detail: `kind: ${String(raw.kind)}` };
  }
}
