/**
 * The CLI's graph bundle compiles Graphviz from graphvizlib.wasm beside it (packages/cli/scripts/
 * bundles.mjs, graphvizWasmBeside) with V8 settings for a single drawing: its drawings must be
 * byte for byte the library's own, and the settings must not cost the launcher its code cache.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultCatalogue } from "@wfkit/core";
import { analyzeSource } from "@wfkit/dsl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPH_SHAPES } from "../../../bench/graph-shapes.mjs";
import { cliRoot, ensureBuilt } from "../../../test/support/built-cli.js";
import { graphModelOf, renderSvg } from "../src/index.js";

const bundleDir = path.join(cliRoot, "dist", "bundle");
let work: string;
let launcher: string;

beforeAll(() => {
  ensureBuilt();
  // A copy of the bundles, so that the code cache this test writes is its own.
  work = mkdtempSync(path.join(tmpdir(), "wfkit-engine-cli-"));
  cpSync(bundleDir, path.join(work, "bundle"), { recursive: true, filter: (file) => !file.endsWith(".cache") && !file.endsWith(".map") });
  launcher = path.join(work, "bundle", "wfkit.cjs");
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

function wfkit(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [launcher, ...args], { cwd: work, encoding: "utf8", maxBuffer: 1 << 26 });
}

describe("the CLI's graph bundle", () => {
  it("carries no WebAssembly in its JavaScript and reads a valid module beside it", () => {
    expect(statSync(path.join(bundleDir, "graph.mjs")).size).toBeLessThan(200_000);
    expect(WebAssembly.validate(readFileSync(path.join(bundleDir, "graphvizlib.wasm")))).toBe(true);
  });

  it("draws every benchmark shape byte for byte as @wfkit/graph does in-process", async () => {
    for (const [shape, make] of Object.entries(GRAPH_SHAPES)) {
      const definition = make(100);
      const file = path.join(work, `${shape.replace(/\W+/g, "-")}.json`);
      writeFileSync(file, JSON.stringify(definition, null, 2));
      const run = wfkit(["graph", "--format", "svg", file]);
      expect(run.status, `${shape}: ${run.stderr}`).toBe(0);
      const analysis = analyzeSource(readFileSync(file, "utf8"), "json", { catalogue: defaultCatalogue });
      const model = graphModelOf({ definition: analysis.definition, faults: analysis.faults, catalogue: defaultCatalogue, ...(analysis.estimate ? { estimate: analysis.estimate } : {}) });
      // The CLI shows text through `printable`, which leaves these ids as they are.
      expect(run.stdout === (await renderSvg(model, { displayText: (text) => text })), shape).toBe(true);
    }
  });

  it("leaves the launcher a code cache that the next command accepts", () => {
    const file = path.join(work, "small.json");
    writeFileSync(file, JSON.stringify(GRAPH_SHAPES.layered!(20)));
    const cache = path.join(work, "bundle", "cli.cjs.cache");
    rmSync(cache, { force: true });
    expect(wfkit(["graph", "--format", "svg", file, "-o", path.join(work, "small.svg")]).status).toBe(0);
    const written = readFileSync(cache);
    // A cache V8 refused would be written again as the next command exits: the same command
    // leaves it as it is; another (`check`) writes it once, holding both (launch.ts).
    expect(wfkit(["graph", "--format", "svg", file, "-o", path.join(work, "small.svg")]).status).toBe(0);
    expect(readFileSync(cache).equals(written)).toBe(true);
    expect(wfkit(["check", file]).status).toBe(0);
    const withCheck = readFileSync(cache);
    expect(withCheck.toString("latin1", 0, 200).split("\n")[1]).toBe("graph check");
    expect(wfkit(["check", file]).status).toBe(0);
    expect(readFileSync(cache).equals(withCheck)).toBe(true);
  });
});
