/**
 * What a rule sees: the indexed input, the catalogue, shared analyses computed on first
 * use, and `report`. Rules decide what to say; the facts they judge are derived here once,
 * so that no rule depends on another rule's output (which keeps faults from cascading
 * in ways that depend on rule order).
 */
import type { CatalogueIndex, CataloguePart } from "../catalogue.js";
import { NODE_KINDS, hasOwnField, isPlainObject, ownField } from "../model.js";
import type { Fault, RelatedLocation } from "../fault.js";
import { Suggester } from "../suggest.js";
import type { GraphModel, NodeInfo } from "./model.js";
import { cyclicComponents, degree, reachableFrom } from "./graph.js";
import type { Adjacency } from "./graph.js";
import { type EstimateReading, readEstimate } from "../estimate.js";
import { int32Array, uint8Array } from "./small-arrays.js";

export type FaultReport = Omit<Fault, "code" | "severity">;

/** A set of capabilities, or `unknown` when it cannot be known (an unknown part upstream). */
export type Capabilities = ReadonlySet<string> | "unknown";

export class RuleContext {
  readonly suggester = new Suggester();
  private ruleId = "";
  private ruleSeverity: Fault["severity"] = "error";
  private readonly sink: Fault[];

  constructor(
    readonly model: GraphModel,
    readonly catalogue: CatalogueIndex,
    sink: Fault[],
    /** Why the catalogue given to the checker is unusable (see catalogue-invalid), if it is. */
    readonly catalogueProblem?: string,
  ) {
    this.sink = sink;
  }

  /** @internal Set by the runner before each rule. */
  beginRule(id: string, severity: Fault["severity"]): void {
    // Called per rule and part node: two fields, no allocation.
    this.ruleId = id;
    this.ruleSeverity = severity;
  }

  report(fault: FaultReport): void {
    const complete: Fault = { code: this.ruleId, severity: this.ruleSeverity, ...fault, message: shortenQuotes(fault.message) };
    if (complete.suggestion === undefined) delete complete.suggestion;
    if (complete.related === undefined || complete.related.length === 0) delete complete.related;
    if (complete.edge === undefined) delete complete.edge;
    this.sink.push(complete);
  }

  /** The node a location is about, for `related` entries. */
  relatedNode(node: NodeInfo, message: string, field?: string): RelatedLocation {
    return { nodeId: node.id ?? null, pointer: field ? `${node.pointer}/${field}` : node.pointer, message };
  }

  // ---- shared analyses, computed on first use ----

  private cache = new Map<string, unknown>();
  private memo<T>(key: string, compute: () => T): T {
    if (!this.cache.has(key)) this.cache.set(key, compute());
    return this.cache.get(key) as T;
  }

  /** The cost estimate, read once for `estimate-too-large` and the result (see readEstimate). */
  get estimateReading(): EstimateReading {
    return this.memo("estimate", () => readEstimate(this));
  }

  /** Trigger nodes that own their id. */
  get triggerNodes(): NodeInfo[] {
    return this.memo("triggers", () => this.model.nodesByKind.trigger.filter((n) => n.graphIndex >= 0));
  }

  get destinationNodes(): NodeInfo[] {
    return this.memo("destinations", () => this.model.nodesByKind.destination.filter((n) => n.graphIndex >= 0));
  }

  /** A trigger node (even one whose id cannot be read: `shape` reports that) or a top-level trigger. */
  get hasTrigger(): boolean {
    return this.model.nodesByKind.trigger.length > 0 || this.model.topLevelTrigger !== undefined;
  }

  get hasDestination(): boolean {
    return this.model.nodesByKind.destination.length > 0 || this.model.topLevelDestinations.length > 0;
  }

  /**
   * Whether a node of unknown kind may be meant as a `kind` node: it carries that kind's own
   * field (`trigger`, `destination`) or its `kind` is closest to that kind. `node-kind`
   * reports it; `trigger-missing` and `destination-missing` then say nothing more.
   */
  unknownKindMayBe(kind: "trigger" | "destination"): boolean {
    return this.memo(`mayBe:${kind}`, () =>
      this.model.nodesByKind.unknown.some((node) => {
        if (!node.raw) return false;
        if (hasOwnField(node.raw, kind)) return true;
        const written = ownField(node.raw, "kind");
        return typeof written === "string" && this.suggester.closest(written, NODE_KINDS) === kind;
      }),
    );
  }

