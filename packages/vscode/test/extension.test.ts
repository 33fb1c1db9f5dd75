/**
 * activate() against stand-ins for the `vscode` module and vscode-languageclient (no VS Code
 * binary exists here): it must start the bundled server over node IPC for the right
 * documents and register every command of the manifest.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

const registered = new Map<string, (...args: unknown[]) => unknown>();
const clients: { id: string; serverOptions: any; clientOptions: any; started: boolean; stopped: boolean; requests: unknown[][] }[] = [];

vi.mock("vscode", () => ({
  commands: {
    registerCommand: (id: string, run: (...args: unknown[]) => unknown) => {
      registered.set(id, run);
      return { dispose: () => registered.delete(id) };
    },
  },
  Uri: { joinPath: (base: { path: string }, ...parts: string[]) => ({ path: [base.path, ...parts].join("/") }) },
  ViewColumn: { One: 1, Beside: -2 },
  workspace: {
    onDidChangeTextDocument: () => ({ dispose() {} }),
    textDocuments: [],
    getConfiguration: () => ({ get: (key: string) => (key === "catalogue" ? "catalogue.json" : undefined) }),
    openTextDocument: async () => ({}),
  },
  window: { onDidChangeTextEditorSelection: () => ({ dispose() {} }), activeTextEditor: undefined, showErrorMessage: vi.fn(), showInformationMessage: vi.fn(), showTextDocument: vi.fn() },
}));

vi.mock("vscode-languageclient/node", () => ({
  TransportKind: { stdio: 0, ipc: 1 },
  LanguageClient: class {
    record;
    constructor(id: string, _name: string, serverOptions: unknown, clientOptions: unknown) {
      this.record = { id, serverOptions, clientOptions, started: false, stopped: false, requests: [] as unknown[][] };
      clients.push(this.record);
    }
    async start() {
      this.record.started = true;
    }
    async stop() {
      this.record.stopped = true;
    }
    async sendRequest(...args: unknown[]) {
      this.record.requests.push(args);
      return { error: "stub" };
    }
  },
}));

const { activate, deactivate } = await import("../src/extension.js");

describe("activate", () => {
  beforeEach(() => {
    registered.clear();
    clients.length = 0;
  });

  it("starts the bundled server over node IPC for .wf and JSON documents", async () => {
    const subscriptions: unknown[] = [];
    await activate({ subscriptions, asAbsolutePath: (p: string) => `/ext/${p}`, extensionUri: { path: "/ext" } } as never);
    expect(clients).toHaveLength(1);
    const client = clients[0]!;
    expect(client.started).toBe(true);
    expect(client.serverOptions.run).toEqual({ module: "/ext/dist/server.cjs", transport: 1 });
    expect(client.clientOptions.documentSelector).toContainEqual({ language: "wf", scheme: "file" });
    expect(client.clientOptions.documentSelector).toContainEqual({ language: "json", scheme: "file" });
    expect(client.clientOptions.initializationOptions.settings.catalogue).toBe("catalogue.json");
    expect(client.clientOptions.synchronize).toEqual({ configurationSection: "wfkit" });
    // wfkit.showEstimate is the server's command: vscode-languageclient registers it.
    expect([...registered.keys()].sort()).toEqual(["wfkit.compileToJson", "wfkit.decompileJson", "wfkit.showGraph"]);
    // The commands, and the graph preview's listeners for edits and cursor moves.
    expect(subscriptions).toHaveLength(5);
  });

  it("routes a code lens's Show estimate (run by the client for the server's command) to the server with the lens's uri", async () => {
    await activate({ subscriptions: [], asAbsolutePath: (p: string) => p, extensionUri: { path: "/ext" } } as never);
    const next = vi.fn();
    await clients[0]!.clientOptions.middleware.executeCommand("wfkit.showEstimate", ["file:///w/a.wf"], next);
    expect(clients[0]!.requests).toEqual([["wfkit/estimate", { uri: "file:///w/a.wf" }]]);
    expect(next).not.toHaveBeenCalled();
  });

  it("refuses Show graph without an open .wf file, before making a panel", async () => {
    await activate({ subscriptions: [], asAbsolutePath: (p: string) => p, extensionUri: { path: "/ext" } } as never);
    const vscode = (await import("vscode")) as unknown as { window: { showErrorMessage: ReturnType<typeof vi.fn> } };
    await registered.get("wfkit.showGraph")!();
    expect(vscode.window.showErrorMessage).toHaveBeenCalledWith("Show graph works on a .wf file: open one first.");
  });

  it("stops the client on deactivate", async () => {
    await activate({ subscriptions: [], asAbsolutePath: (p: string) => p, extensionUri: { path: "/ext" } } as never);
    await deactivate();
    expect(clients[0]!.stopped).toBe(true);
  });
});
