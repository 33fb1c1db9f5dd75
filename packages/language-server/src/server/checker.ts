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
import { CHECKER_LOADER } from "./checker-loader.js";
import { errorText } from "./error-text.js";
import { parserSetupMs } from "@wfkit/dsl";
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
  /**
   * What reading this version cost before the check proper (parsing `.wf`; reading JSON and
   * its analysis), and whether the read reused an earlier parse: see read-gate.ts.
   */
  read?: { ms: number; incremental: boolean };
}

/** What the checker thread sends back: a check's result, or a message it could not apply. */
export type CheckerReport = ({ type: "result" } & CheckResult) | { type: "failed"; uri: string; message: string };

/** The messages the main thread sends the worker. */
export type CheckerMessage =
  | { type: "configure"; docsBaseUrl: string }
  | { type: "open"; uri: string; language: Language; version: number; text: string; catalogue: Catalogue; problem: string | undefined; policy: FilePolicy }
  | { type: "change"; uri: string; version: number; changes: TextChange[] }
  | { type: "catalogue"; uri: string; catalogue: Catalogue; problem: string | undefined; policy: FilePolicy }
  | { type: "close"; uri: string }
  | { type: "check"; uri: string };

export interface Checker {
  /** True when checks run on a thread of their own (and report what reading cost). */
  readonly offThread: boolean;
  send(message: Exclude<CheckerMessage, { type: "check" }>): void;
  /** Checks the latest version the checker has of `uri`; the report comes to `onReport`. */
  check(uri: string): void;
  dispose(): Promise<void>;
}

export function summarize(document: WfkitDocument, diagnostics: readonly Diagnostic[]): CheckSummary {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  return { errors, warnings: diagnostics.length - errors, costMinorUnits: document.analysis.estimate?.costMinorUnits };
}

/**
 * Checks one document and says what it cost; a check that throws (a bug, never the user's
 * text) is reported as failed rather than ending the thread it runs on.
 */
export function checkReport(service: LanguageService, document: WfkitDocument): CheckerReport {
  try {
    const started = performance.now();
    const setupBefore = parserSetupMs();
    const incremental = document.parseState === "incremental";
    // Read first, on its own, to measure what a feature would pay to read this version; the
    // parser's one-time set-up is this process's cost, not the document's.
    if (document.language === "wf") void document.parsed;
    else void document.analysis;
    const read = { ms: performance.now() - started - (parserSetupMs() - setupBefore), incremental };
    const diagnostics = service.doValidation(document);
    return { type: "result", uri: document.uri, version: document.version, diagnostics, summary: summarize(document, diagnostics), durationMs: performance.now() - started, read };
  } catch (error) {
    return { type: "failed", uri: document.uri, message: `checking version ${document.version} failed: ${errorText(error)}` };
  }
}

/** Runs checks on the connection's thread, on the server's own documents. */
export class InProcessChecker implements Checker {
  readonly offThread = false;

  constructor(
    private readonly service: () => LanguageService,
    private readonly documentOf: (uri: string) => WfkitDocument | undefined,
    private readonly onReport: (report: CheckerReport) => void,
  ) {}

  send(): void {
    // The server's documents are the checker's documents: nothing to mirror.
  }

  check(uri: string): void {
    const document = this.documentOf(uri);
    if (!document) return;
    this.onReport(checkReport(this.service(), document));
  }

  async dispose(): Promise<void> {}
}

/**
 * What a checker thread runs: the checker's own bundle (`lsp-checker.cjs`, loaded with V8's
 * code cache by CHECKER_LOADER), or a module that calls `runCheckerWorker` when it finds itself
 * in a checker thread (the server's bundle, or a test's launcher).
 */
export type CheckerEntry = { bundle: string } | { module: string | URL };

/** Runs checks on a worker thread that mirrors the open documents. */
export class WorkerChecker implements Checker {
  readonly offThread = true;
  private disposed = false;

  private constructor(private readonly worker: Worker) {}

  /**
   * Starts a worker on `entry`, or returns undefined when none can start. `onExit` hears once
   * of a worker that fails or stops on its own later (never after `dispose`).
   */
  static start(entry: CheckerEntry | undefined, onReport: (report: CheckerReport) => void, onExit: (error: unknown) => void): WorkerChecker | undefined {
    if (!entry) return undefined;
    try {
      const options = {
        stdout: true,
        stderr: true,
        // A roomy young generation: each check allocates a new definition and model, and with the
        // default one they are promoted and later swept by slow full collections (the p95 spikes).
        resourceLimits: { maxYoungGenerationSizeMb: 64 },
      };
      const worker =
        "bundle" in entry
          ? new Worker(CHECKER_LOADER, { ...options, eval: true, workerData: { wfkitChecker: true, checkerBundle: entry.bundle, codeCache: process.env.WFKIT_CODE_CACHE !== "0" } })
          : new Worker(entry.module, { ...options, workerData: { wfkitChecker: true } });
      const checker = new WorkerChecker(worker);
      let failure: unknown;
      worker.on("message", (report: CheckerReport) => onReport(report));
      worker.on("error", (error) => (failure = error));
      worker.on("exit", (code) => {
        if (!checker.disposed) onExit(failure ?? new Error(`the checker thread stopped (exit code ${code})`));
      });
      // The worker must not keep the process alive after the connection ends.
      worker.unref();
      return checker;
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
    this.disposed = true;
    await this.worker.terminate();
  }
}
