// `wfkit graph --format svg` against Graphviz's own `dot -Tsvg` on the same DOT text: each a
// whole process, as a user or a docs build runs them. For each shape (graph-shapes.mjs) and
// size, the definition is written as JSON for wfkit, and the DOT that @wfkit/graph lays out
// for it (the same model, faults and catalogue as the CLI's; `toDot`) is written for `dot`,
// so both lay out the same graph with the same attributes. Pairs of fresh processes, one
// unmeasured warm-up pair, then `dot` and wfkit alternating which goes first; the ratio is
// taken pair by pair and its median reported, with the median wall times beside it.
// Graphviz is not a dependency: without `dot` on the PATH the rows are marked missing.
// Needs `npm run build` (the CLI's bundles and packages' dist).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { defaultCatalogue } from "../packages/core/dist/index.js";
import { analyzeSource } from "../packages/dsl/dist/index.js";
import { graphModelOf, toDot } from "../packages/graph/dist/index.js";
import { GRAPH_SHAPES } from "./graph-shapes.mjs";
import { median } from "./measure.mjs";

const tmp = fileURLToPath(new URL("./.tmp/graph-peer/", import.meta.url));
const WFKIT = fileURLToPath(new URL("../packages/cli/bin/wfkit.cjs", import.meta.url));

/** `wfkit graph --format svg` of 100 nodes, at most this many times `dot -Tsvg` (issue 32). */
export const GRAPH_PEER_GOAL = 3;

/** `dot -V`'s version line, or undefined when Graphviz is not installed. */
export function dotVersion() {
  const result = spawnSync("dot", ["-V"], { encoding: "utf8" });
  if (result.error || result.status !== 0) return undefined;
  return result.stderr.trim() || result.stdout.trim();
}

function run(command, args) {
  const start = performance.now();
  const result = spawnSync(command, args, { cwd: tmp, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 1 << 26 });
  const elapsed = performance.now() - start;
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}: ${result.stderr}`);
  return elapsed;
}

/** The DOT @wfkit/graph lays out for a JSON definition, as `wfkit graph --format svg` reads it. */
function wfkitDot(jsonText) {
  const analysis = analyzeSource(jsonText, "json", { catalogue: defaultCatalogue });
  const model = graphModelOf({ definition: analysis.definition, faults: analysis.faults, catalogue: defaultCatalogue, ...(analysis.estimate ? { estimate: analysis.estimate } : {}) });
  return toDot(model, { displayText: (text) => text });
}

/**
 * Rows of `{ shape, size, nodes, pairs, dotMs, wfkitMs, ratio }` (`size` the node count asked
 * for, `nodes` the shape's); without `dot`, `dotMs` and `ratio` are null and `missing` says
 * why (wfkit is still timed).
 */
export function benchGraphPeer({ sizes = [100, 1_000], pairs = 7, shapes = Object.keys(GRAPH_SHAPES), wfkit = WFKIT } = {}) {
  const version = dotVersion();
  mkdirSync(tmp, { recursive: true });
  const rows = [];
  try {
    for (const nodes of sizes) {
      for (const shape of shapes) {
        const name = `${shape.replace(/\W+/g, "-")}-${nodes}`;
        const json = JSON.stringify(GRAPH_SHAPES[shape](nodes), null, 2);
        writeFileSync(`${tmp}${name}.json`, json);
        writeFileSync(`${tmp}${name}.dot`, wfkitDot(json));
        const ours = [process.execPath, [wfkit, "graph", "--format", "svg", `${name}.json`, "-o", `${name}.wfkit.svg`]];
        const theirs = ["dot", ["-Tsvg", `${name}.dot`, "-o", `${name}.dot.svg`]];
        const nodeCount = JSON.parse(json).nodes.length;
        if (!version) {
          run(...ours);
          const times = Array.from({ length: pairs }, () => run(...ours));
          rows.push({ shape, size: nodes, nodes: nodeCount, pairs, dotMs: null, wfkitMs: median(times), ratio: null, missing: "dot (Graphviz) is not installed" });
          continue;
        }
        run(...theirs);
        run(...ours);
        const a = [];
        const b = [];
        const ratios = [];
        for (let i = 0; i < pairs; i++) {
          let dotMs;
          let wfkitMs;
          if (i % 2 === 0) {
            dotMs = run(...theirs);
            wfkitMs = run(...ours);
          } else {
            wfkitMs = run(...ours);
            dotMs = run(...theirs);
          }
          a.push(dotMs);
          b.push(wfkitMs);
          ratios.push(wfkitMs / dotMs);
        }
        rows.push({ shape, size: nodes, nodes: nodeCount, pairs, dotMs: median(a), wfkitMs: median(b), ratio: median(ratios) });
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { dot: version ?? null, goal: GRAPH_PEER_GOAL, rows };
}

// `node bench/graph-peer.mjs [pairs] [--wfkit path/to/wfkit.cjs] [--sizes 100,1000]`: this section alone
// (another build's launcher, for a before/after comparison).
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name) => (args.includes(name) ? args.splice(args.indexOf(name), 2)[1] : undefined);
  const wfkit = option("--wfkit") ?? WFKIT;
  const sizes = (option("--sizes") ?? "100,1000").split(",").map(Number);
  console.log(JSON.stringify(benchGraphPeer({ pairs: Number(args[0] ?? 7), wfkit, sizes }), null, 2));
}
