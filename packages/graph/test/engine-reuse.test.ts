/**
 * One Graphviz engine for every layout of a process (packages/graph/src/svg.ts): what leaves an
 * engine as it was, what breaks it for good (and why a fresh engine per layout was the old
 * answer), and `layoutDot`'s recovery: a failed layout drops the engine and is tried once more
 * on a fresh one; an engine left holding more memory than the limit is dropped.
 */
import { Graphviz } from "@hpcc-js/wasm-graphviz";
import { afterEach, describe, expect, it } from "vitest";
import { GRAPH_SHAPES } from "../../../bench/graph-shapes.mjs";
import { ENGINE_MEMORY_LIMIT, graphModelOf, graphvizEngineState, layoutDot, setEngineMemoryLimit, toDot } from "../src/index.js";

const displayText = (text: string) => text;
const dotOf = (definition: unknown) => toDot(graphModelOf({ definition }), { displayText });

/** Drawings wfkit makes: every benchmark shape, small and past the large-drawing bounds. */
const drawings = (nodes: number) => Object.entries(GRAPH_SHAPES).map(([shape, make]) => ({ name: `${shape} ${nodes}`, dot: dotOf(make(nodes)) }));
const small = drawings(60);
const ours = [...small, ...drawings(520)];

/** DOT that wfkit never writes, each failing in its own way. */
const syntaxError = "digraph { a -> ";
/** Graphviz cannot allocate 3.2 GB for the polygon's points and calls exit(1). */
const exitFromGraphviz = "digraph { a [shape=polygon, sides=100000000]; }";
/** A 50,000-node chain: Graphviz's recursion runs out of Node's stack. */
const nodeStackExhausted = `digraph { ${Array.from({ length: 50_000 }, (_, index) => `a${index} -> a${index + 1};`).join(" ")} }`;
/** Clusters nested `depth` deep: each level keeps locals on emscripten's stack, inside the WebAssembly memory. */
const nestedClusters = (depth: number) => `digraph { ${Array.from({ length: depth }, (_, index) => `subgraph cluster_${index} { x${index}; `).join("")} a ${"}".repeat(depth)} }`;

const reference = "digraph { rankdir=LR; a [label=\"alpha\", shape=box]; a -> b -> c; a -> c [label=\"x\"]; }";

function memoryOf(graphviz: Graphviz): number {
  return (graphviz as unknown as { _module: { HEAPU8: Uint8Array } })._module.HEAPU8.byteLength;
}

/** A fresh engine of the library's own, not the one svg.ts holds. */
async function freshEngine(): Promise<Graphviz> {
  Graphviz.unload();
  return Graphviz.load();
}

function outcome(run: () => string): string {
  try {
    run();
    return "ok";
  } catch (error) {
    return `threw: ${(error as Error).message}`;
  }
}

/** Whether clusters nested `depth` deep lay out in a fresh engine, and whether the reference still does after. */
async function nestingOutcome(depth: number): Promise<{ layout: string; after: string }> {
  const graphviz = await freshEngine();
  const layout = outcome(() => graphviz.dot(nestedClusters(depth)));
  const after = outcome(() => graphviz.dot(reference));
  return { layout, after };
}

/** The least nesting that leaves an engine broken: 212 with the pinned @hpcc-js/wasm-graphviz, else found by bisection. */
const KNOWN_LEAST_BREAKING = 212;
let leastBreaking: Promise<number> | undefined;
function leastBreakingDepth(): Promise<number> {
  leastBreaking ??= (async () => {
    if ((await nestingOutcome(KNOWN_LEAST_BREAKING - 1)).after === "ok" && (await nestingOutcome(KNOWN_LEAST_BREAKING)).after !== "ok") return KNOWN_LEAST_BREAKING;
    let good = 50;
    let bad = 400;
    expect((await nestingOutcome(good)).after).toBe("ok");
    expect((await nestingOutcome(bad)).after).toMatch(/threw/);
    while (bad - good > 1) {
      const middle = (good + bad) >> 1;
      if ((await nestingOutcome(middle)).after === "ok") good = middle;
      else bad = middle;
    }
    return bad;
  })();
  return leastBreaking;
}

afterEach(() => {
  // The library memoises one instance per realm; a test's own engine must not outlive it.
  Graphviz.unload();
  setEngineMemoryLimit(ENGINE_MEMORY_LIMIT);
});

describe("a Graphviz engine (the library, used directly)", () => {
  it("draws as before after a syntax error, an exit from Graphviz and Node's stack running out, and its memory does not grow from layout to layout", async () => {
    const graphviz = await freshEngine();
    const expected = ours.map(({ dot }) => graphviz.dot(dot));
    expect(outcome(() => graphviz.dot(syntaxError))).toMatch(/^threw: syntax error/);
    expect(outcome(() => graphviz.dot(exitFromGraphviz))).toMatch(/^threw: Program terminated with exit\(1\)/);
    expect(outcome(() => graphviz.dot(nodeStackExhausted))).toMatch(/^threw: Maximum call stack size exceeded/);
    // (The chain grew the memory before it failed: WebAssembly memory never shrinks.)
    const memory = memoryOf(graphviz);
    for (let round = 0; round < 2; round++) for (const [index, { name, dot }] of ours.entries()) expect(graphviz.dot(dot) === expected[index], name).toBe(true);
    expect(memoryOf(graphviz)).toBe(memory);
  });

  it("is broken for good by a layout that overflows Graphviz's own stack, even one that succeeds: the failure a reused engine once met", async () => {
    // Deep enough, the layout itself traps; every layout after it in that engine traps too.
    const deep = await nestingOutcome(400);
    expect(deep.layout).toMatch(/^threw: memory access out of bounds/);
    expect(deep.after).toMatch(/^threw: /);
    // Just deep enough, the layout succeeds and the damage shows only in the next one.
    const least = await leastBreakingDepth();
    const justDeepEnough = await nestingOutcome(least);
    expect(justDeepEnough.layout).toBe("ok");
    expect(justDeepEnough.after).toMatch(/^threw: /);
  });
});

describe("layoutDot: one engine for every layout", () => {
  it("lays out many graphs in one engine (120), each as a fresh engine draws it, hostile text between them costing a reload each", async () => {
    const expected: string[] = [];
    for (const { dot } of small) expected.push((await freshEngine()).dot(dot));
    Graphviz.unload();
    await layoutDot(reference);
    const start = await graphvizEngineState();
    const hostile = [syntaxError, exitFromGraphviz, nodeStackExhausted];
    let failures = 0;
    for (let round = 0; round < 24; round++) {
      for (const [index, { name, dot }] of small.entries()) expect((await layoutDot(dot)) === expected[index], `${name}, round ${round}`).toBe(true);
      if (round % 8 === 0 && failures < hostile.length) {
        await expect(layoutDot(hostile[failures]!), `hostile ${failures}`).rejects.toThrow();
        failures++;
      }
    }
    expect(failures).toBe(hostile.length);
    const end = await graphvizEngineState();
    // Each failure loaded one engine to try again, and the next layout one more; nothing else reloaded.
    expect(end.loads - start.loads).toBe(2 * failures);
    expect(end.memoryBytes).toBe(start.memoryBytes);
  });

  it("tries a layout again on a fresh engine when an earlier layout left the engine broken", async () => {
    const least = await leastBreakingDepth();
    const expected = (await freshEngine()).dot(reference);
    Graphviz.unload();
    await layoutDot(reference);
    const before = await graphvizEngineState();
    await layoutDot(nestedClusters(least)); // succeeds, and breaks the engine
    expect(await layoutDot(reference)).toBe(expected);
    expect((await graphvizEngineState()).loads).toBe(before.loads + 1);
    expect(await layoutDot(reference)).toBe(expected);
    expect((await graphvizEngineState()).loads).toBe(before.loads + 1);
  });

  it("rejects a layout that fails on a fresh engine too, and keeps no engine it broke", async () => {
    const expected = (await freshEngine()).dot(reference);
    Graphviz.unload();
    await expect(layoutDot(nestedClusters(400))).rejects.toThrow(/memory access out of bounds/);
    expect((await graphvizEngineState()).memoryBytes).toBeUndefined();
    expect(await layoutDot(reference)).toBe(expected);
  });

  it("drops an engine that a layout left holding more memory than the limit", async () => {
    await layoutDot(reference);
    const start = await graphvizEngineState();
    // The largest drawing in `ours` fits a fresh engine's memory: the default limit never drops it.
    for (const { dot } of ours) await layoutDot(dot);
    expect((await graphvizEngineState()).loads).toBe(start.loads);
    expect(start.memoryBytes).toBeLessThan(ENGINE_MEMORY_LIMIT);
    setEngineMemoryLimit(start.memoryBytes! - 1);
    await layoutDot(reference);
    expect((await graphvizEngineState()).memoryBytes).toBeUndefined();
    await layoutDot(reference);
    expect((await graphvizEngineState()).loads).toBe(start.loads + 1);
  });
});
