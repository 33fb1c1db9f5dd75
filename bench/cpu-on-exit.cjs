// Preloaded (`node -r`, CommonJS: no ES module loader is started for it) by json-dir.mjs:
// writes, as the process exits, the CPU time it used (user and system, µs) to the file
// WFKIT_BENCH_CPU_FILE names. On a shared machine the CPU time of two processes compares
// more steadily than their wall time, which also counts the time they waited for a core.
const { writeFileSync } = require("node:fs");

process.on("exit", () => {
  const usage = process.resourceUsage();
  writeFileSync(process.env.WFKIT_BENCH_CPU_FILE, String(usage.userCPUTime + usage.systemCPUTime));
});
