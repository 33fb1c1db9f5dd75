/**
 * The language server in a browser (the playground runs it in a Web Worker): the same pure
 * language service as the Node server (src/server/server.ts), over a message port instead of
 * stdio, with what a browser lacks left out:
 *
 * - checks run in-process: the Web Worker is already off the page's thread, so there is no
 *   checker thread to mirror documents into, and no read gate in front of the features;
 * - every document gets the embedded sample catalogue and no project policy (there is no
 *   file system to find a `wfkit.config.json` or a catalogue file in);
 * - no Workflows API (the pin quick fix) and no watched files: the page sends its text
 *   nowhere.
 *
 * The features are those the playground's editor asks for (diagnostics pushed, completion,
 * hover, formatting, definition, references, rename, semantic tokens) and wfkit's own requests (compile,
 * decompile, estimate, graph), converted by the same convert.ts and read through the same
 * params.ts checks as the Node server's.
 */
import * as lsp from "vscode-languageserver/browser";
import { defaultCatalogue } from "@wfkit/core";
import { NO_POLICY } from "@wfkit/project/pure";
import { renderSvg } from "@wfkit/graph";
import { createLanguageService } from "../service/language-service.js";
import type { WfkitDocument } from "../service/document.js";
import { SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES, type Diagnostic, type Language } from "../service/types.js";
import * as convert from "../server/convert.js";
import * as paramsOf from "../server/params.js";
import { DiagnosticsScheduler } from "../server/diagnostics-scheduler.js";
import { DEFAULT_SETTINGS } from "../server/settings.js";
import { WfkitRequests, type GraphResult } from "../server/protocol.js";
import { getGraphPicture } from "../service/features/graph-picture.js";

/** What wfkit's requests answer about a document the server does not have. */
const NOT_OPEN = { error: "The document is not open in the language server." };

/** `wfkit/checked`: sent after each check with the figures the page shows beside the editor. */
export const CHECKED_NOTIFICATION = new lsp.NotificationType<CheckedParams>("wfkit/checked");

export interface CheckedParams {
  uri: string;
  version: number;
  errors: number;
  warnings: number;
  /** Absent when syntax errors leave the definition uncertain. */
  costMinorUnits: number | undefined;
}

/** `.wf` by its language id or name; anything else the client opens is read as JSON. */
function languageOf(languageId: string, uri: string): Language {
  return languageId === "wf" || uri.endsWith(".wf") ? "wf" : "json";
}

/**
 * The scheduler waits a turn of the event loop with `setImmediate`, which browsers lack; a
 * zero timeout is their nearest equivalent (vscode-jsonrpc's browser runtime uses the same).
 */
function ensureSetImmediate(): void {
  const scope = globalThis as { setImmediate?: unknown; clearImmediate?: unknown };
  if (typeof scope.setImmediate === "function") return;
  scope.setImmediate = (callback: () => void) => setTimeout(callback, 0);
  scope.clearImmediate = (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle);
}

