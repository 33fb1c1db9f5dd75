/**
 * The handlers both servers register: the Node server's (server.ts) and the browser's
 * (browser/server.ts, in the playground's Web Worker). They are the documents' lifecycle
 * (open, change, close) and the requests about a document, answered by the language service
 * and converted by convert.ts. What differs between the two servers is supplied by each: which
 * documents it serves and with which catalogue and policy, what else hears of each open, edit
 * and close (the Node server's checker thread and read gate), and how a request reaches its
 * document (`WithDocument`: the Node server waits for the read gate and honours cancellation).
 *
 * Nothing here imports from `node:`: the browser's build fails if anything does.
 */
import * as lsp from "vscode-languageserver";
import type { Catalogue } from "@wfkit/core";
import type { FilePolicy } from "@wfkit/project/pure";
import type { GraphingLanguageService } from "../service/graphing-service.js";
import type { WfkitDocument } from "../service/document.js";
import { SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES, type Language, type TextChange } from "../service/types.js";
import * as convert from "./convert.js";
import * as paramsOf from "./params.js";
import { errorText } from "./error-text.js";
import type { DiagnosticsScheduler } from "./diagnostics-scheduler.js";
import { WfkitRequests, type GraphResult } from "./protocol.js";

/** What wfkit's requests answer about a document the server does not have. */
export const NOT_OPEN = { error: "The document is not open in the language server." };

/** A handler's body, guarded, so that one failure never stops the server. */
export interface Guards {
  /** A request's body: a malformed message gets InvalidParams, a bug InternalError (logged). */
  answer<T>(method: string, body: () => T | Promise<T>): Promise<T>;
  /** A notification's body: what it throws is logged and the notification ignored. */
  notified(method: string, body: () => void): void;
  /** Logs what a handler threw (or rejected with); a ResponseError is the reply itself, anything else a bug. */
  reportFailure(method: string, error: unknown): lsp.ResponseError<void>;
}

