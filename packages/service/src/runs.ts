/**
 * Runs that really run: a run walks its published graph in dependency order, one node at a
 * time, through the states of `RUN_STATES`; each part node takes its configured delay and
 * then returns what the mock file says (or a synthesized output that satisfies the part's
 * `produces`).
 *
 * Usage, the rule in one place: starting a run reserves the version's whole estimate; a part
 * that finishes with a value (below the floor or not) draws its own cost from the
 * reservation; when the run ends (succeeded, failed or cancelled) whatever is reserved and
 * not drawn is released to the allowance. So a cancelled run costs the parts that finished
 * before it was cancelled, a failed part costs nothing, and a part still running when its
 * run is cancelled costs nothing.
 *
 * Terminal parts run against canonical subjects: before a terminal part returns anything, each
 * of its subjects must be a company the service's resolver holds (its catalogue's `subjects`
 * table) with a listed equity to run against. Otherwise the part fails, naming the subject and
 * the reason in resolve-subjects' words (`not_found`, `unlisted`), draws nothing, and the run
 * ends failed, whatever the mock file says.
 *
 * A result is below the floor when its mock says so or when any of its inputs was (a pack
 * assembled from a below-floor result is itself below the floor). A `hold` gate that
 * receives one holds the run (`held`) until it is delivered; delivering passes the result on.
 */
import type { Catalogue, CataloguePart, CatalogueSubject, Estimate } from "@wfkit/core";
import { indexCatalogue } from "@wfkit/core";
import type { NodeState, RunNodeView } from "@wfkit/client";
import { DEFAULT_PART_DELAY_MS, type MockFile, type MockResponse } from "./files.js";
import { tickerOf } from "./subjects.js";

export type { NodeState } from "@wfkit/client";

/** A node of a run as planned from its version: what never changes while the run walks. */
export interface PlannedNode {
  nodeId: string;
  kind: RunNodeView["kind"];
  partId?: string;
  costMinorUnits: number;
  /** The nodes it waits on, by id. */
  upstream: string[];
}

/** What a part's answer is worked out from: the node, and the nodes it waits on. */
export type PartNode = Pick<PlannedNode, "nodeId" | "partId" | "upstream">;

/** The nodes of a version body's graph in dependency order (Kahn's algorithm, ties by position). */
export function planRun(body: unknown, estimate: Estimate): PlannedNode[] {
  const graph = graphOf(body);
  const costs = new Map(estimate.parts.map((part) => [part.nodeId, part.costMinorUnits]));
  const nodes: PlannedNode[] = graph.nodes.map((node) => {
    const kind: PlannedNode["kind"] = node.kind === "trigger" || node.kind === "gate" || node.kind === "destination" ? node.kind : "part";
    return {
      nodeId: node.id,
      kind,
      ...(kind === "part" ? { partId: String(node.partId) } : {}),
      costMinorUnits: kind === "part" ? (costs.get(node.id) ?? 0) : 0,
      upstream: [] as string[],
    };
  });
  const position = new Map<string, number>();
  nodes.forEach((node, i) => {
    if (!position.has(node.nodeId)) position.set(node.nodeId, i);
  });
  const indegree = new Array<number>(nodes.length).fill(0);
  const downstream: number[][] = nodes.map(() => []);
  for (const edge of graph.edges) {
    const from = position.get(edge.from);
    const to = position.get(edge.to);
    if (from === undefined || to === undefined) continue;
    nodes[to]!.upstream.push(edge.from);
    indegree[to]!++;
    downstream[from]!.push(to);
  }
  const order: PlannedNode[] = [];
  // The ready nodes, the earliest position first: a binary heap of positions.
  const ready: number[] = [];
  const push = (value: number) => {
    let i = ready.push(value) - 1;
    while (i > 0 && ready[(i - 1) >> 1]! > value) {
      ready[i] = ready[(i - 1) >> 1]!;
      i = (i - 1) >> 1;
    }
    ready[i] = value;
  };
  const pop = (): number => {
    const top = ready[0]!;
    const last = ready.pop()!;
    if (ready.length) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= ready.length) break;
        const child = left + 1 < ready.length && ready[left + 1]! < ready[left]! ? left + 1 : left;
        if (ready[child]! >= last) break;
        ready[i] = ready[child]!;
        i = child;
      }
      ready[i] = last;
    }
    return top;
  };
  nodes.forEach((node, i) => {
    if (indegree[i] === 0 && position.get(node.nodeId) === i) push(i);
  });
  while (ready.length) {
    const i = pop();
    order.push(nodes[i]!);
    for (const next of downstream[i]!) if (--indegree[next]! === 0) push(next);
  }
  return order;
}

interface GraphNode {
  id: string;
  kind?: unknown;
  partId?: unknown;
  terminal?: { subjectRefs?: unknown[] };
}

