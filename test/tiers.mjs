/**
 * Which tier each test file belongs to, decided from what the file (and the test helpers it
 * imports, followed through relative imports) reaches for, so a file cannot sit in the wrong
 * tier by oversight:
 *
 * - `browser`: launches a browser (playwright-core, @sparticuz/chromium), the real VS Code too.
 * - `built`:   starts a process (node:child_process): the built CLI, the language server over
 *              stdio, `wfkit serve`, npm. These read the bundles `npm run build` makes.
 * - `slow`:    named below: files that take many seconds whatever they start.
 * - `unit`:    everything else: pure functions and in-process services, seconds in all. What a
 *              developer runs while editing (`npm run test:unit`).
 *
 * A file that is slow *and* starts a browser is `browser`: the tiers partition the files.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Files that take many seconds whatever they start (measured in full runs on a 2-core machine). */
export const SLOW = [
  "test/install/install.test.ts", // packs and installs the tarball and a git clone
  "test/hostile/scale.test.ts", // inputs of 100,000 nodes through the built CLI
  "test/fuzz/regressions.property.test.ts", // every saved counterexample, through the built tools
  "test/signals/client-vs-service.test.ts", // the client against the built service, endpoint by endpoint
  "packages/cli/test/lifecycle.test.ts", // deploy, run and deliver against the built service
  "packages/language-server/test/lsp/soak.test.ts", // thousands of edits over stdio
  "test/hostile/growth.property.test.ts", // hostile inputs at two sizes, timed in turn
  "packages/dsl/test/large.test.ts", // 10,000- and 100,000-node sources
  "packages/core/test/scale.test.ts", // the checker at 100,000 nodes
  "packages/graph/test/graph.test.ts", // Graphviz in WebAssembly, laid out again and again
  "packages/dsl/test/jsonc-parser-pure.test.ts", // bundles the parser twice with esbuild
  "packages/dsl/test/lazy-chevrotain.test.ts", // bundles the DSL with esbuild
  "packages/client/test/transport-timeouts.test.ts", // waits out real timeouts on loopback
  "packages/graph/test/engine-reuse.test.ts", // hundreds of Graphviz layouts in one engine
  "packages/language-server/test/incremental-parser.test.ts", // edit sequences on large documents
  "packages/cli/test/json-walk.property.test.ts", // the walk's decision against its oracle, and its budgets
];

const BROWSER = /["'](playwright-core|@sparticuz\/chromium)["']/;
const PROCESS = /["']node:child_process["']|["']child_process["']/;
const RELATIVE_IMPORT = /(?:import|export)\s[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, base.replace(/\.js$/, ".ts"), base.replace(/\.mjs$/, ".mts"), `${base}.ts`, path.join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** What a file reaches for, through the test helpers it imports (not into packages' sources). */
function reaches(file, seen = new Map()) {
  if (seen.has(file)) return seen.get(file);
  const found = { browser: false, process: false };
  seen.set(file, found);
  const text = readFileSync(file, "utf8");
  found.browser = BROWSER.test(text);
  found.process = PROCESS.test(text);
  for (const match of text.matchAll(RELATIVE_IMPORT)) {
    const target = resolveImport(file, match[1] ?? match[2]);
    // Sources are what tests exercise, not how they run: only test helpers count.
    if (!target || /[/\\]src[/\\]/.test(path.relative(root, target))) continue;
    const inner = reaches(target, seen);
    found.browser ||= inner.browser;
    found.process ||= inner.process;
  }
  return found;
}

function testFiles() {
  const files = [];
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".test.ts")) files.push(path.relative(root, full).split(path.sep).join("/"));
    }
  };
  for (const directory of ["packages", "test"]) walk(path.join(root, directory));
  return files.filter((file) => file.startsWith("test/") || /^packages\/[^/]+\/test\//.test(file)).sort();
}

/**
 * Whether a file replaces modules or globals for its own run (`vi.mock`, `vi.stubGlobal`...):
 * such a file needs a module registry of its own. The rest of the unit tier shares one per
 * worker, which makes the tier several times faster to load.
 */
export function needsIsolation(file) {
  return /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/.test(readFileSync(path.join(root, file), "utf8"));
}

/** Every test file by tier, as paths relative to the repository root. */
export function tiers() {
  const result = { unit: [], built: [], browser: [], slow: [] };
  const seen = new Map();
  for (const file of testFiles()) {
    const found = reaches(path.join(root, file), seen);
    if (found.browser) result.browser.push(file);
    else if (SLOW.includes(file)) result.slow.push(file);
    else if (found.process) result.built.push(file);
    else result.unit.push(file);
  }
  return result;
}