export function listenInBrowser(connection: lsp.Connection): void {
  ensureSetImmediate();
  const service = createLanguageService({ docsBaseUrl: DEFAULT_SETTINGS.docsBaseUrl });
  const documents = new Map<string, WfkitDocument>();
  /** What was last published per document, so an unchanged verdict is not sent again. */
  const published = new Map<string, string>();
  const scheduler = new DiagnosticsScheduler(check, () => DEFAULT_SETTINGS.debounceMs);

  function check(uri: string): void {
    const document = documents.get(uri);
    if (!document) return;
    const started = performance.now();
    let found: Diagnostic[];
    try {
      found = service.doValidation(document);
    } catch (error) {
      // A bug, never the user's text: say so in the log and keep serving the other features.
      connection.console.error(`wfkit: checking version ${document.version} of ${uri} failed: ${errorText(error)}`);
      return;
    } finally {
      scheduler.recordCost(uri, performance.now() - started);
    }
    const diagnostics = found.map((d) => convert.diagnostic(uri, d));
    const key = JSON.stringify(diagnostics);
    if (published.get(uri) !== key) {
      published.set(uri, key);
      void connection.sendDiagnostics({ uri, version: document.version, diagnostics });
    }
    const errors = found.filter((d) => d.severity === "error").length;
    void connection.sendNotification(CHECKED_NOTIFICATION, { uri, version: document.version, errors, warnings: found.length - errors, costMinorUnits: document.analysis.estimate?.costMinorUnits });
  }

  /**
   * A request's body on the current version of its document (`params.textDocument.uri`, or
   * `params.uri` for wfkit's own requests), guarded: malformed params get InvalidParams, a
   * bug InternalError (logged), and the server goes on. `read` takes what else `run` needs
   * from the params first, so a malformed request is refused whatever the document.
   */
  function onDocument<T, R = undefined>(method: string, params: unknown, fallback: T, read: ((params: unknown) => R) | undefined, run: (document: WfkitDocument, read: R) => T | Promise<T>): Promise<T> {
    return answer(method, () => {
      const uri = method.startsWith("wfkit/") ? paramsOf.stringField(params, "uri") : paramsOf.documentUri(params);
      const parts = read?.(params) as R;
      const document = documents.get(uri);
      return document ? run(document, parts) : fallback;
    });
  }

  async function answer<T>(method: string, body: () => T | Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if (error instanceof lsp.ResponseError) throw error;
      connection.console.error(`wfkit: ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      throw new lsp.ResponseError(lsp.ErrorCodes.InternalError, `wfkit: ${method} failed: ${errorText(error)}`);
    }
  }

  function notified(method: string, body: () => void): void {
    answer(method, body).catch(() => undefined);
  }

  connection.onInitialize(
    (): lsp.InitializeResult => ({
      capabilities: {
        positionEncoding: lsp.PositionEncodingKind.UTF16,
        textDocumentSync: { openClose: true, change: lsp.TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: ["@", ">", "[", ",", ".", " "] },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentFormattingProvider: true,
        semanticTokensProvider: { legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS] }, full: true },
      },
      serverInfo: { name: "wfkit-language-server (browser)", version: "0.1.0" },
    }),
  );

  connection.onDidOpenTextDocument((params) =>
    notified("textDocument/didOpen", () => {
      const { uri, languageId, version, text } = paramsOf.openedDocument(params);
      documents.set(uri, service.createDocument({ uri, language: languageOf(languageId, uri), version, text, catalogue: defaultCatalogue, catalogueProblem: undefined, policy: NO_POLICY }));
      scheduler.schedule(uri);
    }),
  );

  connection.onDidChangeTextDocument((params) =>
    notified("textDocument/didChange", () => {
      const uri = paramsOf.documentUri(params);
      const document = documents.get(uri);
      if (!document) return;
      documents.set(uri, service.updateDocument(document, paramsOf.documentVersion(params), paramsOf.contentChanges(params)));
      scheduler.schedule(uri);
    }),
  );

  connection.onDidCloseTextDocument((params) =>
    notified("textDocument/didClose", () => {
      const uri = paramsOf.documentUri(params);
      if (!documents.delete(uri)) return;
      published.delete(uri);
      scheduler.forget(uri);
      void connection.sendDiagnostics({ uri, diagnostics: [] });
    }),
  );

  connection.onCompletion((params) =>
    onDocument("textDocument/completion", params, null, paramsOf.positionField, (document, position) => ({ isIncomplete: false, items: service.doComplete(document, position).map(convert.completionItem) })),
  );

  connection.onHover((params) =>
    onDocument("textDocument/hover", params, null, paramsOf.positionField, (document, position) => {
      const result = service.doHover(document, position);
      return result ? convert.hover(result) : null;
    }),
  );

  connection.onDefinition((params) =>
    onDocument("textDocument/definition", params, null, paramsOf.positionField, (document, position) => {
      const range = service.findDefinition(document, position);
      return range ? { uri: document.uri, range } : null;
    }),
  );

  connection.onReferences((params) =>
    onDocument("textDocument/references", params, null, paramsOf.positionField, (document, position) =>
      service.findReferences(document, position, params.context?.includeDeclaration === true).map((range) => ({ uri: document.uri, range })),
    ),
  );

  connection.onPrepareRename((params) =>
    onDocument("textDocument/prepareRename", params, null, paramsOf.positionField, (document, position) => refusedAsError(service.prepareRename(document, position)) ?? null),
  );

  connection.onRenameRequest((params) =>
    onDocument("textDocument/rename", params, null, (p) => ({ position: paramsOf.positionField(p), newName: paramsOf.stringField(p, "newName") }), (document, { position, newName }) => {
      const result = refusedAsError(service.doRename(document, position, newName));
      return result ? { changes: { [document.uri]: result.edits } } : null;
    }),
  );

  connection.onDocumentFormatting((params) => onDocument("textDocument/formatting", params, null, undefined, (document) => service.format(document, params.options)));

  connection.languages.semanticTokens.on((params) =>
    onDocument("textDocument/semanticTokens/full", params, { data: [] }, undefined, (document) => {
      const builder = new lsp.SemanticTokensBuilder();
      for (const token of service.getSemanticTokens(document)) {
        const modifiers = token.modifiers.reduce((bits, modifier) => bits | (1 << SEMANTIC_TOKEN_MODIFIERS.indexOf(modifier)), 0);
        builder.push(token.line, token.character, token.length, SEMANTIC_TOKEN_TYPES.indexOf(token.type), modifiers);
      }
      return builder.build();
    }),
  );

  connection.onRequest(WfkitRequests.compile, (params) => onDocument(WfkitRequests.compile.method, params, NOT_OPEN, undefined, (document) => service.compile(document)));
  connection.onRequest(WfkitRequests.decompile, (params) => answer(WfkitRequests.decompile.method, () => service.decompile(paramsOf.stringField(params, "text"))));
  connection.onRequest(WfkitRequests.estimate, (params) => onDocument(WfkitRequests.estimate.method, params, NOT_OPEN, undefined, (document) => service.estimate(document)));
  // Graphviz's WebAssembly lays the drawing out here, in the worker, one layout at a time.
  connection.onRequest(WfkitRequests.graph, (params) =>
    onDocument<GraphResult>(WfkitRequests.graph.method, params, NOT_OPEN, undefined, async (document) => {
      const picture = getGraphPicture(document);
      return { version: picture.version, svg: await renderSvg(picture.model, { displayText: (text) => text }), nodes: picture.nodes };
    }),
  );

  connection.onShutdown(() => scheduler.dispose());
  connection.listen();
}

/** A rename the service refuses is an InvalidRequest reply with its reason. */
function refusedAsError<T extends object>(result: T | { error: string } | undefined): T | undefined {
  if (result && "error" in result) throw new lsp.ResponseError(lsp.ErrorCodes.InvalidRequest, result.error);
  return result;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Starts the server on a message port: inside a Web Worker, the worker's own scope (what the
 * page posts to the worker is read, and replies are posted back).
 */
export function startBrowserServer(port: ConstructorParameters<typeof lsp.BrowserMessageReader>[0]): lsp.Connection {
  const connection = lsp.createConnection(new lsp.BrowserMessageReader(port), new lsp.BrowserMessageWriter(port));
  listenInBrowser(connection);
  return connection;
}
