/**
 * The VS Code extension: starts the bundled wfkit language server over node IPC and binds
 * the commands. All behaviour worth testing lives in client-logic.ts.
 */
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import * as vscode from "vscode";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { COMMANDS, compileToJson, decompileJson, documentSelector, executeCommandMiddleware, initializationOptions, isWfDocument, type EditorHost } from "./client-logic.js";
import { GraphPreview, makeNonce, previewHtml, type PreviewHost } from "./graph-preview.js";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath(path.join("dist", "server.cjs"));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6009"] } },
  };
  const configuration = () => vscode.workspace.getConfiguration("wfkit");
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    initializationOptions: initializationOptions((key) => configuration().get(key)),
    synchronize: { configurationSection: "wfkit" },
    // wfkit.showEstimate is the server's command (executeCommandProvider): the client registers it.
    middleware: { executeCommand: executeCommandMiddleware(() => host) },
  };
  client = new LanguageClient("wfkit", "wfkit language server", serverOptions, clientOptions);
  const host = editorHost(client);
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.compileToJson, () => compileToJson(host)),
    vscode.commands.registerCommand(COMMANDS.decompileJson, () => decompileJson(host)),
    ...graphPreviews(context, previewHost(client)),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

function editorHost(languageClient: LanguageClient): EditorHost {
  return {
    activeDocument() {
      const document = vscode.window.activeTextEditor?.document;
      return document && { uri: document.uri.toString(), languageId: document.languageId, fileName: document.fileName, text: document.getText() };
    },
    async openUntitled(content, language) {
      const document = await vscode.workspace.openTextDocument({ content, language });
      await vscode.window.showTextDocument(document, { preview: false });
    },
    showInformation(message, detail) {
      void vscode.window.showInformationMessage(message, detail ? { detail, modal: false } : {});
    },
    showError(message) {
      void vscode.window.showErrorMessage(message);
    },
    async showList(title, rows, placeholder) {
      const items = rows.map((row, index) => ({ label: row.label, ...(row.description ? { description: row.description } : {}), index }));
      const picked = await vscode.window.showQuickPick(items, { title, ...(placeholder ? { placeHolder: placeholder } : {}), matchOnDescription: true });
      return picked?.index;
    },
    async revealNode(uri, nodeId) {
      const target = vscode.Uri.parse(uri);
      const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>("vscode.executeDocumentSymbolProvider", target);
      // The estimate lists parts; the server's outline gives parts the Function kind (subjects, a namespace of their own, Constant).
      const symbol = symbols?.find((candidate) => candidate.name === nodeId && candidate.kind === vscode.SymbolKind.Function);
      if (!symbol) return;
      const open = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === uri);
      await vscode.window.showTextDocument(target, { viewColumn: open?.viewColumn ?? vscode.ViewColumn.Active, selection: symbol.selectionRange });
    },
    sendRequest(method, params) {
      return languageClient.sendRequest(method, params);
    },
  };
}

function previewHost(languageClient: LanguageClient): PreviewHost {
  return {
    sendRequest(method, params) {
      return languageClient.sendRequest(method, params);
    },
    revealRange(uri, range) {
      const selection = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
      const open = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === uri);
      void vscode.window.showTextDocument(vscode.Uri.parse(uri), { viewColumn: open?.viewColumn ?? vscode.ViewColumn.One, selection, preserveFocus: false });
    },
    async saveSvg(svg, suggested) {
      // Beside the source; a document without a folder (untitled) in the workspace's first folder.
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const defaultUri = suggested.uri ? vscode.Uri.parse(suggested.uri) : folder ? vscode.Uri.joinPath(folder, suggested.name) : undefined;
      const target = await vscode.window.showSaveDialog({ filters: { SVG: ["svg"] }, ...(defaultUri ? { defaultUri } : {}), saveLabel: "Export" });
      if (target) await vscode.workspace.fs.writeFile(target, Buffer.from(svg, "utf8"));
    },
    showError(message) {
      void vscode.window.showErrorMessage(message);
    },
  };
}

/** The graph previews: one per `.wf` document, beside its editor, following its edits and cursor. */
function graphPreviews(context: vscode.ExtensionContext, host: PreviewHost): vscode.Disposable[] {
  const previews = new Map<string, GraphPreview>();
  const existingPanels = new Map<string, vscode.WebviewPanel>();
  const media = vscode.Uri.joinPath(context.extensionUri, "dist");
  const open = (document: vscode.TextDocument) => {
    const uri = document.uri.toString();
    const existing = previews.get(uri);
    if (existing) {
      existingPanels.get(uri)?.reveal(undefined, true);
      return existing.refresh();
    }
    const panel = vscode.window.createWebviewPanel("wfkit.graph", "Graph", { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: false });
    const webview = panel.webview;
    webview.html = previewHtml({
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, "preview.js")).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, "preview.css")).toString(),
      cspSource: webview.cspSource,
      nonce: makeNonce(randomBytes),
    });
    const preview = new GraphPreview(uri, document.fileName, { postMessage: (message) => void webview.postMessage(message), setTitle: (title) => (panel.title = title) }, host);
    previews.set(uri, preview);
    existingPanels.set(uri, panel);
    const listening = webview.onDidReceiveMessage((message) => preview.receive(message));
    panel.onDidDispose(() => {
      preview.dispose();
      listening.dispose();
      previews.delete(uri);
      existingPanels.delete(uri);
    });
    return preview.refresh();
  };
  return [
    vscode.commands.registerCommand(COMMANDS.showGraph, (resource?: vscode.Uri) => {
      const editor = vscode.window.activeTextEditor;
      const document = resource ? vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === resource.toString()) : editor?.document;
      if (!document || !isWfDocument({ uri: document.uri.toString(), languageId: document.languageId, fileName: document.fileName, text: "" })) {
        return vscode.window.showErrorMessage("Show graph works on a .wf file: open one first.");
      }
      return open(document);
    }),
    vscode.workspace.onDidChangeTextDocument((event) => void previews.get(event.document.uri.toString())?.refresh()),
    vscode.window.onDidChangeTextEditorSelection((event) => {
      const preview = previews.get(event.textEditor.document.uri.toString());
      const active = event.selections[0]?.active;
      if (preview && active) preview.cursorMoved({ line: active.line, character: active.character });
    }),
  ];
}
