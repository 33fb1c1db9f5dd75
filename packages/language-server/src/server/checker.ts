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
import type { Worker } from "node:worker_threads";
import { adoptPrestartedChecker, startCheckerThread, type CheckerEntry } from "./checker-loader.js";
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

/** What a checker thread started with `announceReady` says first: its bundle is loaded, it can check. */
export type CheckerReady = { type: "ready" };

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
  /**
   * False while a checker thread is still starting (its bundle not yet loaded): a check asked
   * for meanwhile waits for it, so the server may check a small document in-process first.
   */
  readonly ready: boolean;
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
  readonly ready = true;

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

export type { CheckerEntry } from "./checker-loader.js";

/** Runs checks on a worker thread that mirrors the open documents. */
export class WorkerChecker implements Checker {
  readonly offThread = true;
  private disposed = false;
  private started = false;

  private constructor(private readonly worker: Worker) {}

  get ready(): boolean {
    return this.started;
  }

  /**
   * Starts a worker on `entry` (or adopts the one main.ts started early on it), or returns
   * undefined when none can start. `onExit` hears once of a worker that fails or stops on its
   * own later (never after `dispose`).
   */
  static start(entry: CheckerEntry | undefined, onReport: (report: CheckerReport) => void, onExit: (error: unknown) => void): WorkerChecker | undefined {
    if (!entry) return undefined;
    try {
      let checker: WorkerChecker | undefined;
      const listen = (worker: Worker) => {
        const started = new WorkerChecker(worker);
        let failure: unknown;
        worker.on("message", (message: CheckerReport | CheckerReady) => {
          if (message.type === "ready") started.started = true;
          else onReport(message);
        });
        worker.on("error", (error) => (failure = error));
        worker.on("exit", (code) => {
          if (!started.disposed) onExit(failure ?? new Error(`the checker thread stopped (exit code ${code})`));
        });
        // The worker must not keep the process alive after the connection ends.
        worker.unref();
        checker = started;
      };
      if (!adoptPrestartedChecker(entry, listen)) listen(startCheckerThread(entry));
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
