/**
 * The checker's worker thread: mirrors the open documents from the main thread's messages
 * and answers `check` with diagnostics for the latest version it has.
 *
 * A message it cannot apply (a bug; the main thread checks what clients send) costs that
 * document only: its copy is dropped and the main thread is told, which sends it again.
 */
import { parentPort, workerData, isMainThread } from "node:worker_threads";
import { createLanguageService } from "../service/language-service.js";
import type { WfkitDocument } from "../service/document.js";
import { checkReport, type CheckerMessage, type CheckerReady, type CheckerReport } from "./checker.js";
import { errorText } from "./error-text.js";

/** True in a thread the server started to check documents. */
export function isCheckerWorker(): boolean {
  return !isMainThread && (workerData as { wfkitChecker?: boolean } | null)?.wfkitChecker === true;
}

export interface CheckerWorkerOptions {
  /** Called once, when the thread is idle after its first report (the loader writes its code cache then). */
  afterFirstReport?: () => void;
}

export function runCheckerWorker(options: CheckerWorkerOptions = {}): void {
  const port = parentPort;
  if (!port) return;
  // The server checks a small document in-process until it hears this (checker.ts, `ready`).
  if ((workerData as { announceReady?: boolean } | null)?.announceReady === true) port.postMessage({ type: "ready" } satisfies CheckerReady);
  let afterFirstReport = options.afterFirstReport;
  let service = createLanguageService();
  const documents = new Map<string, WfkitDocument>();
  /** Checks asked for but not yet run: run once the messages already queued are applied. */
  const pending = new Set<string>();
  let flushScheduled = false;
  const report = (message: CheckerReport) => port.postMessage(message);

  /** Documents whose next edit can be readied while the thread is idle. */
  const preparing = new Set<string>();
  let prepareScheduled = false;
  // One step per turn of the event loop, so that a message that arrives meanwhile waits for
  // a step (a few milliseconds), not for the whole.
  const prepareStep = () => {
    prepareScheduled = false;
    for (const uri of preparing) {
      if (documents.get(uri)?.prepareForEdits() ?? true) preparing.delete(uri);
      break;
    }
    if (preparing.size > 0 && !flushScheduled) {
      prepareScheduled = true;
      setImmediate(prepareStep);
    }
  };

  const flush = () => {
    flushScheduled = false;
    for (const uri of pending) {
      const document = documents.get(uri);
      if (!document) continue;
      report(checkReport(service, document));
      preparing.add(uri);
    }
    pending.clear();
    if (afterFirstReport) {
      setImmediate(afterFirstReport);
      afterFirstReport = undefined;
    }
    if (preparing.size > 0 && !prepareScheduled) {
      prepareScheduled = true;
      setImmediate(prepareStep);
    }
  };

  const apply = (message: CheckerMessage): void => {
    switch (message.type) {
      case "configure":
        service = createLanguageService({ docsBaseUrl: message.docsBaseUrl });
        break;
      case "open":
        documents.set(message.uri, service.createDocument({ uri: message.uri, language: message.language, version: message.version, text: message.text, catalogue: message.catalogue, catalogueProblem: message.problem, policy: message.policy }));
        break;
      case "change": {
        const document = documents.get(message.uri);
        if (document) documents.set(message.uri, service.updateDocument(document, message.version, message.changes));
        break;
      }
      case "catalogue": {
        const document = documents.get(message.uri);
        if (document) documents.set(message.uri, service.withCatalogue(document, message.catalogue, message.problem, message.policy));
        break;
      }
      case "close":
        documents.delete(message.uri);
        pending.delete(message.uri);
        break;
      case "check":
        pending.add(message.uri);
        // Edits already queued behind this request are applied first: check the newest text.
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
        break;
    }
  };

  port.on("message", (message: CheckerMessage) => {
    try {
      apply(message);
    } catch (error) {
      const uri = (message as { uri?: unknown }).uri;
      if (typeof uri !== "string") throw error;
      documents.delete(uri);
      pending.delete(uri);
      report({ type: "failed", uri, message: `${message.type} failed: ${errorText(error)}` });
    }
  });
}