  /** The trigger specs in force: each trigger node's `trigger` object and the top-level one. */
  get triggerSpecs(): { raw: unknown; pointer: string; node: NodeInfo | undefined }[] {
    return this.memo("triggerSpecs", () => {
      const specs: { raw: unknown; pointer: string; node: NodeInfo | undefined }[] = this.triggerNodes.map((node) => ({
        raw: ownField(node.raw!, "trigger"),
        pointer: `${node.pointer}/trigger`,
        node,
      }));
      const top = this.model.topLevelTrigger;
      if (top) specs.push({ raw: top.raw, pointer: top.pointer, node: undefined });
      return specs;
    });
  }

  get scheduledTrigger(): { pointer: string; node: NodeInfo | undefined } | undefined {
    return this.triggerSpecs.find((spec) => isPlainObject(spec.raw) && ownField(spec.raw, "kind") === "scheduled");
  }

  private readonly producesSets = new Map<CataloguePart, ReadonlySet<string>>();
  /** What a catalogue part produces, as one shared set per part. */
  producesOf(part: CataloguePart): ReadonlySet<string> {
    let set = this.producesSets.get(part);
    if (!set) this.producesSets.set(part, (set = new Set(part.produces)));
    return set;
  }

  /**
   * Part ids looked up lately and their entries, each in a place chosen by a cheap key (length
   * and last unit): a graph uses a few parts many times, and comparing a node's `partId` with
   * a remembered one costs less than the Map lookup, which must hash each node's own copy of
   * the string. Exact: an entry depends only on the part id.
   */
  private readonly recentPartIds: (string | undefined)[] = new Array<string | undefined>(RECENT_PARTS).fill(undefined);
  private readonly recentEntries: (CataloguePart | null)[] = new Array<CataloguePart | null>(RECENT_PARTS).fill(null);

  /** The catalogue entry of a part node, when its partId is known. */
  partOf(node: NodeInfo): CataloguePart | undefined {
    // Half a dozen rules ask about every part node: each node looks its entry up once, and
    // keeps it while its model lives (a model is only ever judged against one catalogue).
    // The rest is apart so that this, called for every node and edge, stays small enough to inline.
    const entry = node.catalogueEntry;
    if (entry !== undefined) return entry ?? undefined;
    return node.partId === undefined ? undefined : this.lookUpPart(node, node.partId);
  }

  private lookUpPart(node: NodeInfo, partId: string): CataloguePart | undefined {
    const recent = partId.length === 0 ? 0 : (partId.length * 7 + partId.charCodeAt(partId.length - 1)) & (RECENT_PARTS - 1);
    let entry: CataloguePart | null;
    if (this.recentPartIds[recent] === partId) entry = this.recentEntries[recent]!;
    else {
      entry = this.catalogue.parts.get(partId) ?? null;
      this.recentPartIds[recent] = partId;
      this.recentEntries[recent] = entry;
    }
    node.catalogueEntry = entry;
    return entry ?? undefined;
  }

  /** Graph nodes with no incoming edge: the entry points a top-level trigger feeds. */
  get entryPoints(): number[] {
    return this.memo("entries", () => {
      const result: number[] = [];
      const { graphNodes, predecessors } = this.model;
      for (let i = 0; i < graphNodes.length; i++)
        if (degree(predecessors, i) === 0 && graphNodes[i]!.kind !== "trigger") result.push(i);
      return result;
    });
  }

  /** Graph nodes with no outgoing edge (other than destinations): what top-level destinations receive. */
  get exitPoints(): number[] {
    return this.memo("exits", () => {
      const result: number[] = [];
      const { graphNodes, successors } = this.model;
      for (let i = 0; i < graphNodes.length; i++) {
        const kind = graphNodes[i]!.kind;
        if (degree(successors, i) === 0 && kind !== "destination" && kind !== "trigger") result.push(i);
      }
      return result;
    });
  }

