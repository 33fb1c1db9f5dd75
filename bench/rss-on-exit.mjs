// Preloaded (`node --import`) by whole-process.mjs: writes the process's peak resident set
// size, in KB, to the file WFKIT_BENCH_RSS_FILE names, as the process exits.
import { writeFileSync } from "node:fs";

process.on("exit", () => writeFileSync(process.env.WFKIT_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));