/** The graph of a validated Definition or version-save body. */
export function graphOf(body: unknown): { nodes: GraphNode[]; edges: { from: string; to: string }[] } {
  const value = body as { scope?: { graph?: unknown }; nodes?: unknown };
  const graph = (value.scope?.graph ?? value) as { nodes: GraphNode[]; edges: { from: string; to: string }[] };
  return graph;
}

/** The next response for a part node: the mock file's, or a synthesized value. */
export function mockResponseFor(mocks: MockFile, mockCase: string, node: PartNode, call: (target: string) => number, catalogue: Catalogue, subjects: string[]): MockResponse {
  const entry = mocks.cases?.[mockCase];
  const nodeEntry = entry?.nodes?.[node.nodeId];
  if (nodeEntry && nodeEntry.partId === node.partId) return pick(nodeEntry.responses, call(`node:${node.nodeId}`));
  const partEntry = node.partId ? entry?.parts?.[node.partId] : undefined;
  if (partEntry) return pick(partEntry, call(`part:${node.partId}`));
  const part = indexCatalogue(catalogue).parts.get(node.partId ?? "");
  return { value: synthesize(part, node, subjects) };
}

function pick(sequence: Record<string, MockResponse>, callNumber: number): MockResponse {
  const numbers = Object.keys(sequence).map(Number).sort((a, b) => a - b);
  const chosen = numbers.filter((n) => n <= callNumber).pop() ?? numbers[0]!;
  return sequence[String(chosen)]!;
}

/** An output with one member per type the part produces. */
function synthesize(part: CataloguePart | undefined, node: PartNode, subjects: string[]): Record<string, unknown> {
  const output: Record<string, unknown> = {};
  for (const type of part?.produces ?? []) output[type] = { synthesized: true, partId: node.partId, nodeId: node.nodeId, subjects, inputs: node.upstream };
  return output;
}

export function partDelayMs(mocks: MockFile, partId: string | undefined): number {
  return (partId !== undefined ? mocks.partDelayMs?.[partId] : undefined) ?? mocks.delayMs ?? DEFAULT_PART_DELAY_MS;
}

/** Each node's subjects' canonical ids (a terminal part's `subjectRefs`), by node id: the first node of an id, as the walk's. */
export function subjectsByNode(body: unknown): Map<string, string[]> {
  const subjects = new Map<string, string[]>();
  for (const node of graphOf(body).nodes) {
    if (subjects.has(node.id)) continue;
    subjects.set(node.id, (node.terminal?.subjectRefs ?? []).map((ref) => String((ref as { canonicalId?: unknown }).canonicalId ?? "")));
  }
  return subjects;
}


/** A subject a terminal part cannot run against, and why, in resolve-subjects' words. */
export interface UnrunnableSubject {
  index: number;
  canonicalId: string;
  reason: "not_found" | "unlisted";
}

/**
 * Why a terminal part cannot run against its subjects, or undefined when it can: every
 * subject must be in `subjects` (the service's table, by canonical id) and listed (a ticker).
 */
export function subjectFailure(node: Pick<PlannedNode, "nodeId" | "partId">, canonicalIds: readonly string[], subjects: ReadonlyMap<string, CatalogueSubject>, hasTable: boolean): { code: string; message: string; unrunnable: UnrunnableSubject[] } | undefined {
  if (node.partId === undefined || !node.partId.startsWith("terminal.")) return undefined;
  const unrunnable: UnrunnableSubject[] = [];
  canonicalIds.forEach((canonicalId, index) => {
    const subject = subjects.get(canonicalId);
    if (!subject) unrunnable.push({ index, canonicalId, reason: "not_found" });
    else if (tickerOf(subject) === undefined) unrunnable.push({ index, canonicalId, reason: "unlisted" });
  });
  if (!unrunnable.length) return undefined;
  const why = (entry: UnrunnableSubject) =>
    entry.reason === "unlisted"
      ? `subject ${entry.index + 1}, \`${entry.canonicalId}\`, is held but has no listed equity to run against (unlisted)`
      : hasTable
        ? `subject ${entry.index + 1}, \`${entry.canonicalId}\`, is not a company this service holds (not_found: its subject table has no such canonical id)`
        : `subject ${entry.index + 1}, \`${entry.canonicalId}\`, cannot be found: this service's catalogue has no subject table, so it holds no company (give \`wfkit serve --catalogue\` one with \`subjects\`)`;
  const message =
    `Part \`${node.nodeId}\` (${node.partId}) did not run: ${unrunnable.map(why).join("; ")}. Terminal parts run against canonical subjects: ` +
    "pin the company with resolve-subjects (`wfkit pin`) and publish a new version. The part drew nothing from the allowance.";
  return { code: unrunnable[0]!.reason === "unlisted" ? "subject_unlisted" : "subject_not_found", message, unrunnable };
}
