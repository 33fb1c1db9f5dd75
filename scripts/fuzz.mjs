// `npm run fuzz`: every fast-check property in the repository (each package's property tests
// and test/fuzz's hostile-input properties), with far more runs than the unit suite, plus a
// coverage report of the parser and checker. A failure saves its counterexample under
// test/fuzz/regressions/ (see test/fuzz/regressions.ts), which the unit suite then replays.
//
//   npm run fuzz                        FUZZ_RUNS runs per property (default 5,000)
//   FUZZ_RUNS=20000 npm run fuzz        more runs
//   FUZZ_SECONDS=600 npm run fuzz       a time budget instead: each property runs until its
//                                       share of the budget is spent (interruptAfterTimeLimit)
//   npm run fuzz -- packages/dsl        only the property files under a path
//   node scripts/fuzz.mjs --replay test/fuzz/regressions/X.json
//                                       re-run the test an inline regression came from, with
//                                       its seed and path (used by test/fuzz/regressions.property.test.ts)
//
// Output: a table of runs per property, failures, and coverage (text summary here, HTML in
// coverage/); the figures are also written to .fuzz-out/last-run.json.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = path.join(root, ".fuzz-out");
const setupFile = path.join(root, "test", "fuzz", "setup.ts");

/** Test files holding fast-check properties: by the house's naming, `*.property.test.ts` (test/tiers.test.ts holds every file that runs one to it). */
function propertyFiles(under) {
  const found = [];
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".property.test.ts")) found.push(path.relative(root, full));
    }
  };
  for (const start of ["packages", "test"]) if (existsSync(path.join(root, start))) walk(path.join(root, start));
  return found.filter((file) => under.length === 0 || under.some((prefix) => file.startsWith(prefix.replace(/^\.\//, "")))).sort();
}

/** How many properties a file runs, roughly: its `fc.assert(` calls, and the named properties. */
function countProperties(files) {
  let count = 0;
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    count += (text.match(/fc\.assert\(/g) ?? []).length;
    if (file.endsWith(path.join("test", "fuzz", "properties.property.test.ts"))) {
      const registry = readFileSync(path.join(root, "test", "fuzz", "properties.ts"), "utf8");
      count += (registry.match(/^const \w+: NamedProperty</gm) ?? []).length;
    }
  }
  return Math.max(1, count);
}

async function runVitest(files, { coverage, testNamePattern, testTimeout }) {
  const { startVitest } = await import("vitest/node");
  const options = {
    run: true,
    watch: false,
    setupFiles: [setupFile],
    testTimeout,
    hookTimeout: testTimeout,
    ...(testNamePattern ? { testNamePattern } : {}),
    coverage: coverage
      ? {
          enabled: true,
          provider: "v8",
          include: ["packages/core/src/**", "packages/dsl/src/**"],
          exclude: ["**/generated/**"],
          reporter: ["text-summary", "html", "json-summary"],
          reportsDirectory: path.join(root, "coverage"),
          // A failing property is what the fuzz is for; its coverage still counts.
          reportOnFailure: true,
        }
      : { enabled: false },
  };
  const vitest = await startVitest("test", files, options);
  const failed = !vitest || vitest.state.getCountOfFailedTests() > 0 || vitest.state.getUnhandledErrors().length > 0;
  // Tests that ran (passed or failed): a name pattern that matches nothing must not pass.
  const ran = vitest ? vitest.state.getFiles().flatMap((file) => allTests(file)).filter((test) => test.result?.state === "pass" || test.result?.state === "fail").length : 0;
  await vitest?.close();
  return { failed, ran };
}

function allTests(task) {
  return task.type === "test" ? [task] : (task.tasks ?? []).flatMap(allTests);
}

async function replay(file) {
  const regression = JSON.parse(readFileSync(file, "utf8"));
  if (regression.kind !== "inline") throw new Error(`${file} is a registry regression: test/fuzz/regressions.property.test.ts replays it directly`);
  process.env.FUZZ_REPLAY_SEED = String(regression.seed);
  process.env.FUZZ_REPLAY_PATH = regression.path ?? "";
  // The test's own name (vitest joins describe blocks differently from expect.getState()).
  const ownName = regression.testName.split(" > ").at(-1);
  const pattern = new RegExp(`${ownName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  const { failed, ran } = await runVitest([regression.testFile], { coverage: false, testNamePattern: pattern, testTimeout: 300_000 });
  if (ran === 0) console.error(`fuzz --replay: no test named ${JSON.stringify(regression.testName)} ran in ${regression.testFile}`);
  process.exit(failed || ran === 0 ? 1 : 0);
}

async function fuzz(filters) {
  const files = propertyFiles(filters);
  if (!files.length) {
    console.error(`fuzz: no property test files under ${filters.join(", ")}`);
    process.exit(2);
  }
  const seconds = Number(process.env.FUZZ_SECONDS);
  const runs = Number(process.env.FUZZ_RUNS);
  const properties = countProperties(files);
  // Files run in parallel, one per worker: a property gets its share of the budget per worker.
  const workers = Math.max(1, Math.min(os.availableParallelism(), files.length));
  let propertyMs = 0;
  if (Number.isFinite(seconds) && seconds > 0) {
    propertyMs = Math.max(1000, Math.floor((seconds * 1000 * workers) / properties));
    process.env.FUZZ_PROPERTY_MS = String(propertyMs);
    // The budget decides; the run count is only a ceiling.
    process.env.FC_NUM_RUNS = String(Number.isFinite(runs) && runs > 0 ? runs : 1_000_000_000);
  } else {
    process.env.FC_NUM_RUNS = String(Number.isFinite(runs) && runs > 0 ? runs : 5_000);
  }
  mkdirSync(outDir, { recursive: true });
  const statsFile = path.join(outDir, "stats.jsonl");
  rmSync(statsFile, { force: true });
  appendFileSync(statsFile, "");
  process.env.FUZZ_STATS = statsFile;

  console.log(`fuzz: ${files.length} files, about ${properties} properties; ${propertyMs ? `${Math.round(propertyMs / 1000)} s per property` : `${process.env.FC_NUM_RUNS} runs per property`}`);
  for (const file of files) console.log(`  ${file}`);
  const started = Date.now();
  // Generous: shrinking a counterexample can take a while after the budget.
  const testTimeout = (propertyMs || 0) + 30 * 60_000;
  const { failed } = await runVitest(files, { coverage: true, testTimeout });

  const byProperty = new Map();
  for (const line of readFileSync(statsFile, "utf8").split("\n")) {
    if (!line) continue;
    const run = JSON.parse(line);
    const entry = byProperty.get(run.property) ?? { property: run.property, runs: 0, skipped: 0, failed: 0, interrupted: 0 };
    entry.runs += run.numRuns;
    entry.skipped += run.numSkips;
    if (run.failed) entry.failed++;
    if (run.interrupted) entry.interrupted++;
    byProperty.set(run.property, entry);
  }
  const rows = [...byProperty.values()].sort((a, b) => a.property.localeCompare(b.property));
  console.log("\n## Runs per property");
  console.table(rows.map((row) => ({ ...row, property: row.property.length > 110 ? row.property.slice(0, 109) + "…" : row.property })));
  const totals = { properties: rows.length, runs: rows.reduce((sum, row) => sum + row.runs, 0), failures: rows.reduce((sum, row) => sum + row.failed, 0) };
  let coverage;
  const summaryFile = path.join(root, "coverage", "coverage-summary.json");
  if (existsSync(summaryFile) && statSync(summaryFile).mtimeMs >= started) {
    const summary = JSON.parse(readFileSync(summaryFile, "utf8"));
    const perPackage = {};
    for (const [file, figures] of Object.entries(summary)) {
      if (file === "total") continue;
      const pkg = /packages\/(\w+)\//.exec(file)?.[1] ?? "other";
      const into = (perPackage[pkg] ??= { statements: [0, 0], branches: [0, 0], functions: [0, 0], lines: [0, 0] });
      for (const key of Object.keys(into)) {
        into[key][0] += figures[key].covered;
        into[key][1] += figures[key].total;
      }
    }
    const kinds = ["lines", "statements", "functions", "branches"];
    coverage = { total: Object.fromEntries(kinds.map((key) => [key, summary.total[key].pct])) };
    for (const [pkg, figures] of Object.entries(perPackage)) coverage[pkg] = Object.fromEntries(Object.entries(figures).map(([key, [covered, total]]) => [key, total ? Math.round((covered / total) * 10000) / 100 : 100]));
    console.log("\n## Coverage of packages/core/src and packages/dsl/src (%; HTML in coverage/index.html)");
    console.table(coverage);
  }
  const saved = existsSync(path.join(root, "test", "fuzz", "regressions")) ? readdirSync(path.join(root, "test", "fuzz", "regressions")).filter((name) => name.endsWith(".json")) : [];
  const report = { finishedAt: new Date().toISOString(), seconds: Math.round((Date.now() - started) / 1000), files, propertyMs: propertyMs || undefined, numRunsCeiling: Number(process.env.FC_NUM_RUNS), totals, properties: rows, coverage, savedRegressions: saved, failed };
  writeFileSync(path.join(outDir, "last-run.json"), JSON.stringify(report, null, 2) + "\n");
  console.log(`\nfuzz: ${totals.runs.toLocaleString("en")} runs of ${totals.properties} properties in ${report.seconds} s; ${totals.failures} failing; ${saved.length} saved regressions (test/fuzz/regressions/)`);
  process.exit(failed ? 1 : 0);
}

const args = process.argv.slice(2);
if (args[0] === "--replay") await replay(path.resolve(args[1] ?? ""));
else await fuzz(args);
