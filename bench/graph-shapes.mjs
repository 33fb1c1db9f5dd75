// Workflows of several shapes for the picture figures (bench/graph-peer.mjs) and for the test
// that lays many graphs out in one Graphviz engine (packages/graph/test/engine-reuse.test.ts).
// Each takes a node count and returns a Definition of about that many nodes; all are valid
// against the sample catalogue's part ids, so the drawing shows what it shows for real files.
import { layeredGraph } from "./graphs.mjs";

const trigger = (id = "start") => ({ id, kind: "trigger", trigger: { kind: "on_demand" } });
const gate = (id = "floor") => ({ id, kind: "gate", belowFloor: "hold" });
const destination = (id = "inbox") => ({ id, kind: "destination", destination: { kind: "standalone" } });
const subject = { canonicalId: "cmp_tesco", kind: "company", label: "Tesco PLC", identifiers: [] };
const profile = (id) => ({ id, partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [subject] } });
const pack = (id) => ({ id, partId: "pack", partVersion: "1" });

/** Many terminal parts feeding few packs: each pack fed by `fanIn` profiles (fan-in). */
export function fanInGraph(nodeCount, fanIn = 8) {
  const groups = Math.max(1, Math.floor((nodeCount - 3) / (fanIn + 1)));
  const nodes = [trigger()];
  const edges = [];
  for (let g = 0; g < groups; g++) {
    nodes.push(pack(`pack_${g}`));
    for (let i = 0; i < fanIn; i++) {
      nodes.push(profile(`profile_${g}_${i}`));
      edges.push({ from: "start", to: `profile_${g}_${i}` }, { from: `profile_${g}_${i}`, to: `pack_${g}` });
    }
    edges.push({ from: `pack_${g}`, to: "floor" });
  }
  nodes.push(gate(), destination());
  edges.push({ from: "floor", to: "inbox" });
  return { schemaVersion: 1, nodes, edges };
}

/** One long chain: a profile, its pack, then analyst reviews one after another to the gate. */
export function chainGraph(nodeCount) {
  const nodes = [trigger(), profile("profile"), pack("pack")];
  const edges = [{ from: "start", to: "profile" }, { from: "profile", to: "pack" }];
  let previous = "pack";
  for (let i = 0; i < Math.max(1, nodeCount - 5); i++) {
    nodes.push({ id: `review_${i}`, partId: "review.analyst", partVersion: "1" });
    edges.push({ from: previous, to: `review_${i}` });
    previous = `review_${i}`;
  }
  nodes.push(gate(), destination());
  edges.push({ from: previous, to: "floor" }, { from: "floor", to: "inbox" });
  return { schemaVersion: 1, nodes, edges };
}

/** The trigger fanning out to every terminal part, each straight to the gate (one wide rank). */
export function fanOutGraph(nodeCount) {
  const nodes = [trigger()];
  const edges = [];
  for (let i = 0; i < Math.max(1, nodeCount - 3); i++) {
    nodes.push(profile(`profile_${i}`));
    edges.push({ from: "start", to: `profile_${i}` }, { from: `profile_${i}`, to: "floor" });
  }
  nodes.push(gate(), destination());
  edges.push({ from: "floor", to: "inbox" });
  return { schemaVersion: 1, nodes, edges };
}

/** The layered graph with ids as people write them: spaces, quotes, backslashes, non-ASCII. */
export function spacedIdsGraph(nodeCount) {
  const graph = layeredGraph(nodeCount);
  const rename = (id) => (id === "start" || id === "floor" || id === "inbox" ? id : `${id.replace("_", " #")} "Q3" \\ Zürich`);
  return {
    ...graph,
    nodes: graph.nodes.map((node) => ({ ...node, id: rename(node.id) })),
    edges: graph.edges.map((edge) => ({ from: rename(edge.from), to: rename(edge.to) })),
  };
}

/** Each shape the picture figures use, by name. */
export const GRAPH_SHAPES = {
  layered: layeredGraph,
  "fan-in into packs": fanInGraph,
  "ids with spaces": spacedIdsGraph,
  "long chain": chainGraph,
  "wide fan-out": fanOutGraph,
};
