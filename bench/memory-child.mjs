// One measurement in a fresh process: read a workflow file and check (JSON) or compile and
// check (.wf) it; print the process's peak resident memory. Run by memory.mjs.
import { readFileSync } from "node:fs";
const [file, stage] = process.argv.slice(2);
const { validateDefinition } = await import("@wfkit/core");
const { compile } = await import("@wfkit/dsl");
const text = readFileSync(file, "utf8");
const before = process.resourceUsage().maxRSS;
let result;
if (stage === "baseline") result = text.length;
else if (stage === "check") result = validateDefinition(JSON.parse(text)).ok;
else result = validateDefinition(compile(text).definition).ok;
const usage = process.memoryUsage();
process.stdout.write(JSON.stringify({ result, maxRssKB: process.resourceUsage().maxRSS, beforeKB: before, heapUsedKB: Math.round(usage.heapUsed / 1024) }));
