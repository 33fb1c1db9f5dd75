/**
 * What the servers tell a client they can do, built in one place. The browser server (the
 * playground) offers the features a single page shows; the Node server offers them all.
 */
import * as lsp from "vscode-languageserver";
import { WFKIT_COMMANDS } from "../protocol.js";
import { SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES } from "../service/types.js";

export type ServerKind = "node" | "browser";

export function serverCapabilities(kind: ServerKind): lsp.ServerCapabilities {
  const shared: lsp.ServerCapabilities = {
    positionEncoding: lsp.PositionEncodingKind.UTF16,
    textDocumentSync: { openClose: true, change: lsp.TextDocumentSyncKind.Incremental },
    completionProvider: { triggerCharacters: ["@", ">", "[", ",", ".", " "] },
    hoverProvider: true,
    definitionProvider: true,
    referencesProvider: true,
    renameProvider: { prepareProvider: true },
    documentFormattingProvider: true,
    semanticTokensProvider: { legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS] }, full: true },
  };
  if (kind === "browser") return shared;
  return {
    ...shared,
    documentHighlightProvider: true,
    documentSymbolProvider: true,
    foldingRangeProvider: true,
    selectionRangeProvider: true,
    codeActionProvider: { codeActionKinds: [lsp.CodeActionKind.QuickFix] },
    inlayHintProvider: true,
    codeLensProvider: { resolveProvider: false },
    executeCommandProvider: { commands: [WFKIT_COMMANDS.showEstimate, WFKIT_COMMANDS.pinSubjectRemote] },
    diagnosticProvider: { identifier: "wfkit", interFileDependencies: false, workspaceDiagnostics: false },
  };
}
