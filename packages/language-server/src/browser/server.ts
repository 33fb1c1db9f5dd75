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
 * It is a transport only: the documents' lifecycle and the requests are the Node server's
 * own handlers (server/handlers.ts), with checks run in-process and no read gate. It
 * advertises the features the playground's editor asks for (diagnostics pushed, completion,
 * hover, formatting, definition, references, rename, semantic tokens) and wfkit's own
 * requests (compile, decompile, estimate, graph).
 */
import * as lsp from "vscode-languageserver/browser";
import { defaultCatalogue } from "@wfkit/core";
import { NO_POLICY } from "@wfkit/project/pure";
import { createGraphingLanguageService } from "../service/graphing-service.js";
import { serverCapabilities } from "../server/capabilities.js";
import type { WfkitDocument } from "../service/document.js";
import type { Diagnostic, Language } from "../service/types.js";
import * as convert from "../server/convert.js";
import { DiagnosticsScheduler } from "../server/diagnostics-scheduler.js";
import { DEFAULT_SETTINGS } from "../server/settings.js";
import { errorText } from "../server/error-text.js";
import { WfkitNotifications, type CheckedParams } from "../server/protocol.js";
import { createGuards, handleDocumentLifecycle, handleDocumentRequests, requestUri, type WithDocument } from "../server/handlers.js";

/** `wfkit/checked`: sent after each check with the figures the page shows beside the editor. */
export const CHECKED_NOTIFICATION = WfkitNotifications.checked;
export type { CheckedParams };

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
  const service = createGraphingLanguageService({ docsBaseUrl: DEFAULT_SETTINGS.docsBaseUrl });
  const documents = new Map<string, WfkitDocument>();
  /** What was last published per document, so an unchanged verdict is not sent again. */
  const published = new Map<string, string>();
  const scheduler = new DiagnosticsScheduler(check, () => DEFAULT_SETTINGS.debounceMs);
  const guards = createGuards(connection);

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

  /** A request on the current version of its document: this thread reads every document itself. */
  const withDocument: WithDocument = (method, params, _token, fallback, read, run) =>
    guards.answer(method, () => {
      const uri = requestUri(method, params);
      const parts = read?.(params) as Parameters<typeof run>[1];
      const document = documents.get(uri);
      return document ? run(document, parts) : fallback;
    });

  connection.onInitialize(
    (): lsp.InitializeResult => ({
      capabilities: serverCapabilities("browser"),
      serverInfo: { name: "wfkit-language-server (browser)", version: "0.1.0" },
    }),
  );

  // Every document gets the sample catalogue and no policy: there are no files to find others in.
  handleDocumentLifecycle(
    connection,
    guards,
    { documents, service: () => service, scheduler },
    {
      languageOf,
      checkingOf: () => ({ catalogue: defaultCatalogue, problem: undefined, policy: NO_POLICY }),
      pushesDiagnostics: () => true,
      closed: (uri) => published.delete(uri),
    },
  );
  handleDocumentRequests(connection, guards, () => service, withDocument);

  connection.onShutdown(() => scheduler.dispose());
  connection.listen();
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