  /**
   * Edges reachability counts although they are faults, because it assumes the fix their
   * fault asks for, so that one mistake is not also reported as `unreachable` or `dead-end`:
   * - a dangling edge whose missing id is a likely typo of a node id joins the node it was
   *   meant to name (`edge-dangling` reports the typo);
   * - an edge out of a destination feeds its target as the destination is fed
   *   (`edge-from-destination` asks to connect the step before the destination instead).
   *   Forward only: the destination's own steps reach a destination already.
   */
  get repairedEdges(): { forward: Map<number, number[]>; backward: Map<number, number[]> } {
    return this.memo("repaired", () => {
      const forward = new Map<number, number[]>();
      const backward = new Map<number, number[]>();
      const add = (map: Map<number, number[]>, a: number, b: number) => {
        const list = map.get(a);
        if (list) list.push(b);
        else map.set(a, [b]);
      };
      for (const edge of this.model.problemEdges) {
        if (edge.status === "from-destination") {
          add(forward, edge.fromNode!.graphIndex, edge.toNode!.graphIndex);
          continue;
        }
        if (edge.status !== "dangling") continue;
        // Built on the first dangling edge: most graphs have none.
        const ids = this.nodeIds;
        const from = edge.fromNode ?? this.model.byId.get(this.suggester.closest(edge.from!, ids) ?? "");
        const to = edge.toNode ?? this.model.byId.get(this.suggester.closest(edge.to!, ids) ?? "");
        if (!from || !to || from === to) continue;
        add(forward, from.graphIndex, to.graphIndex);
        add(backward, to.graphIndex, from.graphIndex);
      }
      return { forward, backward };
    });
  }

  /** The ids of the graph's nodes, in document order (one list, so suggestions are cached). */
  get nodeIds(): string[] {
    return this.memo("nodeIds", () => this.model.graphNodes.map((node) => node.id!));
  }

  /** Nodes reachable from the trigger (trigger nodes, and entry points of a top-level trigger). */
  get reachable(): Uint8Array {
    return this.memo("reachable", () => {
      const roots = this.triggerNodes.map((n) => n.graphIndex);
      if (this.model.topLevelTrigger) roots.push(...this.entryPoints);
      return reachableFrom(roots, this.model.successors, this.model.graphNodes.length, this.repairedEdges.forward);
    });
  }

  /** Nodes with a path to a destination (node, or top-level destinations via exit points). */
  get reachesDestination(): Uint8Array {
    return this.memo("reachesDestination", () => {
      const roots = this.destinationNodes.map((n) => n.graphIndex);
      if (this.model.topLevelDestinations.length) roots.push(...this.exitPoints);
      return reachableFrom(roots, this.model.predecessors, this.model.graphNodes.length, this.repairedEdges.backward);
    });
  }

  get cycles(): number[][] {
    // Kahn's walk in computeOffers reaches every node exactly when there is no cycle: most
    // graphs need no Tarjan pass.
    return this.memo("cycles", () => (this.offerWalk.acyclic ? [] : cyclicComponents(this.model.successors)));
  }

  /** What each graph node offers downstream. Gates pass on what all their inputs share. */
  get offers(): Capabilities[] {
    return this.offerWalk.offers;
  }

  private get offerWalk(): OfferWalk {
    return this.memo("offers", () => computeOffers(this));
  }

  /** What a node needs from each upstream node; undefined when nothing can be judged. */
  needsOf(node: NodeInfo): readonly string[] | undefined {
    if (node.kind === "destination") return this.catalogue.destinationRequires;
    if (node.kind === "part") return this.partOf(node)?.requires;
    if (node.kind === "gate") return [];
    return undefined;
  }
}

interface OfferWalk {
  offers: Capabilities[];
  /** Every node was reached in topological order: the graph of fine edges has no cycle. */
  acyclic: boolean;
}

/** How many part ids RuleContext.partOf remembers (a power of two). */
const RECENT_PARTS = 16;

/** Longest id or value a message quotes whole; see shortenQuotes. */
const QUOTE_MAX = 80;