export function createGuards(connection: lsp.Connection): Guards {
  /** Logs what a handler threw; a thrown ResponseError is the reply itself, anything else a bug. */
  function reportFailure(method: string, error: unknown): lsp.ResponseError<void> {
    if (error instanceof lsp.ResponseError) {
      connection.console.warn(`wfkit: refused ${method}: ${error.message}`);
      return error;
    }
    connection.console.error(`wfkit: ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return new lsp.ResponseError(lsp.ErrorCodes.InternalError, `wfkit: ${method} failed: ${errorText(error)}`);
  }
  return {
    reportFailure,
    async answer(method, body) {
      try {
        return await body();
      } catch (error) {
        throw reportFailure(method, error);
      }
    },
    notified(method, body) {
      try {
        body();
      } catch (error) {
        reportFailure(method, error);
      }
    },
  };
}

/** The documents a server keeps, and what it checks them with. */
export interface DocumentState {
  readonly documents: Map<string, WfkitDocument>;
  /** The current service (the Node server makes another when its settings change). */
  service(): GraphingLanguageService;
  readonly scheduler: DiagnosticsScheduler;
}

/** The document as a checker first needs it: what `createDocument` takes. */
export interface OpenedDocument {
  uri: string;
  language: Language;
  version: number;
  text: string;
  catalogue: Catalogue;
  catalogueProblem: string | undefined;
  policy: FilePolicy;
}

/** What a server decides, and hears, about its documents' lifecycle. */
export interface LifecycleHooks {
  /** The language of a document opened with this id, or undefined for one the server leaves alone. */
  languageOf(languageId: string, uri: string, text: string): Language | undefined;
  /** The catalogue a document is checked against (and why the configured one is not in use), and its policy. */
  checkingOf(uri: string): { catalogue: Catalogue; problem?: string | undefined; policy: FilePolicy };
  /** Whether a closed document's diagnostics are cleared by an empty push (not when the client pulls them). */
  pushesDiagnostics(): boolean;
  /** Called first, before the server builds its own copy: a checker elsewhere starts on its copy meanwhile. */
  opened?(document: OpenedDocument): void;
  /** Called first, before the server applies the edit to its own copy (for the same reason). */
  changed?(uri: string, version: number, changes: TextChange[]): void;
  /** Called once the server has dropped its copy. */
  closed?(uri: string): void;
}

/** Registers open, change and close: each keeps the server's copy and schedules a check. */
export function handleDocumentLifecycle(connection: lsp.Connection, guards: Guards, state: DocumentState, hooks: LifecycleHooks): void {
  const { documents, scheduler } = state;
  connection.onDidOpenTextDocument((params) =>
    guards.notified("textDocument/didOpen", () => {
      const { uri, languageId, version, text } = paramsOf.openedDocument(params);
      const language = hooks.languageOf(languageId, uri, text);
      if (!language) return;
      const { catalogue, problem, policy } = hooks.checkingOf(uri);
      const opened: OpenedDocument = { uri, language, version, text, catalogue, catalogueProblem: problem, policy };
      hooks.opened?.(opened);
      documents.set(uri, state.service().createDocument(opened));
      scheduler.schedule(uri);
    }),
  );

  connection.onDidChangeTextDocument((params) =>
    guards.notified("textDocument/didChange", () => {
      const uri = paramsOf.documentUri(params);
      const version = paramsOf.documentVersion(params);
      const changes = paramsOf.contentChanges(params);
      const document = documents.get(uri);
      if (!document) return;
      hooks.changed?.(uri, version, changes);
      documents.set(uri, state.service().updateDocument(document, version, changes));
      scheduler.schedule(uri);
    }),
  );

  connection.onDidCloseTextDocument((params) =>
    guards.notified("textDocument/didClose", () => {
      const uri = paramsOf.documentUri(params);
      if (!documents.delete(uri)) return;
      scheduler.forget(uri);
      hooks.closed?.(uri);
      if (hooks.pushesDiagnostics()) void connection.sendDiagnostics({ uri, diagnostics: [] });
    }),
  );
}

/**
 * Runs a request against the current version of its document (`params.textDocument.uri`, or
 * `params.uri` for wfkit's own requests), guarded; `fallback` when the server cannot answer
 * (the document is not open, or, in the Node server, it changed while the request waited, or
 * is too costly to read on the connection's thread unless `costly` is "run", for a command
 * the user ran). `read` takes what else `run` needs from the params, first, so a malformed
 * request is refused whatever the document.
 */
export type WithDocument = <T, R = undefined>(
  method: string,
  params: unknown,
  token: lsp.CancellationToken,
  fallback: T,
  read: ((params: unknown) => R) | undefined,
  run: (document: WfkitDocument, read: R) => T | Promise<T>,
  costly?: "fallback" | "run",
) => Promise<T>;

/** The uri a request is about: `params.uri` for wfkit's own requests, else `params.textDocument.uri`. */
export function requestUri(method: string, params: unknown): string {
  return method.startsWith("wfkit/") ? paramsOf.stringField(params, "uri") : paramsOf.documentUri(params);
}

/**
 * Registers the requests both servers answer the same way: the editor features the language
 * service computes from a document alone, and wfkit's own requests (compile, decompile,
 * estimate, graph).
 */
export function handleDocumentRequests(connection: lsp.Connection, guards: Guards, service: () => GraphingLanguageService, withDocument: WithDocument): void {
  connection.onCompletion((params, token) =>
    withDocument("textDocument/completion", params, token, null, paramsOf.positionField, (document, position) => ({
      isIncomplete: false,
      items: service().doComplete(document, position).map(convert.completionItem),
    })),
  );

  connection.onHover((params, token) =>
    withDocument("textDocument/hover", params, token, null, paramsOf.positionField, (document, position) => {
      const result = service().doHover(document, position);
      return result ? convert.hover(result) : null;
    }),
  );

  connection.onDefinition((params, token) =>
    withDocument("textDocument/definition", params, token, null, paramsOf.positionField, (document, position) => {
      const range = service().findDefinition(document, position);
      return range ? { uri: document.uri, range } : null;
    }),
  );

  connection.onReferences((params, token) =>
    withDocument("textDocument/references", params, token, null, paramsOf.positionField, (document, position) =>
      service()
        .findReferences(document, position, params.context?.includeDeclaration === true)
        .map((range) => ({ uri: document.uri, range })),
    ),
  );

  connection.onPrepareRename((params, token) =>
    withDocument("textDocument/prepareRename", params, token, null, paramsOf.positionField, (document, position) => refusedAsError(service().prepareRename(document, position)) ?? null),
  );

  connection.onRenameRequest((params, token) =>
    withDocument("textDocument/rename", params, token, null, (p) => ({ position: paramsOf.positionField(p), newName: paramsOf.stringField(p, "newName") }), (document, { position, newName }) => {
      const result = refusedAsError(service().doRename(document, position, newName));
      return result ? { changes: { [document.uri]: result.edits } } : null;
    }),
  );

  connection.onDocumentHighlight((params, token) =>
    withDocument("textDocument/documentHighlight", params, token, null, paramsOf.positionField, (document, position) => service().findDocumentHighlights(document, position).map(convert.documentHighlight)),
  );

  connection.onDocumentSymbol((params, token) =>
    withDocument("textDocument/documentSymbol", params, token, null, undefined, (document) => service().findDocumentSymbols(document).map(convert.documentSymbol)),
  );

  connection.onFoldingRanges((params, token) =>
    withDocument("textDocument/foldingRange", params, token, null, undefined, (document) => service().getFoldingRanges(document).map(convert.foldingRange)),
  );

  connection.onSelectionRanges((params, token) =>
    withDocument("textDocument/selectionRange", params, token, null, (p) => positionsOf((p as { positions?: unknown }).positions), (document, positions) =>
      service().getSelectionRanges(document, positions).map(convert.selectionRange),
    ),
  );

  connection.onDocumentFormatting((params, token) => withDocument("textDocument/formatting", params, token, null, undefined, (document) => service().format(document, params.options)));

  connection.languages.semanticTokens.on((params, token) =>
    withDocument("textDocument/semanticTokens/full", params, token, { data: [] }, undefined, (document) => {
      const builder = new lsp.SemanticTokensBuilder();
      for (const t of service().getSemanticTokens(document)) {
        let modifiers = 0;
        for (const modifier of t.modifiers) modifiers |= 1 << SEMANTIC_TOKEN_MODIFIERS.indexOf(modifier);
        builder.push(t.line, t.character, t.length, SEMANTIC_TOKEN_TYPES.indexOf(t.type), modifiers);
      }
      return builder.build();
    }),
  );

  // wfkit's own requests, for the editor commands (Compile to JSON, Decompile, Show estimate)
  // and the playground's tabs.
  connection.onRequest(WfkitRequests.compile, (params, token) => withDocument(WfkitRequests.compile.method, params, token, NOT_OPEN, undefined, (document) => service().compile(document), "run"));
  connection.onRequest(WfkitRequests.decompile, (params) => guards.answer(WfkitRequests.decompile.method, () => service().decompile(paramsOf.stringField(params, "text"))));
  connection.onRequest(WfkitRequests.estimate, (params, token) => withDocument(WfkitRequests.estimate.method, params, token, NOT_OPEN, undefined, (document) => service().estimate(document), "run"));

  // The drawing is laid out off the document's turn (layouts queue one at a time in @wfkit/graph).
  connection.onRequest(WfkitRequests.graph, (params, token) =>
    withDocument<GraphResult>(WfkitRequests.graph.method, params, token, NOT_OPEN, undefined, (document) => service().graph(document)),
  );
}

/** What the service refuses (a rename onto a taken name, say) is an InvalidRequest reply with its reason. */
function refusedAsError<T extends object>(result: T | { error: string } | undefined): T | undefined {
  if (result && "error" in result) throw new lsp.ResponseError(lsp.ErrorCodes.InvalidRequest, result.error);
  return result;
}

function positionsOf(value: unknown): lsp.Position[] {
  if (!Array.isArray(value)) throw paramsOf.invalidParams("expected `positions` to be an array");
  return value.map((position, index) => paramsOf.position(position, `positions[${index}]`));
}
