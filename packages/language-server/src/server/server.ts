/**
 * The LSP transport: wires a connection to the language service. It owns documents,
 * settings, the catalogue lookup and the diagnostics schedule; everything a feature
 * computes comes from the service, converted to LSP types in convert.ts.
 */
import * as lsp from "vscode-languageserver/node";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createGraphingLanguageService, type GraphingLanguageService } from "../service/graphing-service.js";
import { serverCapabilities } from "./capabilities.js";
import { bodyKindOf } from "@wfkit/core";
import type { WfkitDocument } from "../service/document.js";
import type { Language } from "../service/types.js";
import * as convert from "./convert.js";
import { CatalogueResolver } from "./catalogue-resolver.js";
import { DiagnosticsScheduler } from "./diagnostics-scheduler.js";
import { DEFAULT_SETTINGS, readSettings, type ServerSettings } from "./settings.js";
import { WfkitRequests } from "./protocol.js";
import { InProcessChecker, WorkerChecker, type CheckerEntry, type CheckResult, type CheckSummary, type Checker, type CheckerMessage, type CheckerReport } from "./checker.js";
import { errorText } from "./error-text.js";
import { createGuards, handleDocumentLifecycle, handleDocumentRequests, requestUri, NOT_OPEN, type OpenedDocument, type WithDocument } from "./handlers.js";
import { isCheckerWorker, runCheckerWorker } from "./checker-worker.js";
import { CHECKER_BUNDLE } from "./checker-loader.js";
import * as paramsOf from "./params.js";
import { ReadGate } from "./read-gate.js";
import { DiagnosticsStore } from "./diagnostics-store.js";
import { WFKIT_COMMANDS } from "../protocol.js";
import { runPinCommand, serviceFor } from "./service-pin.js";

/** How many times a checker thread that stopped is replaced before checks move in-process. */
const MAX_CHECKER_RESTARTS = 3;

/**
 * A document no longer than this (in UTF-16 units: about 500 nodes of `.wf`, 100 of pretty JSON)
 * that is to be checked while the checker thread is still starting is checked on this thread
 * at once, and by the thread as well once it is up (the same verdict, published once). An
 * editor opens its first file right after `initialize`, when the thread has loaded at most part
 * of its bundle, and a small file is checked here sooner than the thread can be ready
 * (docs/performance.md, "The first open", has the figures). Longer documents wait for the
 * thread, as a check of them here would hold up the connection.
 */
export const CHECK_HERE_WHILE_STARTING = 32 * 1024;

/**
 * Which documents the server handles: `.wf`, `*.workflow.json`, the Consumer Signals bodies
 * (`*.alert.json`, `*.view.json`, or JSON whose `$schema` names their schema), and other JSON
 * files that look like a Definition or a version-save body (editors that attach the server
 * to every JSON file should not get diagnostics on package.json).
 */
export function languageOf(languageId: string, uri: string, text: string): Language | undefined {
  if (languageId === "wf" || uri.endsWith(".wf")) return "wf";
  if (languageId !== "json" && languageId !== "jsonc" && !uri.endsWith(".json")) return undefined;
  if (uri.endsWith(".workflow.json") || bodyKindOf(uri, undefined) !== "definition") return "json";
  const head = text.slice(0, 4_096);
  return /"(?:schemaVersion|scope)"\s*:/.test(head) || /"\$schema"\s*:\s*"[^"]*(?:alert|view)\.schema\.json"/.test(head) ? "json" : undefined;
}

export interface ListenOptions {
  /**
   * What a checker worker thread runs: the checker's bundle, or a module that calls
   * `runCheckerWorker` when it finds itself in such a thread (as this module does); `false`
   * checks in-process.
   */
  checker?: CheckerEntry | false;
}

