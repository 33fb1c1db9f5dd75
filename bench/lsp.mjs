// Keystroke-to-diagnostics latency, measured by the language server's own client-process
// benchmark (packages/language-server/bench/latency.mjs), which this runs and reads, up to
// 100k nodes (the time to open a document is the figure to watch there). The open is the
// median of five fresh server processes: one open is one sample of a noisy host.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../packages/language-server/bench/latency.mjs", import.meta.url));

export async function benchLspLatency() {
  const output = execFileSync(process.execPath, [script, "--debounce", "150", "--sizes", "100,1000,10000,100000", "--opens", "5"], {
    encoding: "utf8",
    env: { ...process.env, WFKIT_BENCH_JSON: "1" },
    maxBuffer: 1 << 24,
  });
  const rows = JSON.parse(output.trim().split("\n").at(-1));
  return rows.map((row) => ({ nodes: row.nodes, lines: row.lines, debounceCapMs: row.debounceMs, openMs: row.openMs, openRunsMs: row.opens, medianMs: row.median, p95Ms: row.p95, maxMs: row.max }));
}
