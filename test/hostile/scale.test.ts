// Big hostile inputs, generated here (no giant files in the repository). No clock: a test
// checks that the answer is right and that nothing overflowed or was cut; speed belongs to
// `npm run bench`. 1,000,000 nodes go through the checker only here: through the DSL and the
// CLI they take about a minute, so that run is in test/fuzz/scale.mjs (see docs/hardening.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { validateDefinition, type Definition } from "@wfkit/core";
import { parseJsonSource } from "@wfkit/dsl";
import { layeredGraph } from "../../bench/graphs.mjs";
import { checkFile, ensureBuilt, runCli, tempDir, type JsonFault } from "./support.js";

beforeAll(() => ensureBuilt());

const trigger = (id: string) => ({ id, kind: "trigger" as const, trigger: { kind: "on_demand" as const } });
const destination = (id: string) => ({ id, kind: "destination" as const, destination: { kind: "standalone" as const } });

describe("a million nodes and a million edges, in the checker", () => {
  it("validates a 1,000,000-node chain as valid, without overflowing the stack", () => {
    const count = 1_000_000;
    const nodes: Definition["nodes"] = [trigger("start")];
    const edges: Definition["edges"] = [];
    let previous = "start";
    for (let i = 0; i < count - 2; i++) {
      const id = `g${i}`;
      nodes.push({ id, kind: "gate", belowFloor: "hold" });
      edges.push({ from: previous, to: id });
      previous = id;
    }
    nodes.push(destination("end"));
    edges.push({ from: previous, to: "end" });
    const result = validateDefinition({ schemaVersion: 1, nodes, edges });
    expect(result.faults).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("reports 1,000,000 edges into one node as 999,999 duplicates of the first, each on its own edge", () => {
    const edges = Array.from({ length: 1_000_000 }, () => ({ from: "start", to: "end" }));
    const result = validateDefinition({ schemaVersion: 1, nodes: [trigger("start"), destination("end")], edges });
    expect(result.faults).toHaveLength(999_999);
    expect(result.faults.every((fault) => fault.code === "edge-duplicate")).toBe(true);
    expect(result.faults[0]!.pointer).toBe("/edges/1");
    expect(result.faults.at(-1)!.pointer).toBe("/edges/999999");
  });
});

describe("a 50 MB file through the CLI", () => {
  const MB = 1024 * 1024;

  it("a 50 MB .json definition (a valid graph with a 50 MB note) is checked whole: one warning, exit 0", () => {
    const definition = { schemaVersion: 1, nodes: [trigger("start"), destination("end")], edges: [{ from: "start", to: "end" }], note: "n".repeat(50 * MB) };
    const text = JSON.stringify(definition);
    const dir = tempDir({ "big.json": text });
    const run = checkFile(dir, "big.json");
    expect(run.status).toBe(0);
    expect(run.faults.map((fault) => [fault.code, fault.range.start])).toEqual([["unknown-field", { line: 1, column: text.indexOf('"note"') + 1 }]]);
    // The message names the field, not its 50 MB value.
    expect(run.faults[0]!.message.length).toBeLessThan(500);
  });

  it("a 50 MB .wf (a valid graph under 50 MB of comments) is checked, and its last line is still read", () => {
    const lines = (50 * MB) / 100;
    const comments = `# ${"c".repeat(97)}\n`.repeat(lines);
    const text = `${comments}trigger start on_demand\ndestination end standalone\nstart -> end\nstart -> nowhere\n`;
    const dir = tempDir({ "big.wf": text });
    const run = checkFile(dir, "big.wf");
    expect(run.status).toBe(1);
    expect(run.faults.map((fault) => [fault.code, fault.range.start.line])).toEqual([["undeclared-node", lines + 4]]);
  });

  it("fmt --write on a broken 50 MB .wf leaves it whole", () => {
    const text = `${`# ${"c".repeat(97)}\n`.repeat((50 * MB) / 100)}trigger start on_demand {\n`;
    const dir = tempDir({ "big.wf": text });
    const run = runCli(["fmt", "--write", "big.wf"], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(readFileSync(path.join(dir, "big.wf"), "utf8") === text).toBe(true);
  });
});

describe("a large .json definition within a small heap", () => {
  it("checks a 30 MB definition (50,000 terminal parts, one misspelt) in a 160 MB heap and places its faults as the full tree would", () => {
    const graph = layeredGraph(100_003);
    const misspelt = graph.nodes.length - 4;
    graph.nodes[misspelt]!.partId = "pak";
    const text = JSON.stringify(graph, null, 1);
    expect(text.length).toBeGreaterThan(30_000_000);
    const dir = tempDir({ "large.json": text });
    // jsonc-parser's tree of this text alone is about 450 MB; the lazily read tree is not built.
    const run = checkFile(dir, "large.json", [], { NODE_OPTIONS: "--max-old-space-size=160" });
    expect(run.status).toBe(1);
    const reference = parseJsonSource(text, false).sourceMap;
    expect(run.faults.map((fault) => fault.code)).toEqual(["part-unknown", "terminal-unexpected"]);
    // Each fault where the full tree places its pointer (the pointers are the checker's).
    for (const fault of run.faults as (JsonFault & { pointer: string })[]) {
      expect(fault.pointer.startsWith(`/nodes/${misspelt}`)).toBe(true);
      expect(fault.range).toEqual(columnsFromOne(reference.rangeOf(fault.pointer)));
    }
  });
});

/** A range as the CLI's JSON output gives it (lines and columns from 1). */
function columnsFromOne(range: { start: { line: number; character: number }; end: { line: number; character: number } }) {
  return { start: { line: range.start.line + 1, column: range.start.character + 1 }, end: { line: range.end.line + 1, column: range.end.character + 1 } };
}