export function listen(connection: lsp.Connection, options: ListenOptions = {}): void {
  const catalogues = new CatalogueResolver();
  let settings: ServerSettings = DEFAULT_SETTINGS;
  let service: GraphingLanguageService = createGraphingLanguageService({ docsBaseUrl: settings.docsBaseUrl });
  let supportsConfigurationPull = false;
  let supportsWatchedFilesRegistration = false;
  let workspaceRoot: string | undefined;
  let supportsCodeLensRefresh = false;
  /** Pull diagnostics (LSP 3.17) when the client asks for them; pushed otherwise (see docs/editor.md). */
  let clientPullsDiagnostics = false;
  let supportsDiagnosticRefresh = false;
  const documents = new Map<string, WfkitDocument>();
  /** The latest check of each document, for code lenses (which must not wait for a check). */
  const summaries = new Map<string, { version: number; summary: CheckSummary }>();
  const diagnosticsStore = new DiagnosticsStore();
  const gate = new ReadGate();
  const scheduler = new DiagnosticsScheduler((uri) => runCheck(uri), () => settings.debounceMs);
  const inProcess = () => new InProcessChecker(() => service, (uri) => documents.get(uri), onReport);
  let checkerRestarts = 0;
  /** The version of each document the checker was last sent again after failing on it. */
  const resent = new Map<string, number>();
  let checker: Checker = startChecker();

  /** Asks the checker for `uri`'s diagnostics, and checks a small document here first while the checker thread starts. */
  function runCheck(uri: string): void {
    const document = documents.get(uri);
    if (!checker.ready && document && document.text.length <= CHECK_HERE_WHILE_STARTING) inProcess().check(uri);
    checker.check(uri);
  }

  function startChecker(): Checker {
    const entry = options.checker;
    const worker = entry === false || checkerRestarts > MAX_CHECKER_RESTARTS ? undefined : WorkerChecker.start(entry, onReport, checkerStopped);
    const started = worker ?? inProcess();
    gate.setMeasuring(started.offThread);
    return started;
  }

  /** The document as the checker first needs it (on open, and to resend it). */
  function openMessage(document: OpenedDocument): Extract<CheckerMessage, { type: "open" }> {
    const { uri, language, version, text, catalogue, catalogueProblem, policy } = document;
    return { type: "open", uri, language, version, text, catalogue, problem: catalogueProblem, policy };
  }

  /** The checker thread stopped: start another (a few times, then check in-process) and give it every document. */
  function checkerStopped(error: unknown): void {
    checkerRestarts++;
    checker = startChecker();
    connection.console.error(`wfkit: the checker thread stopped (${errorText(error)}); ${checker.offThread ? "started a new one" : "checking in-process from now on"}.`);
    checker.send({ type: "configure", docsBaseUrl: settings.docsBaseUrl });
    for (const [uri, document] of documents) {
      checker.send(openMessage(document));
      scheduler.schedule(uri);
    }
  }

  function onReport(report: CheckerReport): void {
    if (report.type === "result") return publish(report);
    connection.console.error(`wfkit: ${report.uri}: ${report.message}`);
    const document = documents.get(report.uri);
    // Send the document again, once per version: a failure that repeats is only logged.
    if (!document || resent.get(report.uri) === document.version) {
      gate.measured(report.uri, Infinity, false);
      diagnosticsStore.failed(report.uri);
      return;
    }
    resent.set(report.uri, document.version);
    checker.send(openMessage(document));
    scheduler.schedule(report.uri);
  }

  function catalogueFor(uri: string) {
    return catalogues.resolve(uri);
  }

  /**
   * Publishes a check's diagnostics, unless the document has moved on (a newer check is due)
   * or they are exactly those published last (same content and ranges).
   */
  function publish(result: CheckResult): void {
    scheduler.recordCost(result.uri, result.durationMs);
    if (result.read) gate.measured(result.uri, result.read.ms, result.read.incremental);
    const document = documents.get(result.uri);
    if (!document || document.version !== result.version) return;
    summaries.set(result.uri, { version: result.version, summary: result.summary });
    const diagnostics = result.diagnostics.map((d) => convert.diagnostic(result.uri, d));
    const changed = diagnosticsStore.record(result.uri, result.version, diagnostics);
    if (changed && !clientPullsDiagnostics) void connection.sendDiagnostics({ uri: result.uri, version: result.version, diagnostics });
    if (supportsCodeLensRefresh) void connection.sendRequest(lsp.CodeLensRefreshRequest.type).catch(() => undefined);
  }

  /** The Workflows API configured for a document (settings, else its config; see service-pin.ts). */
  function serviceOf(uri: string) {
    return serviceFor(settings, catalogues.configBaseUrl(uri), workspaceRoot, process.env);
  }

  const guards = createGuards(connection);
  const { answer, reportFailure } = guards;

  /** Re-reads catalogues and re-checks every open document (settings or a watched file changed). */
  function recheckAll(): void {
    checker.send({ type: "configure", docsBaseUrl: settings.docsBaseUrl });
    for (const [uri, document] of documents) {
      const resolved = catalogueFor(uri);
      documents.set(uri, service.withCatalogue(document, resolved.catalogue, resolved.problem, resolved.policy));
      checker.send({ type: "catalogue", uri, catalogue: resolved.catalogue, problem: resolved.problem, policy: resolved.policy });
      scheduler.schedule(uri);
    }
    // A client that pulls is told to pull again: the verdicts may change without an edit.
    if (clientPullsDiagnostics && supportsDiagnosticRefresh) void connection.sendRequest(lsp.DiagnosticRefreshRequest.type).catch(() => undefined);
  }

  async function refreshSettings(pushed?: unknown): Promise<void> {
    let section = pushed;
    if (supportsConfigurationPull) {
      try {
        section = await connection.workspace.getConfiguration("wfkit");
      } catch {
        // A client that advertised pull but fails it: keep what was pushed.
      }
    }
    settings = readSettings(section);
    service = createGraphingLanguageService({ docsBaseUrl: settings.docsBaseUrl });
    catalogues.configure({ cataloguePath: settings.catalogue, workspaceRoot });
    recheckAll();
  }

  /**
   * A request on a document, honouring cancellation: a document the checker thread has not
   * measured yet is waited for (without holding up the connection); one edited while the
   * request waited gets the fallback, and so does one too costly to read on this thread,
   * unless the request is a command the user ran (`costly: "run"`). See handlers.ts.
   */
  const withDocument: WithDocument = (method, params, token, fallback, read, run, costly = "fallback") =>
    answer(method, async () => {
      const uri = requestUri(method, params);
      const parts = read?.(params) as Parameters<typeof run>[1];
      const requested = documents.get(uri);
      if (!requested) return fallback;
      const verdict = requested.parseState === "done" ? "cheap" : await gate.verdict(uri, token);
      const document = documents.get(uri);
      if (!document || document.version !== requested.version || token.isCancellationRequested) return fallback;
      if (verdict !== "cheap" && costly === "fallback" && document.parseState !== "done") return fallback;
      return run(document, parts);
    });

  connection.onInitialize((params): lsp.InitializeResult => {
    const capabilities = params.capabilities;
    supportsConfigurationPull = capabilities.workspace?.configuration === true;
    supportsWatchedFilesRegistration = capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    supportsCodeLensRefresh = capabilities.workspace?.codeLens?.refreshSupport === true;
    clientPullsDiagnostics = capabilities.textDocument?.diagnostic !== undefined;
    supportsDiagnosticRefresh = capabilities.workspace?.diagnostics?.refreshSupport === true;
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    if (folder?.startsWith("file:")) workspaceRoot = fileURLToPath(folder);
    settings = readSettings((params.initializationOptions as { settings?: unknown } | undefined)?.settings ?? params.initializationOptions);
    service = createGraphingLanguageService({ docsBaseUrl: settings.docsBaseUrl });
    checker.send({ type: "configure", docsBaseUrl: settings.docsBaseUrl });
    catalogues.configure({ cataloguePath: settings.catalogue, workspaceRoot });
    return {
      capabilities: serverCapabilities("node"),
      serverInfo: { name: "wfkit-language-server", version: "0.1.0" },
    };
  });

  connection.onInitialized(() => {
    if (supportsWatchedFilesRegistration) {
      void connection.client.register(lsp.DidChangeWatchedFilesNotification.type, {
        // Catalogues can live anywhere; every JSON change is cheap to test against the ones in use.
        watchers: [{ globPattern: "**/wfkit.config.json" }, { globPattern: "**/*.json" }],
      });
    }
    if (supportsConfigurationPull) refreshSettings().catch((error) => reportFailure("initialized", error));
  });

  connection.onDidChangeConfiguration((params) => {
    const pushed = (params.settings as { wfkit?: unknown } | null | undefined)?.wfkit;
    refreshSettings(pushed).catch((error) => reportFailure("workspace/didChangeConfiguration", error));
  });

  connection.onDidChangeWatchedFiles((params) => {
    const relevant = params.changes.some((change) => {
      try {
        return catalogues.isRelevantFile(fileURLToPath(change.uri));
      } catch {
        return false;
      }
    });
    if (!relevant) return;
    catalogues.invalidate();
    recheckAll();
  });

  handleDocumentLifecycle(connection, guards, { documents, service: () => service, scheduler }, {
    languageOf,
    checkingOf: catalogueFor,
    pushesDiagnostics: () => !clientPullsDiagnostics,
    opened(document) {
      // The checker starts on its copy while this thread builds its own.
      checker.send(openMessage(document));
      gate.opened(document.uri);
    },
    changed(uri, version, changes) {
      checker.send({ type: "change", uri, version, changes });
      gate.edited(uri, changes.reduce((sum, change) => sum + change.text.length, 0));
    },
    closed(uri) {
      summaries.delete(uri);
      resent.delete(uri);
      gate.closed(uri);
      diagnosticsStore.forget(uri);
      checker.send({ type: "close", uri });
    },
  });
  handleDocumentRequests(connection, guards, () => service, withDocument);

  connection.languages.diagnostics.on((params, token) =>
    answer("textDocument/diagnostic", async (): Promise<lsp.DocumentDiagnosticReport> => {
      const uri = paramsOf.documentUri(params);
      const document = documents.get(uri);
      if (!document) return { kind: lsp.DocumentDiagnosticReportKind.Full, items: [] };
      // The check of this version is on its way (every open and edit schedules one).
      const report = await diagnosticsStore.latest(uri, document.version, token);
      if (!report) return { kind: lsp.DocumentDiagnosticReportKind.Full, items: [] };
      if (params.previousResultId === report.resultId) return { kind: lsp.DocumentDiagnosticReportKind.Unchanged, resultId: report.resultId };
      return { kind: lsp.DocumentDiagnosticReportKind.Full, resultId: report.resultId, items: report.diagnostics };
    }),
  );

  connection.onExecuteCommand((params, token) =>
    answer("workspace/executeCommand", async () => {
      const command = paramsOf.stringField(params, "command");
      if (command === WFKIT_COMMANDS.pinSubjectRemote) return runPinCommand({ connection, documentOf: (uri) => documents.get(uri), serviceOf }, params.arguments);
      if (command !== WFKIT_COMMANDS.showEstimate) throw paramsOf.invalidParams(`unknown command \`${command}\`; this server runs ${WFKIT_COMMANDS.showEstimate} and ${WFKIT_COMMANDS.pinSubjectRemote}`);
      const uri = Array.isArray(params.arguments) ? params.arguments[0] : undefined;
      if (typeof uri !== "string") throw paramsOf.invalidParams(`${WFKIT_COMMANDS.showEstimate} takes the document's uri as its argument`);
      const result = await withDocument(WfkitRequests.estimate.method, { uri }, token, NOT_OPEN, undefined, (document) => service.estimate(document), "run");
      // A notification: the client need not answer (showInformationMessage is a request).
      void connection.sendNotification(lsp.ShowMessageNotification.type, { type: lsp.MessageType.Info, message: "error" in result ? `No estimate: ${result.error}` : estimateMessage(result) });
      return result;
    }),
  );

  connection.onCodeAction((params, token) =>
    withDocument("textDocument/codeAction", params, token, null, paramsOf.rangeField, (document, range) =>
      service
        .getCodeActions(document, range, (Array.isArray(params.context?.diagnostics) ? params.context.diagnostics : []).map(convert.diagnosticFromClient), { servicePinning: serviceOf(document.uri) !== undefined })
        .map((action) => convert.codeAction(document.uri, action, params.context.diagnostics)),
    ),
  );

  connection.languages.inlayHint.on((params, token) =>
    withDocument("textDocument/inlayHint", params, token, null, paramsOf.rangeField, (document, range) =>
      settings.inlayHints ? service.getInlayHints(document, range).map(convert.inlayHint) : [],
    ),
  );

  connection.onCodeLens((params, token) =>
    withDocument("textDocument/codeLens", params, token, null, undefined, (document) => {
      // The lens shows the latest check (the document's own, or the one before while a check
      // runs): computing a check here would block the connection on a big file.
      const latest = summaries.get(document.uri);
      if (!latest) return [];
      return service.getCodeLenses(document, { ...latest.summary, stale: latest.version !== document.version }).map((lens) => convert.codeLens(document.uri, lens));
    }),
  );

  connection.onShutdown(async () => {
    scheduler.dispose();
    diagnosticsStore.dispose();
    await checker.dispose();
  });
  connection.listen();
}

