// `wfkit check DIR` over a directory of JSON definitions, as a CI job runs it, beside its
// peers: a floor that only walks the directory, reads every file and `JSON.parse`s it (what
// any tool that reads them pays), and `ajv validate` (ajv-cli) of the same files against the
// published definition schema (packages/core/schema/definition.schema.json), which checks
// their shape and nothing of the graph or the catalogue. Also `wfkit check` naming every file
// on the command line instead of the directory (the same files, the same work).
//
// Directories of 200, 2,000 and 10,000 files of 20-40 nodes in six shapes (json-files.mjs).
// Each size runs its commands in rounds, each round in a turned order (A B C D, B C D A...),
// each command a fresh process, one unmeasured round first; the ratio to the floor (and of
// wfkit to ajv) is taken round by round and its median reported, with median wall and CPU
// times (CPU from a preload, cpu-on-exit.cjs: the host is shared, and CPU time, which does not
// count waiting for a core, compares more steadily).
//
// Run alone: node bench/json-dir.mjs [--sizes 200,2000,10000] [--rounds 7] [--baseline FILE] [--write]
//   --baseline FILE  also runs another build's `wfkit` (its bin/wfkit.cjs, or a launcher beside
//                    its cli.cjs) in the same rounds, for a before/after side by side
//                    (`before*` columns; the figures written are the current build's alone);
//   --write          puts the rows, and their goals, into bench/results.json in place of
//                    `npm run bench`'s (the rest of the file is left as it is).
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { writeJsonDirectory } from "./json-files.mjs";
import { median } from "./measure.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const tmp = path.join(root, "bench/.tmp");
const wfkit = path.join(root, "packages/cli/bin/wfkit.cjs");
const ajvCli = path.join(root, "node_modules/ajv-cli/dist/index.js");
const schema = path.join(root, "packages/core/schema/definition.schema.json");
const cpuPreload = path.join(root, "bench/cpu-on-exit.cjs");

/** Walks the directory, reads every `.json` file and parses it: the floor. */
const FLOOR = `const fs = require("node:fs"), path = require("node:path");
const pending = [process.argv[1]];
while (pending.length) {
  const directory = pending.pop();
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) pending.push(file);
    else if (entry.name.endsWith(".json")) JSON.parse(fs.readFileSync(file, "utf8"));
  }
}`;

