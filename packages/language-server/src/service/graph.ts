/**
 * A light view of the compiled graph for editor features (inputs and outputs in hovers,
 * legal edge targets in completion). Read defensively: the text may be half-written.
 */
import { indexCatalogue, isPlainObject, isVersionSaveBody, type Catalogue } from "@wfkit/core";
import type { WfkitDocument } from "./document.js";

export interface GraphNodeView {
  id: string;
  kind: "trigger" | "part" | "gate" | "destination" | "unknown";
  partId: string | undefined;
  raw: Record<string, unknown>;
}

export interface GraphView {
  nodes: Map<string, GraphNodeView>;
  successors: Map<string, string[]>;
  predecessors: Map<string, string[]>;
}

/** The definition a document stands for, compiled but not checked (JSON: the parsed value). */
export function compiledOf(document: WfkitDocument): unknown {
  return document.language === "wf" ? document.compiled?.definition : document.analysis.compiled;
}

export function graphOf(compiled: unknown): GraphView {
  const view: GraphView = { nodes: new Map(), successors: new Map(), predecessors: new Map() };
  let graph: unknown = compiled;
  if (isVersionSaveBody(graph) && isPlainObject(graph.scope)) graph = graph.scope.graph;
  if (!isPlainObject(graph)) return view;
  for (const node of Array.isArray(graph.nodes) ? graph.nodes : []) {
    if (!isPlainObject(node) || typeof node.id !== "string" || view.nodes.has(node.id)) continue;
    const kind = node.kind === "trigger" || node.kind === "gate" || node.kind === "destination" ? node.kind : typeof node.partId === "string" ? "part" : "unknown";
    view.nodes.set(node.id, { id: node.id, kind, partId: typeof node.partId === "string" ? node.partId : undefined, raw: node });
  }
  for (const edge of Array.isArray(graph.edges) ? graph.edges : []) {
    if (!isPlainObject(edge) || typeof edge.from !== "string" || typeof edge.to !== "string") continue;
    push(view.successors, edge.from, edge.to);
    push(view.predecessors, edge.to, edge.from);
  }
  return view;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** What a node offers downstream and needs from upstream, per the catalogue (undefined: unknown). */
export function capabilitiesOf(node: GraphNodeView, catalogue: Catalogue): { requires: readonly string[] | undefined; produces: readonly string[] | undefined } {
  const index = indexCatalogue(catalogue);
  switch (node.kind) {
    case "trigger":
      return { requires: undefined, produces: index.triggerProduces };
    case "destination":
      return { requires: index.destinationRequires, produces: undefined };
    case "gate":
      return { requires: [], produces: undefined };
    case "part": {
      const part = node.partId === undefined ? undefined : index.parts.get(node.partId);
      return { requires: part?.requires, produces: part?.produces };
    }
    default:
      return { requires: undefined, produces: undefined };
  }
}

/**
 * Whether an edge `from -> to` could be legal: not into a trigger, not out of a destination,
 * not a self-loop or a repeat, no cycle, and `from` produces what `to` requires (when known).
 */
export function isLegalEdge(view: GraphView, catalogue: Catalogue, from: string, to: string): boolean {
  if (from === to) return false;
  const source = view.nodes.get(from);
  const target = view.nodes.get(to);
  if (!target || target.kind === "trigger") return false;
  if (source?.kind === "destination") return false;
  if (view.successors.get(from)?.includes(to)) return false;
  if (reaches(view, to, from)) return false;
  if (!source) return true;
  const produces = capabilitiesOf(source, catalogue).produces;
  const requires = capabilitiesOf(target, catalogue).requires;
  if (!produces || !requires) return true;
  return requires.every((need) => produces.includes(need));
}

function reaches(view: GraphView, start: string, goal: string): boolean {
  const seen = new Set([start]);
  const stack = [start];
  while (stack.length) {
    const node = stack.pop()!;
    if (node === goal) return true;
    for (const next of view.successors.get(node) ?? []) if (!seen.has(next)) (seen.add(next), stack.push(next));
  }
  return false;
}
