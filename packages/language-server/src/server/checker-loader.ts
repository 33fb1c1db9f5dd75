/**
 * How a checker thread is started and loads the checker's bundle (`lsp-checker.cjs`): with V8's
 * code cache kept beside it (code-cache.ts), written once the thread has reported its first
 * check, so that the cache holds the parser, compiler and checker it compiled.
 *
 * CHECKER_LOADER runs as the worker's own code (`new Worker(CHECKER_LOADER, { eval: true })`),
 * before any bundle is loaded, so it is CommonJS source text: `runCachedBundle` is carried as
 * its own source. A cache that cannot be read or written (a read-only install) only costs the
 * compile.
 *
 * The server's bundle starts its checker thread before the rest of the server is evaluated
 * (`prestartChecker`, from main.ts), so that the thread starts up beside the server's own
 * start-up rather than after it; this module therefore imports nothing of the server's.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isMainThread, Worker } from "node:worker_threads";
import { runCachedBundle } from "../code-cache.js";

export const CHECKER_LOADER = `"use strict";
const { workerData } = require("node:worker_threads");
const checker = (${runCachedBundle.toString()})(require, workerData.checkerBundle, "wfkit-checker", workerData.codeCache);
checker.exports.runCheckerWorker({ afterFirstReport: checker.cacheWanted ? checker.writeCache : undefined });
`;

/** The checker's own bundle, beside the server's (see checker-main.ts). */
export const CHECKER_BUNDLE = "lsp-checker.cjs";

/**
 * What a checker thread runs: the checker's own bundle (`lsp-checker.cjs`, loaded with V8's
 * code cache by CHECKER_LOADER), or a module that calls `runCheckerWorker` when it finds itself
 * in a checker thread (the server's bundle, or a test's launcher).
 */
export type CheckerEntry = { bundle: string } | { module: string | URL };

/** Starts a checker thread on `entry`; it says `{ type: "ready" }` once it can check. */
export function startCheckerThread(entry: CheckerEntry): Worker {
  const options = {
    stdout: true,
    stderr: true,
    // A roomy young generation: each check allocates a new definition and model, and with the
    // default one they are promoted and later swept by slow full collections (the p95 spikes).
    resourceLimits: { maxYoungGenerationSizeMb: 64 },
  };
  return "bundle" in entry
    ? new Worker(CHECKER_LOADER, { ...options, eval: true, workerData: { wfkitChecker: true, announceReady: true, checkerBundle: entry.bundle, codeCache: process.env.WFKIT_CODE_CACHE !== "0" } })
    : new Worker(entry.module, { ...options, workerData: { wfkitChecker: true, announceReady: true } });
}

type WorkerEvent = ["message" | "error" | "exit", unknown];

let prestarted: { bundle: string; worker: Worker; events: WorkerEvent[]; stopRecording(): void } | undefined;

/**
 * Starts the checker thread on the checker's bundle beside `server` (the server's bundle), for
 * the server to adopt when it starts (`adoptPrestartedChecker`). Nothing happens in a worker
 * thread, when checks are to run in-process (WFKIT_LSP_IN_PROCESS=1), or when there is no
 * checker bundle there (the server then starts its thread itself, as it always could).
 */
export function prestartChecker(server: URL): void {
  if (!isMainThread || prestarted || process.env.WFKIT_LSP_IN_PROCESS === "1") return;
  try {
    const bundle = fileURLToPath(new URL(CHECKER_BUNDLE, server));
    if (!existsSync(bundle)) return;
    const worker = startCheckerThread({ bundle });
    // What the thread says before the server listens is kept and handed over, in order.
    const events: WorkerEvent[] = [];
    const recorders = (["message", "error", "exit"] as const).map((name) => [name, (value: unknown) => events.push([name, value])] as const);
    for (const [name, record] of recorders) worker.on(name, record);
    worker.unref();
    prestarted = { bundle, worker, events, stopRecording: () => recorders.forEach(([name, record]) => worker.off(name, record)) };
  } catch {
    // No thread now: the server starts one when it listens.
  }
}

/**
 * The thread `prestartChecker` started, if it runs `entry`: once. `listen` is called with the
 * thread and must attach its handlers at once; what the thread said meanwhile is replayed to them.
 */
export function adoptPrestartedChecker(entry: CheckerEntry, listen: (worker: Worker) => void): boolean {
  const taken = prestarted;
  if (!taken || !("bundle" in entry) || entry.bundle !== taken.bundle) return false;
  prestarted = undefined;
  taken.stopRecording();
  listen(taken.worker);
  // After the caller has its checker (an exit replayed at once would start another inside it),
  // and before anything the thread says next (that comes in a later turn of the event loop).
  queueMicrotask(() => {
    for (const [name, value] of taken.events) taken.worker.emit(name, value);
  });
  return true;
}
