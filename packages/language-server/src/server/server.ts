/**
 * The LSP transport: wires a connection to the language service. It owns documents,
 * settings, the catalogue lookup and the diagnostics schedule; everything a feature
 * computes comes from the service, converted to LSP types in convert.ts.
 */
import * as lsp from "vscode-languageserver/node";
import { fileURLToPath } from "node:url";
import { createLanguageService, type LanguageService } from "../service/language-service.js";
import type { WfkitDocument } from "../service/document.js";
import type { Language } from "../service/types.js";
import { SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES } from "../service/types.js";
import * as convert from "./convert.js";
import { CatalogueResolver } from "./catalogue-resolver.js";
import { DiagnosticsScheduler } from "./diagnostics-scheduler.js";
import { DEFAULT_SETTINGS, readSettings, type ServerSettings } from "./settings.js";
import { WfkitRequests } from "./protocol.js";
import { InProcessChecker, WorkerChecker, type CheckResult, type CheckSummary, type Checker } from "./checker.js";
import { isCheckerWorker, runCheckerWorker } from "./checker-worker.js";

/**
 * Which documents the server handles: `.wf`, `*.workflow.json`, and other JSON files that
 * look like a Definition or a version-save body (editors that attach the server to every
 * JSON file should not get diagnostics on package.json).
 */
export function languageOf(languageId: string, uri: string, text: string): Language | undefined {
  if (languageId === "wf" || uri.endsWith(".wf")) return "wf";
  if (languageId !== "json" && languageId !== "jsonc" && !uri.endsWith(".json")) return undefined;
  if (uri.endsWith(".workflow.json")) return "json";
  return /"(?:schemaVersion|scope)"\s*:/.test(text.slice(0, 4_096)) ? "json" : undefined;
}

export interface ListenOptions {
  /**
   * The module a checker worker thread runs (one that calls `runCheckerWorker` when it finds
   * itself in such a thread, as this module does); `false` checks in-process.
   */
  checkerModule?: string | URL | false;
}

