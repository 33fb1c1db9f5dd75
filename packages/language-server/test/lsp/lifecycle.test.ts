/**
 * The server as any LSP editor sees it: a plain process on stdio. Initialize, open, change
 * (incremental sync), close, shutdown and exit, with a real JSON-RPC client.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TextDocumentSyncKind } from "vscode-languageserver-protocol";
import { LspTestClient } from "../../../../test/support/lsp-client.js";
import { VALID_WF, positionOf } from "../support/fixtures.js";

const URI = "file:///work/grocers.wf";
let client: LspTestClient | undefined;

afterEach(() => {
  client?.kill();
  client = undefined;
});

describe("lifecycle over stdio", () => {
  it("advertises every feature, with incremental sync", async () => {
    client = await LspTestClient.start();
    const capabilities = client.initializeResult.capabilities;
    expect(capabilities.textDocumentSync).toMatchObject({ openClose: true, change: TextDocumentSyncKind.Incremental });
    for (const provider of [
      "completionProvider",
      "hoverProvider",
      "definitionProvider",
      "referencesProvider",
      "renameProvider",
      "documentHighlightProvider",
      "documentSymbolProvider",
      "foldingRangeProvider",
      "selectionRangeProvider",
      "documentFormattingProvider",
      "codeActionProvider",
      "inlayHintProvider",
      "codeLensProvider",
      "semanticTokensProvider",
    ])
      expect(capabilities, provider).toHaveProperty(provider);
    expect(capabilities.renameProvider).toEqual({ prepareProvider: true });
    expect(client.initializeResult.serverInfo?.name).toBe("wfkit-language-server");
  });

  it("publishes diagnostics on open and after each incremental change, for that version", async () => {
    client = await LspTestClient.start();
    await client.open(URI, VALID_WF);
    expect((await client.diagnostics(URI, 1)).diagnostics).toEqual([]);

    // Misspell a part id with an incremental edit: `pack` -> `pakc`.
    const at = positionOf(VALID_WF, "pack@1");
    await client.change(URI, 2, [{ range: { start: { line: at.line, character: at.character + 2 }, end: { line: at.line, character: at.character + 4 } }, text: "kc" }]);
    const broken = await client.diagnostics(URI, 2);
    expect(broken.diagnostics).toHaveLength(1);
    expect(broken.diagnostics[0]).toMatchObject({
      code: "part-unknown",
      severity: 1,
      source: "wfkit",
      range: { start: at, end: { line: at.line, character: at.character + 4 } },
      codeDescription: { href: "https://github.com/wfkit/wfkit/blob/main/docs/rules/part-unknown.md" },
      data: { suggestion: "pack" },
    });

    // Undo it: the diagnostics clear for the new version.
    await client.change(URI, 3, [{ range: { start: { line: at.line, character: at.character + 2 }, end: { line: at.line, character: at.character + 4 } }, text: "ck" }]);
    expect((await client.diagnostics(URI, 3)).diagnostics).toEqual([]);
    expect(await client.stop()).toBe(0);
    client = undefined;
  });

  it("checks on the connection's thread when told to (WFKIT_LSP_IN_PROCESS=1), with the same results", async () => {
    client = await LspTestClient.start({ env: { WFKIT_LSP_IN_PROCESS: "1" } });
    await client.open(URI, VALID_WF.replace("pack@1", "pakc@1"));
    const { diagnostics } = await client.diagnostics(URI, 1);
    expect(diagnostics.map((d) => d.code)).toEqual(["part-unknown"]);
    const lenses = await client.request<{ command: { title: string } }[]>("textDocument/codeLens", { textDocument: { uri: URI } });
    expect(lenses[0]!.command.title).toMatch(/1 error$/);
  });

  it("never publishes an older version after a newer one, and ends on the latest", async () => {
    client = await LspTestClient.start();
    await client.open(URI, VALID_WF);
    await client.diagnostics(URI, 1);
    // A burst of edits, sent without waiting: typing `x` at the end, ten times.
    const end = positionOf(VALID_WF, "inbox", 1, 5);
    for (let version = 2; version <= 11; version++) {
      const character = end.character + version - 2;
      await client.change(URI, version, [{ range: { start: { line: end.line, character }, end: { line: end.line, character } }, text: "x" }]);
    }
    const last = await client.diagnostics(URI, 11);
    expect(last.diagnostics.map((d) => d.code)).toContain("undeclared-node");
    const versions = client.published.filter((p) => p.uri === URI).map((p) => p.version!);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(versions[versions.length - 1]).toBe(11);
  });

  it("clears a closed document's diagnostics", async () => {
    client = await LspTestClient.start();
    await client.open(URI, "trigger start on_demand\n");
    expect((await client.diagnostics(URI, 1)).diagnostics.map((d) => d.code)).toContain("destination-missing");
    const cleared = client.diagnostics(URI);
    await client.close(URI);
    expect((await cleared).diagnostics).toEqual([]);
  });

  it("answers a cancelled request and keeps serving", async () => {
    client = await LspTestClient.start();
    await client.open(URI, VALID_WF);
    await client.diagnostics(URI, 1);
    const { CancellationTokenSource } = await import("vscode-jsonrpc");
    const source = new CancellationTokenSource();
    const pending = client.connection.sendRequest("textDocument/documentSymbol", { textDocument: { uri: URI } }, source.token);
    source.cancel();
    // Either the cancellation wins (an error) or the answer was already on its way.
    const outcome = await pending.then(() => "answered", (error: { code?: number }) => error.code);
    expect(["answered", -32800]).toContain(outcome);
    const hover = await client.request<{ contents: { value: string } } | null>("textDocument/hover", { textDocument: { uri: URI }, position: positionOf(VALID_WF, "report", 0, 1) });
    expect(hover?.contents.value).toMatch(/part/);
  });

  it("exits with 1 when told to exit without a shutdown, as the protocol says", async () => {
    client = await LspTestClient.start();
    await client.connection.sendNotification("exit");
    expect(await client.exitCode).toBe(1);
  });
});
