/**
 * Where documents are checked (compiled and run through every rule), off the connection's
 * thread.
 *
 * Checking a 10,000-node workflow takes tens of milliseconds; opening one, a second. Done on
 * the thread that reads the connection, that would hold up every request behind it. So the
 * server keeps a worker thread with its own copy of each open document (kept in sync with the
 * same incremental edits, which are small messages) and asks it for diagnostics; the main
 * thread parses incrementally for the editor features and never runs a check for them.
 *
 * Where a worker cannot be started (an environment without worker threads, or a bundle that
 * does not know its own file), the same work runs in-process.
 */
import { Worker } from "node:worker_threads";
import type { Catalogue } from "@wfkit/core";
import type { FilePolicy } from "@wfkit/project/pure";
import type { Diagnostic, Language, TextChange } from "../service/types.js";
import type { LanguageService } from "../service/language-service.js";
import type { WfkitDocument } from "../service/document.js";

export interface CheckSummary {
  errors: number;
  warnings: number;
  /** Absent when syntax errors leave the definition uncertain. */
  costMinorUnits: number | undefined;
}

export interface CheckResult {
  uri: string;
  version: number;
  diagnostics: Diagnostic[];
  summary: CheckSummary;
  /** How long the check took, for the adaptive debounce. */
  durationMs: number;
}

/** The messages the main thread sends the worker. */
export type CheckerMessage =
  | { type: "configure"; docsBaseUrl: string }
  | { type: "open"; uri: string; language: Language; version: number; text: string; catalogue: Catalogue; problem: string | undefined; policy: FilePolicy }
  | { type: "change"; uri: string; version: number; changes: TextChange[] }
  | { type: "catalogue"; uri: string; catalogue: Catalogue; problem: string | undefined; policy: FilePolicy }
  | { type: "close"; uri: string }
  | { type: "check"; uri: string };

export interface Checker {
  send(message: Exclude<CheckerMessage, { type: "check" }>): void;
  /** Checks the latest version the checker has of `uri`; the result comes to `onResult`. */
  check(uri: string): void;
  dispose(): Promise<void>;
}

export function summarize(document: WfkitDocument, diagnostics: readonly Diagnostic[]): CheckSummary {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  return { errors, warnings: diagnostics.length - errors, costMinorUnits: document.analysis.estimate?.costMinorUnits };
}

/** Runs checks on the connection's thread, on the server's own documents. */
export class InProcessChecker implements Checker {
  constructor(
    private readonly service: () => LanguageService,
    private readonly documentOf: (uri: string) => WfkitDocument | undefined,
    private readonly onResult: (result: CheckResult) => void,
  ) {}

  send(): void {
    // The server's documents are the checker's documents: nothing to mirror.
  }

  check(uri: string): void {
    const document = this.documentOf(uri);
    if (!document) return;
    const started = performance.now();
    const diagnostics = this.service().doValidation(document);
    this.onResult({ uri, version: document.version, diagnostics, summary: summarize(document, diagnostics), durationMs: performance.now() - started });
  }

  async dispose(): Promise<void> {}
}

/** Runs checks on a worker thread that mirrors the open documents. */
export class WorkerChecker implements Checker {
  private constructor(private readonly worker: Worker) {}

  /**
   * Starts a worker on `moduleUrl` (a module that calls `runCheckerWorker` in a worker), or
   * returns undefined when none can start. `onError` hears of a worker that fails later.
   */
  static start(moduleUrl: string | URL | undefined, onResult: (result: CheckResult) => void, onError: (error: unknown) => void): WorkerChecker | undefined {
    if (!moduleUrl) return undefined;
    try {
      // A roomy young generation: each check allocates a new definition and model, and with the
      // default one they are promoted and later swept by slow full collections (the p95 spikes).
      const worker = new Worker(moduleUrl, { workerData: { wfkitChecker: true }, stdout: true, stderr: true, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
      worker.on("message", (result: CheckResult) => onResult(result));
      worker.on("error", onError);
      // The worker must not keep the process alive after the connection ends.
      worker.unref();
      return new WorkerChecker(worker);
    } catch {
      return undefined;
    }
  }

  send(message: Exclude<CheckerMessage, { type: "check" }>): void {
    this.worker.postMessage(message);
  }

  check(uri: string): void {
    this.worker.postMessage({ type: "check", uri } satisfies CheckerMessage);
  }

  async dispose(): Promise<void> {
    await this.worker.terminate();
  }
}
