// Preloaded (`node --import`) by whole-process.mjs: writes, as the process exits, its peak
// resident set size (KB) and its minor page faults (pages it touched for the first time) to
// the file WFKIT_BENCH_RSS_FILE names, as JSON.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const usage = process.resourceUsage();
  writeFileSync(process.env.WFKIT_BENCH_RSS_FILE, JSON.stringify({ maxRssKB: usage.maxRSS, minorPageFaults: usage.minorPageFault }));
});