/** What `workspace/executeCommand` of the estimate shows a generic client (VS Code shows its own). */
function estimateMessage(result: { costMinorUnits: number; ok: boolean; errors: number }): string {
  const verdict = result.ok ? "valid" : `${result.errors} error${result.errors === 1 ? "" : "s"}, so this figure may be incomplete`;
  return `Estimated cost: ${result.costMinorUnits.toLocaleString("en")} minor units (${verdict}).`;
}

/**
 * Starts the language server on the process's stdio (or on node IPC, or a socket, when the
 * command line says `--node-ipc` / `--socket=N`, as vscode-languageclient passes it).
 */
export function startServer(): void {
  // In a checker thread this module already started the checker loop (see the end of the file).
  if (isCheckerWorker()) return;
  const viaIpcOrSocket = process.argv.some((arg) => arg === "--node-ipc" || arg.startsWith("--socket") || arg.startsWith("--pipe"));
  const connection = viaIpcOrSocket ? lsp.createConnection(lsp.ProposedFeatures.all) : lsp.createConnection(lsp.ProposedFeatures.all, process.stdin, process.stdout);
  // stdout carries the protocol: anything logged must go to the client's log instead.
  console.log = (...args: unknown[]) => connection.console.log(args.map(String).join(" "));
  console.error = (...args: unknown[]) => connection.console.error(args.map(String).join(" "));
  // Handlers are guarded one by one; this is the net under them: a stray failure is logged,
  // and the server goes on answering.
  process.on("uncaughtException", (error) => connection.console.error(`wfkit: uncaught: ${error.stack ?? error.message}`));
  process.on("unhandledRejection", (reason) => connection.console.error(`wfkit: unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));
  // WFKIT_LSP_IN_PROCESS=1 checks on the connection's thread (for debugging, and to test that path).
  listen(connection, { checker: process.env.WFKIT_LSP_IN_PROCESS === "1" ? false : checkerEntry() });
}

export { CHECKER_BUNDLE };

/**
 * What the checker thread runs: the checker's bundle when it lies beside this code, else the
 * file this code was loaded from (the server's bundle, or this module), which starts the
 * checker loop in a checker thread (see the end of this file).
 */
function checkerEntry(): CheckerEntry | undefined {
  const own = ownModule();
  if (!own) return undefined;
  const bundle = fileURLToPath(new URL(CHECKER_BUNDLE, own));
  return existsSync(bundle) ? { bundle } : { module: own };
}

/**
 * The file this code was loaded from: the bundle (`server.mjs`, `server.cjs`, the CLI's
 * `lsp.mjs`) or this module. A CommonJS bundle knows `__filename`; an ES module knows
 * `import.meta.url`.
 */
function ownModule(): URL | undefined {
  if (typeof __filename === "string" && __filename) return pathToFileURL(__filename);
  try {
    return new URL(import.meta.url);
  } catch {
    return undefined;
  }
}

// A checker thread loads this same module; in that thread (and only there) it starts the
// checker loop. In the main thread importing this module does nothing.
if (isCheckerWorker()) runCheckerWorker();