export function listen(connection: lsp.Connection, options: ListenOptions = {}): void {
  const catalogues = new CatalogueResolver();
  let settings: ServerSettings = DEFAULT_SETTINGS;
  let service: LanguageService = createLanguageService({ docsBaseUrl: settings.docsBaseUrl });
  let supportsConfigurationPull = false;
  let supportsWatchedFilesRegistration = false;
  let workspaceRoot: string | undefined;
  let supportsCodeLensRefresh = false;
  const documents = new Map<string, WfkitDocument>();
  /** The latest check of each document, for code lenses (which must not wait for a check). */
  const summaries = new Map<string, { version: number; summary: CheckSummary }>();
  const scheduler = new DiagnosticsScheduler((uri) => checker.check(uri), () => settings.debounceMs);
  const inProcess = () => new InProcessChecker(() => service, (uri) => documents.get(uri), publish);
  let checker: Checker = startChecker();

  function startChecker(): Checker {
    const module = options.checkerModule;
    const worker = module === false ? undefined : WorkerChecker.start(module, publish, checkerFailed);
    return worker ?? inProcess();
  }

  /** The checker thread died: say so, check in-process from now on, and re-check everything. */
  function checkerFailed(error: unknown): void {
    connection.console.error(`wfkit: the checker thread failed (${error instanceof Error ? error.message : String(error)}); checking in-process from now on.`);
    checker = inProcess();
    for (const uri of documents.keys()) scheduler.schedule(uri);
  }

  function catalogueFor(uri: string) {
    return catalogues.resolve(uri);
  }

  /** Publishes a check's diagnostics, unless the document has moved on (a newer check is due). */
  function publish(result: CheckResult): void {
    scheduler.recordCost(result.uri, result.durationMs);
    const document = documents.get(result.uri);
    if (!document || document.version !== result.version) return;
    summaries.set(result.uri, { version: result.version, summary: result.summary });
    void connection.sendDiagnostics({ uri: result.uri, version: result.version, diagnostics: result.diagnostics.map((d) => convert.diagnostic(result.uri, d)) });
    if (supportsCodeLensRefresh) void connection.sendRequest(lsp.CodeLensRefreshRequest.type).catch(() => undefined);
  }

  /** Re-reads catalogues and re-checks every open document (settings or a watched file changed). */
  function recheckAll(): void {
    checker.send({ type: "configure", docsBaseUrl: settings.docsBaseUrl });
    for (const [uri, document] of documents) {
      const resolved = catalogueFor(uri);
      documents.set(uri, service.withCatalogue(document, resolved.catalogue, resolved.problem, resolved.policy));
      checker.send({ type: "catalogue", uri, catalogue: resolved.catalogue, problem: resolved.problem, policy: resolved.policy });
      scheduler.schedule(uri);
    }
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
    service = createLanguageService({ docsBaseUrl: settings.docsBaseUrl });
    catalogues.configure({ cataloguePath: settings.catalogue, workspaceRoot });
    recheckAll();
  }

  /** Runs a request against the current version of a document, honouring cancellation. */
  function withDocument<T>(uri: string, token: lsp.CancellationToken, fallback: T, run: (document: WfkitDocument) => T): T {
    const document = documents.get(uri);
    if (!document || token.isCancellationRequested) return fallback;
    return run(document);
  }

  connection.onInitialize((params): lsp.InitializeResult => {
    const capabilities = params.capabilities;
    supportsConfigurationPull = capabilities.workspace?.configuration === true;
    supportsWatchedFilesRegistration = capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    supportsCodeLensRefresh = capabilities.workspace?.codeLens?.refreshSupport === true;
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    if (folder?.startsWith("file:")) workspaceRoot = fileURLToPath(folder);
    settings = readSettings((params.initializationOptions as { settings?: unknown } | undefined)?.settings ?? params.initializationOptions);
    service = createLanguageService({ docsBaseUrl: settings.docsBaseUrl });
    checker.send({ type: "configure", docsBaseUrl: settings.docsBaseUrl });
    catalogues.configure({ cataloguePath: settings.catalogue, workspaceRoot });
    return {
      capabilities: {
        positionEncoding: lsp.PositionEncodingKind.UTF16,
        textDocumentSync: { openClose: true, change: lsp.TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: ["@", ">", "[", ",", ".", " "] },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentHighlightProvider: true,
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        selectionRangeProvider: true,
        documentFormattingProvider: true,
        codeActionProvider: { codeActionKinds: [lsp.CodeActionKind.QuickFix] },
        inlayHintProvider: true,
        codeLensProvider: { resolveProvider: false },
        semanticTokensProvider: {
          legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS] },
          full: true,
        },
      },
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
    if (supportsConfigurationPull) void refreshSettings();
  });

  connection.onDidChangeConfiguration((params) => {
    const pushed = (params.settings as { wfkit?: unknown } | null | undefined)?.wfkit;
    void refreshSettings(pushed);
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

  connection.onDidOpenTextDocument(({ textDocument }) => {
    const language = languageOf(textDocument.languageId, textDocument.uri, textDocument.text);
    if (!language) return;
    const resolved = catalogueFor(textDocument.uri);
    const { uri, version, text } = textDocument;
    documents.set(uri, service.createDocument({ uri, language, version, text, catalogue: resolved.catalogue, catalogueProblem: resolved.problem, policy: resolved.policy }));
    checker.send({ type: "open", uri, language, version, text, catalogue: resolved.catalogue, problem: resolved.problem, policy: resolved.policy });
    scheduler.schedule(uri);
  });

  connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
    const document = documents.get(textDocument.uri);
    if (!document) return;
    // The checker first: it applies the edit to its copy while this thread applies it to its own.
    checker.send({ type: "change", uri: textDocument.uri, version: textDocument.version, changes: contentChanges });
    documents.set(textDocument.uri, service.updateDocument(document, textDocument.version, contentChanges));
    scheduler.schedule(textDocument.uri);
  });

  connection.onDidCloseTextDocument(({ textDocument }) => {
    if (!documents.delete(textDocument.uri)) return;
    summaries.delete(textDocument.uri);
    checker.send({ type: "close", uri: textDocument.uri });
    scheduler.forget(textDocument.uri);
    void connection.sendDiagnostics({ uri: textDocument.uri, diagnostics: [] });
  });

  connection.onCompletion((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => {
      const items = service.doComplete(document, params.position);
      return { isIncomplete: false, items: items.map(convert.completionItem) };
    }),
  );

  connection.onHover((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => {
      const result = service.doHover(document, params.position);
      return result ? convert.hover(result) : null;
    }),
  );

  connection.onDefinition((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => {
      const range = service.findDefinition(document, params.position);
      return range ? { uri: document.uri, range } : null;
    }),
  );

  connection.onReferences((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) =>
      service.findReferences(document, params.position, params.context.includeDeclaration).map((range) => ({ uri: document.uri, range })),
    ),
  );

  connection.onPrepareRename((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => {
      const result = service.prepareRename(document, params.position);
      if (!result) return null;
      if ("error" in result) throw new lsp.ResponseError(lsp.ErrorCodes.InvalidRequest, result.error);
      return result;
    }),
  );

  connection.onRenameRequest((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => {
      const result = service.doRename(document, params.position, params.newName);
      if (!result) return null;
      if ("error" in result) throw new lsp.ResponseError(lsp.ErrorCodes.InvalidRequest, result.error);
      return { changes: { [document.uri]: result.edits } };
    }),
  );

  connection.onDocumentHighlight((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => service.findDocumentHighlights(document, params.position).map(convert.documentHighlight)),
  );

  connection.onDocumentSymbol((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => service.findDocumentSymbols(document).map(convert.documentSymbol)),
  );

  connection.onFoldingRanges((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => service.getFoldingRanges(document).map(convert.foldingRange)),
  );

  connection.onSelectionRanges((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => service.getSelectionRanges(document, params.positions).map(convert.selectionRange)),
  );

  connection.onDocumentFormatting((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => service.format(document, params.options)),
  );

  connection.onCodeAction((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) =>
      service
        .getCodeActions(document, params.range, params.context.diagnostics.map(convert.diagnosticFromClient))
        .map((action) => convert.codeAction(document.uri, action, params.context.diagnostics)),
    ),
  );

  connection.languages.inlayHint.on((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) =>
      settings.inlayHints ? service.getInlayHints(document, params.range).map(convert.inlayHint) : [],
    ),
  );

  connection.onCodeLens((params, token) =>
    withDocument(params.textDocument.uri, token, null, (document) => {
      // The lens shows the latest check (the document's own, or the one before while a check
      // runs): computing a check here would block the connection on a big file.
      const latest = summaries.get(document.uri);
      if (!latest) return [];
      return service.getCodeLenses(document, { ...latest.summary, stale: latest.version !== document.version }).map((lens) => convert.codeLens(document.uri, lens));
    }),
  );

  connection.languages.semanticTokens.on((params, token) =>
    withDocument(params.textDocument.uri, token, { data: [] }, (document) => {
      const builder = new lsp.SemanticTokensBuilder();
      for (const t of service.getSemanticTokens(document)) {
        let modifiers = 0;
        for (const modifier of t.modifiers) modifiers |= 1 << SEMANTIC_TOKEN_MODIFIERS.indexOf(modifier);
        builder.push(t.line, t.character, t.length, SEMANTIC_TOKEN_TYPES.indexOf(t.type), modifiers);
      }
      return builder.build();
    }),
  );

  // wfkit's own requests, for the editor commands (Compile to JSON, Decompile, Show estimate).
  connection.onRequest(WfkitRequests.compile, (params, token) =>
    withDocument(params.uri, token, { error: "The document is not open in the language server." }, (document) => service.compile(document)),
  );
  connection.onRequest(WfkitRequests.decompile, (params) => service.decompile(params.text));
  connection.onRequest(WfkitRequests.estimate, (params, token) =>
    withDocument(params.uri, token, { error: "The document is not open in the language server." }, (document) => service.estimate(document)),
  );

  connection.onShutdown(async () => {
    scheduler.dispose();
    await checker.dispose();
  });
  connection.listen();
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
  // WFKIT_LSP_IN_PROCESS=1 checks on the connection's thread (for debugging, and to test that path).
  listen(connection, { checkerModule: process.env.WFKIT_LSP_IN_PROCESS === "1" ? false : ownModule() });
}

/**
 * The file this code was loaded from, for the checker thread: the bundle (`server.mjs`,
 * `server.cjs`, the CLI's `lsp.mjs`) or this module. A CommonJS bundle knows `__filename`;
 * an ES module knows `import.meta.url`.
 */
function ownModule(): string | URL | undefined {
  if (typeof __filename === "string" && __filename) return __filename;
  try {
    return new URL(import.meta.url);
  } catch {
    return undefined;
  }
}

// A checker thread loads this same module; in that thread (and only there) it starts the
// checker loop. In the main thread importing this module does nothing.
if (isCheckerWorker()) runCheckerWorker();
