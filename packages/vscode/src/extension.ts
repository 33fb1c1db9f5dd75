/**
 * The VS Code extension: starts the bundled wfkit language server over node IPC and binds
 * the commands. All behaviour worth testing lives in client-logic.ts.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { COMMANDS, compileToJson, decompileJson, documentSelector, executeCommandMiddleware, initializationOptions, type EditorHost } from "./client-logic.js";

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
    sendRequest(method, params) {
      return languageClient.sendRequest(method, params);
    },
  };
}
