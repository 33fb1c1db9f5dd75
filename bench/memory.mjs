// Peak memory of checking and compiling 100k- and 1M-node workflows, each in a fresh
// process: peak resident set size, less that of a process that only loaded the tools and
// read the same file.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { wfTextFor } from "./dsl.mjs";

const tmp = fileURLToPath(new URL("./.tmp/", import.meta.url));
const child = fileURLToPath(new URL("./memory-child.mjs", import.meta.url));
const measure = (file, stage) =>
  JSON.parse(execFileSync(process.execPath, ["--max-old-space-size=16384", child, file, stage], { encoding: "utf8", maxBuffer: 1 << 20 }));

export function benchMemory(sizes) {
  mkdirSync(tmp, { recursive: true });
  const rows = [];
  for (const nodes of sizes) {
    const { json, wf } = wfTextFor(nodes);
    const jsonFile = `${tmp}g${nodes}.json`;
    const wfFile = `${tmp}g${nodes}.wf`;
    writeFileSync(jsonFile, json);
    writeFileSync(wfFile, wf);
    const base = measure(jsonFile, "baseline").maxRssKB;
    const check = measure(jsonFile, "check").maxRssKB;
    const wfBase = measure(wfFile, "baseline").maxRssKB;
    const compile = measure(wfFile, "compile").maxRssKB;
    rows.push({ nodes, jsonCheckPeakMB: (check - base) / 1024, wfCompileCheckPeakMB: (compile - wfBase) / 1024 });
  }
  return rows;
}
