/**
 * A real LSP client for tests: spawns the built server (`dist/server.mjs --stdio`) and talks
 * JSON-RPC to it over the child's stdio with vscode-languageserver-protocol, exactly as an
 * editor of the neovim or VS Code family does.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  ShutdownRequest,
  ExitNotification,
  type Diagnostic,
  type InitializeResult,
  type TextDocumentContentChangeEvent,
  type ClientCapabilities,
  type ApplyWorkspaceEditParams,
  type MessageActionItem,
  type ShowMessageRequestParams,
} from "vscode-languageserver-protocol/node";

export const SERVER_PATH = fileURLToPath(new URL("../../packages/language-server/dist/server.mjs", import.meta.url));

export interface PublishedDiagnostics {
  uri: string;
  version: number | undefined;
  diagnostics: Diagnostic[];
  receivedAt: number;
}

export interface StartOptions {
  initializationOptions?: unknown;
  capabilities?: ClientCapabilities;
  rootUri?: string | null;
  /** Answers `workspace/configuration` requests (the client pulls settings). */
  configuration?: () => unknown;
  /** The command that starts the server (default: `node dist/server.mjs --stdio`). */
  command?: { path: string; args: string[] };
  /** Extra environment variables for the server process. */
  env?: Record<string, string>;
  /** Answers `window/showMessageRequest` (default: no action chosen). */
  chooseAction?: (params: ShowMessageRequestParams) => MessageActionItem | null;
}

export class LspTestClient {
  readonly published: PublishedDiagnostics[] = [];
  private waiters: { test: (p: PublishedDiagnostics) => boolean; resolve: (p: PublishedDiagnostics) => void }[] = [];
  initializeResult!: InitializeResult;
  exitCode: Promise<number | null>;
  stderr = "";
  /** What the server logged (`window/logMessage`) and showed (`window/showMessage`), in order. */
  readonly logs: { type: number; message: string }[] = [];
  readonly shown: { type: number; message: string }[] = [];
  /** The `window/showMessageRequest`s the server sent, in order. */
  readonly asked: ShowMessageRequestParams[] = [];
  /** The `workspace/applyEdit`s the server sent, in order (each is answered `applied: true`). */
  readonly appliedEdits: ApplyWorkspaceEditParams[] = [];

  private constructor(
    readonly process: ChildProcessWithoutNullStreams,
    readonly connection: ProtocolConnection,
  ) {
    this.exitCode = new Promise((resolve) => process.on("exit", (code) => resolve(code)));
    process.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    connection.onNotification("window/logMessage", (params: { type: number; message: string }) => void this.logs.push(params));
    connection.onNotification("window/showMessage", (params: { type: number; message: string }) => void this.shown.push(params));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const entry: PublishedDiagnostics = { uri: params.uri, version: params.version, diagnostics: params.diagnostics, receivedAt: performance.now() };
      this.published.push(entry);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(entry)) return true;
        waiter.resolve(entry);
        return false;
      });
    });
  }

  static async start(options: StartOptions = {}): Promise<LspTestClient> {
    const command = options.command ?? { path: SERVER_PATH, args: ["--stdio"] };
    if (!existsSync(command.path)) throw new Error(`${command.path} is missing: run \`npm run build\` first`);
    const child = spawn(process.execPath, [command.path, ...command.args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...options.env } });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new LspTestClient(child, connection);
    if (options.configuration) connection.onRequest("workspace/configuration", (params: { items: unknown[] }) => params.items.map(() => options.configuration!()));
    connection.onRequest("client/registerCapability", () => null);
    connection.onRequest("workspace/applyEdit", (params: ApplyWorkspaceEditParams) => {
      client.appliedEdits.push(params);
      return { applied: true };
    });
    connection.onRequest("window/showMessageRequest", (params: ShowMessageRequestParams) => {
      client.asked.push(params);
      return options.chooseAction?.(params) ?? null;
    });
    connection.listen();
    client.initializeResult = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: options.rootUri ?? null,
      capabilities: options.capabilities ?? {},
      initializationOptions: options.initializationOptions,
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  async open(uri: string, text: string, languageId = "wf", version = 1): Promise<void> {
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
  }

  async change(uri: string, version: number, contentChanges: TextDocumentContentChangeEvent[]): Promise<void> {
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges });
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** The diagnostics published for `uri` at `version` (or the next ones, when no version is given). */
  diagnostics(uri: string, version?: number): Promise<PublishedDiagnostics> {
    const test = (p: PublishedDiagnostics) => p.uri === uri && (version === undefined || p.version === version);
    const already = version === undefined ? undefined : this.published.find(test);
    if (already) return Promise.resolve(already);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** The first diagnostics for `uri`, already published or still to come, that pass `test`. */
  diagnosticsMatching(uri: string, test: (diagnostics: Diagnostic[]) => boolean): Promise<PublishedDiagnostics> {
    const passes = (p: PublishedDiagnostics) => p.uri === uri && test(p.diagnostics);
    const already = this.published.find(passes);
    if (already) return Promise.resolve(already);
    return new Promise((resolve) => this.waiters.push({ test: passes, resolve }));
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  /** shutdown, exit, and the server's exit code (0 after a clean shutdown). */
  async stop(): Promise<number | null> {
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    const code = await this.exitCode;
    this.connection.dispose();
    return code;
  }

  kill(): void {
    this.connection.dispose();
    this.process.kill();
  }
}
