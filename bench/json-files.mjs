// Directories of JSON definitions for the `wfkit check DIR` figures: files of 20-40 nodes in
// six shapes, so that the figure is not only the bench's own graph:
//
// - layered:   the bench's graph (bench/graphs.mjs): profile parts fanning into packs;
// - subjects:  profile, compare and screen parts pinning several subjects with identifiers;
// - fan-in:    many terminal parts feeding each report pack, packs reviewed by an analyst;
// - spaced:    ids with spaces and punctuation, as a team naming nodes by hand writes them;
// - versions:  parts of several versions (terminal.screen 1 and 2, each with its own job);
// - save-body: the version-save body form ({scope: {graph}, trigger, destinations}).
//
// Every file is pretty-printed (two spaces, as editors write JSON) and checks clean against
// the sample catalogue, so a run prints one line per directory, not per fault. The shapes
// and sizes come from a seeded generator: the same directory on every run.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { layeredGraph } from "./graphs.mjs";

export const SHAPES = ["layered", "subjects", "fan-in", "spaced", "versions", "save-body"];

const SUBJECTS = [
  { canonicalId: "cmp_tesco", kind: "company", label: "Tesco PLC", identifiers: [{ type: "ticker", value: "TSCO.L" }] },
  { canonicalId: "cmp_sbry", kind: "company", label: "J Sainsbury plc", identifiers: [{ type: "ticker", value: "SBRY.L" }] },
  { canonicalId: "cmp_ocdo", kind: "company", label: "Ocado Group plc", identifiers: [{ type: "ticker", value: "OCDO.L" }] },
  { canonicalId: "cmp_wmt", kind: "company", label: "Walmart Inc.", identifiers: [{ type: "ticker", value: "WMT" }] },
  { canonicalId: "cmp_cost", kind: "company", label: "Costco Wholesale Corporation", identifiers: [{ type: "ticker", value: "COST" }] },
];

/** A small deterministic generator (mulberry32). */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (next, list) => list[Math.floor(next() * list.length)];
const subjectsOf = (next, count) => {
  const start = Math.floor(next() * SUBJECTS.length);
  return Array.from({ length: count }, (_, i) => SUBJECTS[(start + i) % SUBJECTS.length]);
};

function terminal(id, partId, partVersion, jobId, subjects) {
  return { id, partId, partVersion, terminal: { job: { id: jobId, version: "1" }, subjectRefs: subjects } };
}

const TRIGGER = (id) => ({ id, kind: "trigger", trigger: { kind: "on_demand" } });
const GATE = (id) => ({ id, kind: "gate", belowFloor: "hold" });
const DESTINATION = (id) => ({ id, kind: "destination", destination: { kind: "standalone" } });

/** Terminal parts in groups, each group feeding one pack, every pack to the gate; `name` names node i of a kind. */
function grouped(next, nodeCount, { groupSize, name, terminalFor, review = false }) {
  const nodes = [TRIGGER(name("start", 0))];
  const edges = [];
  const gate = name("floor", 0);
  const inbox = name("inbox", 0);
  // trigger, gate and destination, then per group: its terminals, a pack (and a review).
  let remaining = nodeCount - 3;
  for (let group = 0; remaining > 1; group++) {
    const size = Math.min(remaining - 1 - (review ? 1 : 0), groupSize(next));
    if (size < 1) break;
    const pack = name("pack", group);
    for (let i = 0; i < size; i++) {
      const node = terminalFor(next, name("part", group * 100 + i));
      nodes.push(node);
      edges.push({ from: nodes[0].id, to: node.id }, { from: node.id, to: pack });
    }
    nodes.push({ id: pack, partId: "pack", partVersion: "1" });
    let last = pack;
    if (review) {
      const reviewer = name("review", group);
      nodes.push({ id: reviewer, partId: "review.analyst", partVersion: "1" });
      edges.push({ from: pack, to: reviewer });
      last = reviewer;
    }
    edges.push({ from: last, to: gate });
    remaining -= size + 1 + (review ? 1 : 0);
  }
  nodes.push(GATE(gate), DESTINATION(inbox));
  edges.push({ from: gate, to: inbox });
  return { schemaVersion: 1, nodes, edges };
}

