/**
 * `wfkit lsp`, the way neovim, Helix or Emacs start the server: a plain process speaking
 * LSP on stdin/stdout. The same checks as the CLI's `check` reach the editor.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LspTestClient } from "../support/lsp-client.js";

const WFKIT = fileURLToPath(new URL("../../packages/cli/bin/wfkit.cjs", import.meta.url));

describe("wfkit lsp", () => {
  it("serves LSP over stdio: diagnostics, hover, clean shutdown", async () => {
    const client = await LspTestClient.start({ command: { path: WFKIT, args: ["lsp"] } });
    const uri = "file:///work/a.wf";
    const text = "trigger start on_demand\npart report = pakc@1\ndestination inbox standalone\nstart -> report -> inbox\n";
    await client.open(uri, text);
    const { diagnostics } = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([["part-unknown", 1]]);
    const hover = await client.request<{ contents: { value: string } }>("textDocument/hover", { textDocument: { uri }, position: { line: 3, character: 1 } });
    expect(hover.contents.value).toContain("**trigger** `start`");
    expect(await client.stop()).toBe(0);
  });

  it("survives what a hostile document or client sends: a 100,000-level literal, malformed params and edits", async () => {
    const client = await LspTestClient.start({ command: { path: WFKIT, args: ["lsp"] } });
    const uri = "file:///work/deep.wf";
    const text = `trigger start on_demand with {"x": ${"[".repeat(100_000)}${"]".repeat(100_000)}}\ndestination inbox standalone\nstart -> inbox\n`;
    await client.open(uri, text);
    const { diagnostics } = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => [d.code, d.range.start])).toEqual([["syntax", { line: 0, character: text.indexOf("[") + 1999 }]]);
    await expect(client.request("textDocument/hover", { textDocument: { uri }, position: "start" })).rejects.toMatchObject({ code: -32602 });
    await client.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: null });
    // The edit after the refused one is applied by both threads: the literal goes, and so does the fault.
    await client.change(uri, 2, [{ range: { start: { line: 0, character: 23 }, end: { line: 0, character: text.indexOf("\n") } }, text: "" }]);
    expect((await client.diagnostics(uri, 2)).diagnostics).toEqual([]);
    expect(client.logs.filter((log) => log.type === 1)).toEqual([]);
    expect(await client.stop()).toBe(0);
  }, 60_000);
});