function run(args, cpuFile) {
  const start = performance.now();
  const result = spawnSync(process.execPath, ["-r", cpuPreload, ...args], { cwd: tmp, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, WFKIT_BENCH_CPU_FILE: cpuFile }, maxBuffer: 1 << 28 });
  const wallMs = performance.now() - start;
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${args.slice(0, 3).join(" ")} exited with ${result.status}: ${String(result.stderr).slice(-2000)}`);
  return { wallMs, cpuMs: Number(readFileSync(cpuFile, "utf8")) / 1000 };
}

/** `rounds` rounds of every command (the order turned each round) after one unmeasured round. */
function rounds(commands, count, cpuFile) {
  const names = Object.keys(commands);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) run(commands[name], cpuFile);
  for (let r = 0; r < count; r++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length];
      samples[name].push(run(commands[name], cpuFile));
    }
  return samples;
}

const ratio = (a, b, key) => median(a.map((sample, i) => sample[key] / b[i][key]));

/** The rounds per size: fewer for the largest, and for BENCH_QUICK. */
export function roundsFor(files, quick) {
  if (quick) return files >= 10_000 ? 1 : 3;
  return files >= 10_000 ? 7 : 9;
}

export function benchJsonDirectory({ sizes = [200, 2_000, 10_000], quick = false, roundsOf = (files) => roundsFor(files, quick), baseline = undefined } = {}) {
  mkdirSync(tmp, { recursive: true });
  const cpuFile = path.join(tmp, `cpu-${process.pid}.txt`);
  const rows = [];
  try {
    for (const files of sizes) {
      // Named by the process too: two benches on one machine must not share a directory.
      const name = `json-dir-${process.pid}-${files}`;
      const directory = path.join(tmp, name);
      const bytes = writeJsonDirectory(directory, files);
      const listed = [];
      for (let i = 0; i < 10; i++) for (const entry of readdirSync(path.join(directory, `team-${i}`)).sort()) listed.push(`${name}/team-${i}/${entry}`);
      const count = roundsOf(files);
      const samples = rounds(
        {
          floor: ["-e", FLOOR, name],
          wfkit: [wfkit, "check", name],
          wfkitNamed: [wfkit, "check", ...listed],
          ajv: [ajvCli, "validate", "-s", schema, "-d", `${name}/**/*.json`],
          ...(baseline ? { before: [baseline, "check", name] } : {}),
        },
        count,
        cpuFile,
      );
      const { floor, wfkit: dir, wfkitNamed: named, ajv } = samples;
      const stat = (values, key) => median(values.map((sample) => sample[key]));
      rows.push({
        files,
        megabytes: bytes / 2 ** 20,
        rounds: count,
        floorMs: stat(floor, "wallMs"),
        wfkitMs: stat(dir, "wallMs"),
        ajvMs: stat(ajv, "wallMs"),
        wfkitNamedMs: stat(named, "wallMs"),
        wfkitVsFloor: ratio(dir, floor, "wallMs"),
        wfkitVsAjv: ratio(dir, ajv, "wallMs"),
        ajvVsFloor: ratio(ajv, floor, "wallMs"),
        namedVsDirectory: ratio(named, dir, "wallMs"),
        floorCpuMs: stat(floor, "cpuMs"),
        wfkitCpuMs: stat(dir, "cpuMs"),
        ajvCpuMs: stat(ajv, "cpuMs"),
        wfkitVsFloorCpu: ratio(dir, floor, "cpuMs"),
        wfkitVsAjvCpu: ratio(dir, ajv, "cpuMs"),
        wfkitMsPerFile: stat(dir, "wallMs") / files,
        ...(samples.before
          ? {
              beforeMs: stat(samples.before, "wallMs"),
              beforeCpuMs: stat(samples.before, "cpuMs"),
              beforeVsFloor: ratio(samples.before, floor, "wallMs"),
              beforeVsAjv: ratio(samples.before, ajv, "wallMs"),
              wfkitVsBefore: ratio(dir, samples.before, "wallMs"),
              wfkitVsBeforeCpu: ratio(dir, samples.before, "cpuMs"),
            }
          : {}),
      });
      rmSync(directory, { recursive: true, force: true });
    }
  } finally {
    rmSync(cpuFile, { force: true });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const sizes = option("sizes", "200,2000,10000").split(",").map(Number);
  const fixed = option("rounds", undefined);
  const baseline = option("baseline", undefined);
  const rows = benchJsonDirectory({ sizes, quick: process.env.BENCH_QUICK === "1", ...(fixed ? { roundsOf: () => Number(fixed) } : {}), ...(baseline ? { baseline: path.resolve(baseline) } : {}) });
  console.table(rows);
  if (args.includes("--write")) {
    const file = path.join(root, "bench/results.json");
    const results = JSON.parse(readFileSync(file, "utf8"));
    const own = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith("before") && key !== "wfkitVsBefore" && key !== "wfkitVsBeforeCpu")));
    results.jsonDirectory = own;
    // The goals' names are run.mjs's, so that either run replaces the other's.
    for (const row of own) {
      results.goals[`check DIR of ${row.files} JSON files within 3x a walk+read+JSON.parse floor`] = { value: row.wfkitVsFloor, goal: 3 };
      results.goals[`check DIR of ${row.files} JSON files within 1.0x ajv-cli validate`] = { value: row.wfkitVsAjv, goal: 1 };
    }
    writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
    console.log("wrote the jsonDirectory section of bench/results.json");
  }
}
