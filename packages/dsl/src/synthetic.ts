/**
 * Synthetic `.wf` sources of any size, for benchmarks and for the tests that large files
 * compile without deep recursion. Every file is valid against the default catalogue.
 */

export interface SyntheticOptions {
  /**
   * "lines": one edge statement per link (`p1 -> p2` lines);
   * "chain": one statement joining every node (`p0 -> p1 -> ... -> pN`).
   */
  edges?: "lines" | "chain";
}

/**
 * A workflow of `partCount` profile parts in sequence between a trigger and a destination:
 * `trigger start`, parts `p0..pN-1` (terminal.profile, one pinned subject), `destination out`.
 */
export function syntheticSource(partCount: number, options: SyntheticOptions = {}): string {
  const lines: string[] = [`workflow "synthetic-${partCount}"`, "", 'subject acme = company "cmp_tesco" "Tesco PLC"', "", "trigger start on_demand"];
  for (let i = 0; i < partCount; i++) lines.push(`part p${i} = terminal.profile@1 { job profile.company@1 subjects [acme] }`);
  lines.push("destination out standalone", "");
  const names = ["start", ...Array.from({ length: partCount }, (_, i) => `p${i}`), "out"];
  if (options.edges === "chain") {
    lines.push(names.join(" -> "));
  } else {
    for (let i = 1; i < names.length; i++) lines.push(`${names[i - 1]} -> ${names[i]}`);
  }
  return lines.join("\n") + "\n";
}
