/**
 * What generic LSP clients (Neovim, Helix, Emacs eglot) rely on beyond VS Code: pull
 * diagnostics, the code lens's command run through `workspace/executeCommand`, and pushed
 * diagnostics only when they change. Over real JSON-RPC on stdio against the built server.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { CodeLens, Diagnostic } from "vscode-languageserver-protocol";
import { LspTestClient } from "../../../../test/support/lsp-client.js";
import { VALID_WF, positionOf } from "../support/fixtures.js";

let client: LspTestClient | undefined;

afterEach(() => {
  client?.kill();
  client = undefined;
});

type Report = { kind: "full"; resultId?: string; items: Diagnostic[] } | { kind: "unchanged"; resultId: string };

const BROKEN = VALID_WF.replace("pack@1", "pakc@1");
const PULL = { textDocument: { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } } };

function codes(report: Report): string[] {
  expect(report.kind).toBe("full");
  return (report as { items: Diagnostic[] }).items.map((d) => String(d.code));
}

describe("pull diagnostics (textDocument/diagnostic)", () => {
  it("are advertised, answer for the current version, and say `unchanged` for a resultId that still holds", async () => {
    client = await LspTestClient.start({ capabilities: PULL });
    expect(client.initializeResult.capabilities.diagnosticProvider).toEqual({ identifier: "wfkit", interFileDependencies: false, workspaceDiagnostics: false });
    const uri = "file:///work/pulled.wf";
    await client.open(uri, BROKEN);
    // Asked at once: the answer waits for the check of version 1.
    const first = await client.request<Report>("textDocument/diagnostic", { textDocument: { uri } });
    expect(codes(first)).toEqual(["part-unknown"]);
    const firstId = (first as { resultId: string }).resultId;
    expect(firstId).toEqual(expect.any(String));
    expect(await client.request("textDocument/diagnostic", { textDocument: { uri }, previousResultId: firstId })).toEqual({ kind: "unchanged", resultId: firstId });

    // An edit that changes nothing the checks see keeps the result.
    const end = { line: VALID_WF.split("\n").length - 1, character: 0 };
    await client.change(uri, 2, [{ range: { start: end, end }, text: "# a comment\n" }]);
    expect(await client.request("textDocument/diagnostic", { textDocument: { uri }, previousResultId: firstId })).toEqual({ kind: "unchanged", resultId: firstId });

    // Fixing the part id: a new result, with no diagnostics.
    const at = positionOf(BROKEN, "pakc@1");
    await client.change(uri, 3, [{ range: { start: at, end: { line: at.line, character: at.character + 4 } }, text: "pack" }]);
    const fixed = await client.request<Report>("textDocument/diagnostic", { textDocument: { uri }, previousResultId: firstId });
    expect(codes(fixed)).toEqual([]);
    expect((fixed as { resultId: string }).resultId).not.toBe(firstId);

    // A client that pulls gets no pushed diagnostics as well (they would show twice).
    expect(client.published).toEqual([]);
    expect(await client.stop()).toBe(0);
  }, 60_000);

  it("are answered for a client that does not declare pull support too, which still gets them pushed", async () => {
    client = await LspTestClient.start();
    const uri = "file:///work/both.wf";
    await client.open(uri, BROKEN);
    const pushed = await client.diagnostics(uri, 1);
    const pulled = await client.request<Report>("textDocument/diagnostic", { textDocument: { uri } });
    expect(codes(pulled)).toEqual(["part-unknown"]);
    expect((pulled as { items: Diagnostic[] }).items).toEqual(pushed.diagnostics);
    expect(await client.stop()).toBe(0);
  }, 60_000);
});

describe("workspace/executeCommand", () => {
  it("registers the code lens's command and runs it: the estimate, shown to the user", async () => {
    client = await LspTestClient.start({ capabilities: { workspace: { codeLens: { refreshSupport: false } } } });
    expect(client.initializeResult.capabilities.executeCommandProvider).toEqual({ commands: ["wfkit.showEstimate", "wfkit.pinSubjectRemote"] });
    const uri = "file:///work/lens.wf";
    await client.open(uri, VALID_WF);
    await client.diagnostics(uri, 1);
    const [lens] = await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri } });
    expect(lens!.command!.command).toBe("wfkit.showEstimate");
    // Run the lens's command exactly as a generic client does.
    const result = await client.request<{ costMinorUnits: number; ok: boolean; errors: number; parts: unknown[] }>("workspace/executeCommand", {
      command: lens!.command!.command,
      arguments: lens!.command!.arguments,
    });
    const estimate = await client.request<{ costMinorUnits: number }>("wfkit/estimate", { uri });
    expect(result).toEqual(estimate);
    expect(result.ok).toBe(true);
    expect(client.shown.map((message) => message.message)).toEqual([`Estimated cost: ${result.costMinorUnits.toLocaleString("en")} minor units (valid).`]);
    await expect(client.request("workspace/executeCommand", { command: "wfkit.showEstimate", arguments: ["file:///work/not-open.wf"] })).resolves.toEqual({
      error: "The document is not open in the language server.",
    });
    expect(await client.stop()).toBe(0);
  }, 60_000);
});

describe("pushed diagnostics", () => {
  it("are published again only when they change: content or range, not a whitespace edit elsewhere", async () => {
    client = await LspTestClient.start();
    const uri = "file:///work/pushed.wf";
    await client.open(uri, BROKEN);
    await client.diagnostics(uri, 1);
    const end = { line: BROKEN.split("\n").length - 1, character: 0 };
    // v2: trailing blank lines after everything: nothing moves, nothing is published.
    await client.change(uri, 2, [{ range: { start: end, end }, text: "\n\n" }]);
    // v3: a line break before the faulty part: its fault moves down a line and is published.
    const at = positionOf(BROKEN, "part report");
    await client.change(uri, 3, [{ range: { start: at, end: at }, text: "\n" }]);
    const moved = await client.diagnostics(uri, 3);
    expect(moved.diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([["part-unknown", positionOf(BROKEN, "pakc@1").line + 1]]);
    // v4: spaces at the end of the last line, then v5 the same fault again after removing them: nothing new.
    await client.change(uri, 4, [{ range: { start: { line: end.line + 3, character: 0 }, end: { line: end.line + 3, character: 0 } }, text: "   " }]);
    await client.change(uri, 5, [{ range: { start: { line: end.line + 3, character: 0 }, end: { line: end.line + 3, character: 3 } }, text: "" }]);
    // v6: fixing it publishes the empty set; the stream ends there.
    const fault = positionOf(BROKEN, "pakc@1");
    await client.change(uri, 6, [{ range: { start: { line: fault.line + 1, character: fault.character }, end: { line: fault.line + 1, character: fault.character + 4 } }, text: "pack" }]);
    expect((await client.diagnostics(uri, 6)).diagnostics).toEqual([]);
    expect(client.published.filter((p) => p.uri === uri).map((p) => p.version)).toEqual([1, 3, 6]);
    expect(await client.stop()).toBe(0);
  }, 60_000);
});