const plainName = (kind, i) => (kind === "start" || kind === "floor" || kind === "inbox" ? kind : `${kind}_${i}`);
const spacedName = (kind, i) => (kind === "start" ? "Start (on demand)" : kind === "floor" ? "Quality floor" : kind === "inbox" ? "Analyst inbox" : `${kind[0].toUpperCase()}${kind.slice(1)} #${i}: weekly run`);

const profile = (next, id) => terminal(id, "terminal.profile", "1", "profile.company", subjectsOf(next, 1));
const anyTerminal = (next, id) => {
  const which = pick(next, ["profile", "compare", "screen"]);
  if (which === "profile") return profile(next, id);
  if (which === "compare") return terminal(id, "terminal.compare", "1", "compare.peers", subjectsOf(next, 2 + Math.floor(next() * 3)));
  return terminal(id, "terminal.screen", "1", "screen.signals", subjectsOf(next, 1 + Math.floor(next() * 4)));
};
const versioned = (next, id) => (next() < 0.5 ? terminal(id, "terminal.screen", "1", "screen.signals", subjectsOf(next, 2)) : terminal(id, "terminal.screen", "2", "screen.imports", subjectsOf(next, 3)));

/** A definition of `nodes` nodes (20-40 for the directory figures) in one of the shapes. */
export function definitionOf(shape, nodeCount, seed) {
  const next = random(seed);
  switch (shape) {
    case "layered":
      return layeredGraph(nodeCount);
    case "subjects":
      return grouped(next, nodeCount, { groupSize: () => 3, name: plainName, terminalFor: anyTerminal });
    case "fan-in":
      return grouped(next, nodeCount, { groupSize: (n) => 6 + Math.floor(n() * 6), name: plainName, terminalFor: profile, review: true });
    case "spaced":
      return grouped(next, nodeCount, { groupSize: (n) => 2 + Math.floor(n() * 3), name: spacedName, terminalFor: anyTerminal });
    case "versions":
      return grouped(next, nodeCount, { groupSize: (n) => 2 + Math.floor(n() * 4), name: plainName, terminalFor: versioned });
    case "save-body": {
      // The trigger and destinations are the body's own; the graph holds the parts.
      const { nodes, edges } = grouped(next, nodeCount + 3, { groupSize: () => 2, name: plainName, terminalFor: profile });
      const kept = nodes.filter((node) => !node.kind);
      const ids = new Set(kept.map((node) => node.id));
      const graph = { schemaVersion: 1, nodes: kept, edges: edges.filter((edge) => ids.has(edge.from) && ids.has(edge.to)) };
      return { scope: { graph }, trigger: { kind: "on_demand" }, destinations: [{ kind: "standalone" }] };
    }
    default:
      throw new Error(`unknown shape ${shape}`);
  }
}

/**
 * Writes `count` definitions of 20-40 nodes into `directory` (emptied first), in ten
 * subdirectories, the shapes in turn; returns the total bytes written.
 */
export function writeJsonDirectory(directory, count, { shapes = SHAPES, seed = 1 } = {}) {
  rmSync(directory, { recursive: true, force: true });
  const next = random(seed);
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const sub = path.join(directory, `team-${i % 10}`);
    if (i < 10) mkdirSync(sub, { recursive: true });
    const shape = shapes[i % shapes.length];
    const text = JSON.stringify(definitionOf(shape, 20 + Math.floor(next() * 21), seed * 100_003 + i), null, 2) + "\n";
    writeFileSync(path.join(sub, `${shape}-${String(i).padStart(5, "0")}.json`), text);
    bytes += text.length;
  }
  return bytes;
}
