/**
 * The server the extension ships (dist/server.cjs), started the way vscode-languageclient
 * starts it: forked with `--node-ipc`, speaking JSON-RPC over the IPC channel.
 */
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createProtocolConnection, IPCMessageReader, IPCMessageWriter, type PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";

const SERVER = fileURLToPath(new URL("../dist/server.cjs", import.meta.url));

describe("the bundled server over node IPC", () => {
  it("initializes, checks and draws a document and shuts down cleanly", async () => {
    if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first`);
    const child = fork(SERVER, ["--node-ipc"], { stdio: ["ignore", "ignore", "pipe", "ipc"] });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    const published = new Promise<PublishDiagnosticsParams>((resolve) => connection.onNotification("textDocument/publishDiagnostics", resolve));
    connection.listen();
    const result = await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
    expect((result as { serverInfo: { name: string } }).serverInfo.name).toBe("wfkit-language-server");
    await connection.sendNotification("initialized", {});
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: "file:///w/a.wf", languageId: "wf", version: 1, text: "trigger start on_demand\n" } });
    const diagnostics = await published;
    expect(diagnostics.diagnostics.map((d) => d.code)).toEqual(["destination-missing"]);
    // The preview's drawing: Graphviz's WebAssembly runs inside this CommonJS bundle too.
    const graph = (await connection.sendRequest("wfkit/graph", { uri: "file:///w/a.wf" })) as { svg: string; nodes: { id: string }[] };
    expect(graph.nodes.map((node) => node.id)).toEqual(["start"]);
    expect(graph.svg).toContain('<g id="wf-n0" class="node wf&#45;node wf&#45;trigger">');
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    expect(await exited).toBe(0);
    connection.dispose();
  });
});
