/**
 * `wfkit check` on more than one thread (src/check-pool.ts): the built CLI over a directory
 * large enough to start workers prints what one thread prints, byte for byte, and a job a
 * worker cannot finish (its error, or a worker that dies) is checked again on the main thread.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as workerThreads from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { CheckPool, QUEUED_PER_WORKER, START_AFTER } from "../src/check-pool.js";
import type { CheckJob } from "../src/check-jobs.js";
import { fixtures, runCli } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

/** Copies of the fixture definitions (clean ones, faulty ones, a package.json) in `copies` subdirectories. */
function manyDefinitions(copies: number, config = "{}"): string {
  const files: Record<string, string> = { "wfkit.config.json": config };
  for (const folder of ["defs", "wf"]) {
    for (const name of readdirSync(path.join(fixtures, folder))) {
      const text = readFileSync(path.join(fixtures, folder, name), "utf8");
      for (let copy = 0; copy < copies; copy++) files[`team-${copy}/${folder}/${name}`] = text;
    }
  }
  return tempTree(files);
}

/** How many files the pool handed to workers, from its report on stderr (WFKIT_POOL_DEBUG). */
function sentToWorkers(stderr: string): number {
  const line = /pool: \d+ workers, offered (\d+), sent ([\d,]*)/.exec(stderr);
  if (!line) return 0;
  return line[2]!.split(",").filter(Boolean).reduce((sum, count) => sum + Number(count), 0);
}

describe("wfkit check on worker threads", () => {
  it("prints the same report as one thread, in every format, with workers taking files", () => {
    const root = manyDefinitions(30);
    for (const format of ["pretty", "json", "github"]) {
      const alone = runCli(["check", "--jobs", "1", "--format", format, "."], { cwd: root, env: { WFKIT_POOL_DEBUG: "1" } });
      const pooled = runCli(["check", "--jobs", "3", "--format", format, "."], { cwd: root, env: { WFKIT_POOL_DEBUG: "1" } });
      expect(alone.status).toBe(1);
      expect(pooled.status).toBe(alone.status);
      expect(pooled.stdout).toBe(alone.stdout);
      // The comparison means something only if workers checked some of the files.
      expect(sentToWorkers(alone.stderr)).toBe(0);
      expect(sentToWorkers(pooled.stderr)).toBeGreaterThan(0);
    }
  });

  it("starts no worker for a few files", () => {
    const root = manyDefinitions(2);
    const run = runCli(["check", "--jobs", "3", "."], { cwd: root, env: { WFKIT_POOL_DEBUG: "1" } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("pool: 0 workers, offered 20,");
  });

  it("reports a catalogue that cannot be read as one thread does", () => {
    const root = manyDefinitions(30, JSON.stringify({ catalogue: "missing-catalogue.json" }));
    const alone = runCli(["check", "--jobs", "1", "."], { cwd: root });
    const pooled = runCli(["check", "--jobs", "3", "."], { cwd: root });
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain("missing-catalogue.json");
    expect({ status: pooled.status, stdout: pooled.stdout, stderr: pooled.stderr }).toEqual({ status: alone.status, stdout: alone.stdout, stderr: alone.stderr });
  });

  it("refuses --jobs 0 and a --jobs that is not a number", () => {
    const zero = runCli(["check", "--jobs", "0", "."], { cwd: manyDefinitions(1) });
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain("--jobs must be 1 or more");
    const word = runCli(["check", "--jobs", "many", "."], { cwd: manyDefinitions(1) });
    expect(word.status).toBe(2);
    expect(word.stderr).toContain("--jobs must be a whole number");
  });
});

describe("CheckPool", () => {
  const threadsRunning = (script: string) => ({ script, load: () => workerThreads });
  /** A stand-in worker: answers each job with a report naming it, and exits on the job named `die`. */
  function standInWorker(): string {
    const root = tempTree({
      "worker.cjs": `
        const { parentPort, workerData } = require("node:worker_threads");
        const finished = new Int32Array(workerData.finished);
        parentPort.on("message", ({ ticket, job }) => {
          if (job.displayPath === "die") process.exit(3);
          parentPort.postMessage({ ticket, report: { path: job.displayPath, ok: true, faults: [] } });
          Atomics.add(finished, workerData.slot, 1);
        });`,
    });
    return path.join(root, "worker.cjs");
  }

  const job = (name: string): CheckJob => ({ displayPath: name, absolutePath: `/nowhere/${name}`, languageName: `${name}.json`, severity: new Map() });

  it("checks nothing itself before START_AFTER offers, then hands jobs to its workers", async () => {
    const pool = new CheckPool(threadsRunning(standInWorker()), 1, "/");
    for (let i = 0; i < START_AFTER; i++) expect(pool.offer(job(`early-${i}`))).toBeUndefined();
    const tickets = [pool.offer(job("a")), pool.offer(job("b"))];
    expect(tickets).toEqual([0, 1]);
    const answers = await pool.finish();
    expect(answers.get(0)?.path).toBe("a");
    expect(answers.get(1)?.path).toBe("b");
  });

  it("answers undefined for every job a worker held when it died, so the caller checks them itself", async () => {
    const pool = new CheckPool(threadsRunning(standInWorker()), 1, "/");
    for (let i = 0; i < START_AFTER; i++) pool.offer(job(`early-${i}`));
    const first = pool.offer(job("a"));
    const dies = pool.offer(job("die"));
    const after = pool.offer(job("c"));
    expect([first, dies, after].every((ticket) => ticket !== undefined)).toBe(true);
    const answers = await pool.finish();
    expect(answers.get(first!)?.path).toBe("a");
    expect(answers.has(dies!)).toBe(true);
    expect(answers.get(dies!)).toBeUndefined();
    expect(answers.get(after!)).toBeUndefined();
    // A dead worker is sent nothing more.
    expect(pool.offer(job("d"))).toBeUndefined();
  });

  it("hands out at most QUEUED_PER_WORKER unfinished jobs to a worker that has not answered", async () => {
    const root = tempTree({ "silent.cjs": `require("node:worker_threads").parentPort.on("message", () => {});` });
    const pool = new CheckPool(threadsRunning(path.join(root, "silent.cjs")), 1, "/");
    for (let i = 0; i < START_AFTER; i++) pool.offer(job(`early-${i}`));
    const tickets = Array.from({ length: 20 }, (_, i) => pool.offer(job(`late-${i}`)));
    expect(tickets.filter((ticket) => ticket !== undefined)).toHaveLength(QUEUED_PER_WORKER);
    // Not `finish`: the silent worker would never answer.
    await pool.stop();
  });
});
