// Benchmark documents: realistic `.wf` workflows of a given number of nodes.

/** A workflow of `nodes` nodes: a trigger, profile/pack part pairs, a destination. */
export function generate(nodes) {
  const lines = ['workflow "bench"', 'subject tesco = company "cmp_tesco" "Tesco PLC"', "trigger start on_demand"];
  const pairs = Math.max(1, Math.floor((nodes - 2) / 2));
  for (let i = 0; i < pairs; i++) {
    lines.push(`part p${i} = terminal.profile@1 {`, "  job profile.company@1", "  subjects [tesco]", "}", `part k${i} = pack@1`, `start -> p${i} -> k${i} -> inbox`);
  }
  lines.push("destination inbox standalone");
  return { text: lines.join("\n") + "\n", nodes: pairs * 2 + 2 };
}
