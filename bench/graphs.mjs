// Realistic generated workflows for the benchmarks: a trigger fanning out to terminal parts,
// report packs each fed by two of them (fan-in), a holding gate and a destination. About two
// edges per node, like the graphs the notes' prototype measured.
export function layeredGraph(nodeCount) {
  const pairs = Math.max(1, Math.floor((nodeCount - 3) / 2));
  const subject = { canonicalId: "cmp_tesco", kind: "company", label: "Tesco PLC", identifiers: [] };
  const nodes = [{ id: "start", kind: "trigger", trigger: { kind: "on_demand" } }];
  const edges = [];
  for (let i = 0; i < pairs; i++) {
    nodes.push({ id: `profile_${i}`, partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [subject] } });
    nodes.push({ id: `pack_${i}`, partId: "pack", partVersion: "1" });
    edges.push({ from: "start", to: `profile_${i}` });
    edges.push({ from: `profile_${i}`, to: `pack_${i}` });
    if (i > 0) edges.push({ from: `profile_${i - 1}`, to: `pack_${i}` });
    edges.push({ from: `pack_${i}`, to: "floor" });
  }
  nodes.push({ id: "floor", kind: "gate", belowFloor: "hold" });
  nodes.push({ id: "inbox", kind: "destination", destination: { kind: "standalone" } });
  edges.push({ from: "floor", to: "inbox" });
  return { schemaVersion: 1, nodes, edges };
}
