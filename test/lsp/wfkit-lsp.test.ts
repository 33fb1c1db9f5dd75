/**
 * `wfkit lsp`, the way neovim, Helix or Emacs start the server: a plain process speaking
 * LSP on stdin/stdout. The same checks as the CLI's `check` reach the editor.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LspTestClient } from "../../packages/language-server/test/support/lsp-client.js";

const WFKIT = fileURLToPath(new URL("../../packages/cli/bin/wfkit.js", import.meta.url));

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
});