/**
 * Messages quote ids and values between backticks. A generated id can be megabytes long, and
 * a message that repeats it is unreadable (and, across thousands of faults, huge): quotes
 * longer than QUOTE_MAX keep their start and end around an ellipsis. The fault's pointer,
 * node id and suggestion keep the exact value.
 */
export function shortenQuotes(message: string): string {
  if (message.length <= 2 * QUOTE_MAX) return message;
  // Backticks come in pairs, so the odd pieces are the quotes: the prose between two quotes
  // (which a pattern for "a backtick, a long run, a backtick" would take for one) is never cut.
  const pieces = message.split("`");
  for (let i = 1; i < pieces.length - 1; i += 2) {
    const quoted = pieces[i]!;
    if (quoted.length > QUOTE_MAX) pieces[i] = `${quoted.slice(0, QUOTE_MAX - 20)}…${quoted.slice(-12)}`;
  }
  return pieces.join("`");
}

function computeOffers(ctx: RuleContext): OfferWalk {
  const { graphNodes, successors, predecessors } = ctx.model;
  const size = graphNodes.length;
  const offers: Capabilities[] = new Array(size).fill("unknown");
  const triggerOffer = new Set(ctx.catalogue.triggerProduces);
  const entry = uint8Array(size);
  if (ctx.model.topLevelTrigger) for (const i of ctx.entryPoints) entry[i] = 1;

  // Kahn's order, so a gate is judged after every input it depends on. Gates left on a
  // cycle keep "unknown": the cycle is reported on its own.
  const pending = int32Array(size);
  // Each node enters the queue once at most (when its last input is judged).
  const queue = int32Array(size);
  let tail = 0;
  for (let i = 0; i < size; i++) {
    pending[i] = degree(predecessors, i);
    if (pending[i] === 0) queue[tail++] = i;
  }
  for (let head = 0; head < tail; head++) {
    const i = queue[head]!;
    const node = graphNodes[i]!;
    if (node.kind === "trigger") offers[i] = triggerOffer;
    else if (node.kind === "part") {
      const part = ctx.partOf(node);
      offers[i] = part ? ctx.producesOf(part) : "unknown";
    } else if (node.kind === "gate") offers[i] = gateOffer(predecessors, i, offers, entry[i] ? triggerOffer : undefined);
    else if (node.kind === "destination") offers[i] = NOTHING;
    for (let k = successors.offsets[i]!, end = successors.offsets[i + 1]!; k < end; k++) {
      const next = successors.targets[k]!;
      if (--pending[next]! === 0) queue[tail++] = next;
    }
  }
  if (tail === size) return { offers, acyclic: true };
  // Parts on a cycle still offer what their catalogue entry says.
  for (let i = 0; i < size; i++) {
    const node = graphNodes[i]!;
    if (pending[i]! > 0 && node.kind === "part") {
      const part = ctx.partOf(node);
      offers[i] = part ? ctx.producesOf(part) : "unknown";
    }
  }
  return { offers, acyclic: false };
}

const NOTHING: ReadonlySet<string> = new Set();

function gateOffer(predecessors: Adjacency, gate: number, offers: Capabilities[], fromTrigger: ReadonlySet<string> | undefined): Capabilities {
  const start = predecessors.offsets[gate]!;
  const end = predecessors.offsets[gate + 1]!;
  if (start === end) return fromTrigger ?? "unknown";
  // What all inputs so far offer, in the first input's order: a list narrowed in place, as a
  // gate may have thousands of inputs and iterating a Set allocates a result per step until
  // V8 optimises the loop.
  let shared: string[] | undefined;
  let count = 0;
  for (let k = start; k < end; k++) {
    const offer = offers[predecessors.targets[k]!]!;
    if (offer === "unknown") return "unknown";
    if (!shared) {
      shared = [...offer];
      count = shared.length;
      continue;
    }
    let kept = 0;
    for (let c = 0; c < count; c++) {
      const capability = shared[c]!;
      if (offer.has(capability)) shared[kept++] = capability;
    }
    count = kept;
  }
  return new Set(shared === undefined ? [] : shared.slice(0, count));
}
