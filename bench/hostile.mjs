// Hostile text that once took superlinear time: each shape is checked at one size and at 4x
// that size (large enough that the time is the work's, not start-up or a GC pause), and the time ratio must stay within `GROWTH_BUDGET` (linear is about 4,
// quadratic 16). Shapes run through `analyzeSource` (what the CLI and the language server
// call), or through the built CLI where the work is the CLI's own (suppressions).
//
//   node bench/hostile.mjs          print the table; exit 1 if a shape grew past its budget
//   import { benchHostileGrowth } from "./hostile.mjs"   (from bench/run.mjs)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { analyzeSource } from "@wfkit/dsl";
import { performance } from "node:perf_hooks";

/** The largest time ratio allowed for 4x the input. */
export const GROWTH_BUDGET = 6;

const bin = fileURLToPath(new URL("../packages/cli/bin/wfkit.cjs", import.meta.url));

const names = (count, name) => Array.from({ length: count }, (_, i) => name(i));

/** Each shape: a text for a size (a count of its repeated unit), and the size measured first. */
export const HOSTILE_SHAPES = [
  { shape: "error-dense `x ->` lines", language: "wf", size: 40_000, text: (n) => "x ->\n".repeat(n) },
  { shape: "one long misspelt name", language: "wf", size: 100_000, text: (n) => `trigger start on_demand\ndestination ${"a".repeat(n)} standalone\nstart -> ${"a".repeat(n - 1)}b\n` },
  {
    shape: "many misspelt names",
    language: "wf",
    size: 2_500,
    text: (n) => `trigger start on_demand\ndestination inbox standalone\n${names(n, (i) => `part p${i} = pack@1\n`).join("")}${names(n, (i) => `start -> q${i}x\n`).join("")}`,
  },
  {
    shape: "many long misspelt names",
    language: "wf",
    size: 500,
    text: (n) => `trigger start on_demand\n${names(n, (i) => `part ${"n".repeat(150)}${i} = pack@1\n`).join("")}${names(n, (i) => `start -> ${"n".repeat(150)}${i}xy\n`).join("")}`,
  },
  { shape: "one-line chain of undeclared names", language: "wf", size: 40_000, text: (n) => `trigger start on_demand\nstart${names(n, (i) => ` -> q${i}`).join("")}\n` },
  { shape: "many unknown fields in one `with` block", language: "wf", size: 40_000, text: (n) => `workflow "w" with {${names(n, (i) => `"k${i}": 1`).join(", ")}}\ntrigger t on_demand\ndestination d standalone\nt -> d\n` },
  { shape: "many unknown fields in one .json object", language: "json", size: 40_000, text: (n) => `{"schemaVersion": 1, "nodes": [], "edges": [], ${names(n, (i) => `"k${i}": 1`).join(", ")}}` },
  { shape: "deep JSON literal in .wf", language: "wf", size: 5_000, text: (n) => `trigger t on_demand with {"ui": ${"[".repeat(n)}${"]".repeat(n)}}\ndestination d standalone\nt -> d\n` },
  {
    shape: "many inline `# wfkit-ignore` suppressions (built CLI)",
    language: "cli",
    size: 5_000,
    text: (n) => `trigger start on_demand\ndestination inbox standalone\nstart -> inbox\n${names(n, (i) => `# wfkit-ignore dead-end, unreachable: spare\npart s${i} = pack@1\n`).join("")}`,
  },
];

/** The least time of each action, run in turn `times` rounds, so that a slow spell of the host hits both sizes alike. */
function fastestOfEach(actions, times) {
  const best = actions.map(() => Infinity);
  for (let i = 0; i < times; i++) {
    actions.forEach((action, k) => {
      const start = performance.now();
      action();
      best[k] = Math.min(best[k], performance.now() - start);
    });
  }
  return best;
}

function runnerFor(shape, dir) {
  if (shape.language !== "cli") return (text) => () => analyzeSource(text, shape.language);
  return (text, label) => {
    const file = path.join(dir, `${label}.wf`);
    writeFileSync(file, text);
    return () => {
      try {
        execFileSync(process.execPath, [bin, "check", file, "--format", "json"], { stdio: ["ignore", "ignore", "pipe"], maxBuffer: 1 << 28 });
      } catch (error) {
        if (error.status !== 1) throw error;
      }
    };
  };
}

/** Times each shape at its size and at 4x; resolves with one row per shape and `ok`. */
export function benchHostileGrowth({ times = 5 } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "wfkit-hostile-bench-"));
  const rows = [];
  try {
    for (const shape of HOSTILE_SHAPES) {
      const runner = runnerFor(shape, dir);
      const small = shape.text(shape.size);
      const large = shape.text(shape.size * 4);
      const runSmall = runner(small, "small");
      const runLarge = runner(large, "large");
      // Warm-up: the first runs compile the code, which a millisecond-sized input would count.
      runSmall();
      runLarge();
      const [smallMs, largeMs] = fastestOfEach([runSmall, runLarge], times);
      const growth = largeMs / smallMs;
      rows.push({ shape: shape.shape, smallKB: Math.round(small.length / 1024), largeKB: Math.round(large.length / 1024), smallMs, largeMs, growth, budget: GROWTH_BUDGET, met: growth <= GROWTH_BUDGET });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { ok: rows.every((row) => row.met), rows };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = benchHostileGrowth();
  console.table(result.rows.map((row) => ({ ...row, smallMs: Math.round(row.smallMs), largeMs: Math.round(row.largeMs), growth: Number(row.growth.toFixed(2)) })));
  process.exit(result.ok ? 0 : 1);
}
