/**
 * The server never dies from a document and never stops answering: deep literals, malformed
 * messages, malformed edits, a checker thread that stops, and a document that takes long to
 * read, all over real JSON-RPC on stdio against the built server.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CompletionList, Diagnostic, DocumentSymbol, Hover, TextEdit } from "vscode-languageserver-protocol";
import { MAX_JSON_DEPTH } from "@wfkit/dsl";
import { LspTestClient } from "../../../../test/support/lsp-client.js";
import { launcherWithFakeChecker } from "../support/fake-checker.js";
import { VALID_WF, positionOf } from "../support/fixtures.js";

const INVALID_PARAMS = -32602;
let client: LspTestClient | undefined;

afterEach(() => {
  client?.kill();
  client = undefined;
});

/** A valid workflow whose trigger carries a literal nesting `levels` arrays inside one object. */
function deepWorkflow(levels: number): string {
  return `trigger start on_demand with {"x": ${"[".repeat(levels)}${"]".repeat(levels)}}\ndestination inbox standalone\nstart -> inbox\n`;
}

async function expectAlive(live: LspTestClient): Promise<void> {
  const uri = "file:///work/alive.wf";
  if (!live.published.some((p) => p.uri === uri)) {
    await live.open(uri, VALID_WF);
    expect((await live.diagnostics(uri, 1)).diagnostics).toEqual([]);
  }
  const hover = await live.request<Hover>("textDocument/hover", { textDocument: { uri }, position: positionOf(VALID_WF, "compare ->") });
  expect(JSON.stringify(hover.contents)).toContain("compare");
}

function invalidParams(promise: Promise<unknown>): Promise<unknown> {
  return expect(promise).rejects.toMatchObject({ code: INVALID_PARAMS });
}

describe("deep JSON literals", () => {
  // Checks on the checker thread (the default) and in-process: with the checker thread, a
  // document too costly to read on the connection's thread may get empty feature answers
  // (how costly depends on the machine), so the answers' content is held to in-process.
  for (const inProcess of [false, true]) {
    it(`answers every feature on literals 2,000, 5,000, 10,000 and 100,000 levels deep, with one syntax fault past 2,000 (${inProcess ? "in-process" : "checker thread"})`, async () => {
      client = await LspTestClient.start({ env: inProcess ? { WFKIT_LSP_IN_PROCESS: "1" } : {} });
      const answered = <T>(answer: T | null, check: (answer: T) => void) => {
        if (inProcess) expect(answer).not.toBeNull();
        if (answer !== null) check(answer);
      };
      // The first: the literal's object and 1,999 arrays, exactly as deep as wfkit reads.
      for (const levels of [MAX_JSON_DEPTH - 1, 5_000, 10_000, 100_000]) {
        const uri = `file:///work/deep-${levels}.wf`;
        const text = deepWorkflow(levels);
        await client.open(uri, text);
        const { diagnostics } = await client.diagnostics(uri, 1);
        const syntax = diagnostics.filter((d) => d.code === "syntax");
        if (levels < MAX_JSON_DEPTH) expect(syntax, String(levels)).toEqual([]);
        else {
          // The first bracket past the limit: the literal's object is level 1, its first `[` level 2.
          expect(syntax.map((d) => d.range.start), String(levels)).toEqual([{ line: 0, character: text.indexOf("[") + MAX_JSON_DEPTH - 1 }]);
          expect(syntax[0]!.message).toMatch(/more than 2,000 levels deep/);
        }
        const hover = await client.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 1 } });
        answered(hover, (h) => expect(JSON.stringify(h.contents)).toContain("trigger"));
        expect(await client.request("textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 40 } })).toBeNull();
        const completion = await client.request<CompletionList | null>("textDocument/completion", { textDocument: { uri }, position: { line: 3, character: 0 } });
        answered(completion, (c) => expect(c.items.map((item) => item.label)).toContain("trigger"));
        const edits = await client.request<TextEdit[] | null>("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
        // A file with a syntax error is left as it is; at the limit it is laid out.
        answered(edits, (e) => (levels >= MAX_JSON_DEPTH ? expect(e).toEqual([]) : expect(e.length).toBeGreaterThan(0)));
        const symbols = await client.request<DocumentSymbol[] | null>("textDocument/documentSymbol", { textDocument: { uri } });
        answered(symbols, (s) => expect(s.map((symbol) => symbol.name)).toEqual(expect.arrayContaining(["start", "inbox"])));
        // A command the user runs is always answered.
        const compiled = await client.request<{ json: string; ok: boolean }>("wfkit/compile", { uri });
        expect(compiled.ok).toBe(levels < MAX_JSON_DEPTH);
        expect((JSON.parse(compiled.json) as { nodes: { id: string }[] }).nodes.map((node) => node.id)).toEqual(["start", "inbox"]);
        await client.close(uri);
      }
      // The same limit for a `.json` document.
      const jsonUri = "file:///work/deep.workflow.json";
      await client.open(jsonUri, `{"schemaVersion": 1, "ui": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`, "json");
      const json = await client.diagnostics(jsonUri, 1);
      expect(json.diagnostics.map((d) => [d.code, d.range.start.character])).toEqual([["json-syntax", 27 + MAX_JSON_DEPTH - 1]]);
      await client.request("textDocument/hover", { textDocument: { uri: jsonUri }, position: { line: 0, character: 3 } });
      await expectAlive(client);
      expect(client.logs.filter((log) => log.type === 1)).toEqual([]);
      expect(await client.stop()).toBe(0);
    }, 120_000);
  }
});

describe("malformed messages", () => {
  it("answers malformed requests with InvalidParams and requests about unknown documents with nothing", async () => {
    client = await LspTestClient.start();
    const uri = "file:///work/alive.wf";
    await client.open(uri, VALID_WF);
    await client.diagnostics(uri, 1);
    const at = positionOf(VALID_WF, "compare ->");
    const malformed: [string, unknown][] = [
      ["textDocument/hover", {}],
      ["textDocument/hover", { textDocument: null, position: at }],
      ["textDocument/hover", { textDocument: { uri: 5 }, position: at }],
      ["textDocument/hover", { textDocument: { uri }, position: "3:4" }],
      ["textDocument/hover", { textDocument: { uri }, position: { line: -1, character: 0 } }],
      ["textDocument/definition", { textDocument: { uri }, position: { line: 1.5, character: 0 } }],
      ["textDocument/completion", { textDocument: { uri } }],
      ["textDocument/rename", { textDocument: { uri }, position: at }],
      ["textDocument/codeAction", { textDocument: { uri }, context: { diagnostics: [] } }],
      ["textDocument/selectionRange", { textDocument: { uri }, positions: null }],
      ["textDocument/inlayHint", { textDocument: { uri }, range: { start: at } }],
      ["textDocument/documentSymbol", { textDocument: uri }],
      ["textDocument/diagnostic", { textDocument: [] }],
      ["wfkit/compile", { uri: 1 }],
      ["wfkit/decompile", { text: null }],
      ["workspace/executeCommand", { command: "wfkit.unknown" }],
      ["workspace/executeCommand", { command: "wfkit.showEstimate", arguments: [] }],
    ];
    for (const [method, params] of malformed) await invalidParams(client.request(method, params));

    const unknown = { textDocument: { uri: "file:///work/never-opened.wf" }, position: at };
    expect(await client.request("textDocument/hover", unknown)).toBeNull();
    expect(await client.request("textDocument/completion", unknown)).toBeNull();
    expect(await client.request("textDocument/formatting", { ...unknown, options: { tabSize: 2, insertSpaces: true } })).toBeNull();
    expect(await client.request("wfkit/compile", { uri: unknown.textDocument.uri })).toEqual({ error: "The document is not open in the language server." });
    expect(await client.request("textDocument/diagnostic", { textDocument: unknown.textDocument })).toEqual({ kind: "full", items: [] });
    await expectAlive(client);
    expect(client.logs.filter((log) => log.type === 1)).toEqual([]);
    expect(await client.stop()).toBe(0);
  }, 60_000);

  it("ignores malformed notifications and edits (logged), applies ranges past the end clamped, and the checker thread lives on", async () => {
    client = await LspTestClient.start();
    const uri = "file:///work/edited.wf";
    await client.open(uri, VALID_WF);
    await client.diagnostics(uri, 1);
    const malformed: [string, unknown][] = [
      ["textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: null }],
      ["textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: "gate g hold" }],
      ["textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{}] }],
      ["textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: 5 }] }],
      ["textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ range: { start: { line: "a" } }, text: "x" }] }],
      ["textDocument/didChange", { textDocument: { uri }, contentChanges: [{ text: "" }] }],
      ["textDocument/didOpen", { textDocument: { uri: 5, languageId: "wf", version: 1, text: "" } }],
      ["textDocument/didClose", {}],
    ];
    for (const [method, params] of malformed) await client.connection.sendNotification(method, params);

    // Ranges past the end of the text (a line far below, a character far right) are clamped.
    const lastLine = VALID_WF.split("\n").length - 1;
    await client.change(uri, 2, [
      { range: { start: { line: 1_000, character: 0 }, end: { line: 2_000, character: 9 } }, text: "gate extra hold\n" },
      { range: { start: { line: 0, character: 10_000 }, end: { line: 0, character: 20_000 } }, text: " (edited)" },
    ]);
    const second = await client.diagnostics(uri, 2);
    // The checker thread applied the same clamped edits: `extra` is on the line after the last.
    const extra = second.diagnostics.filter((d: Diagnostic) => String(d.message).includes("`extra`"));
    expect(extra.length).toBeGreaterThan(0);
    expect(extra.every((d) => d.range.start.line === lastLine)).toBe(true);
    const compiled = await client.request<{ json: string }>("wfkit/compile", { uri });
    expect((JSON.parse(compiled.json) as { nodes: { id: string }[] }).nodes.map((node) => node.id)).toContain("extra");

    await expectAlive(client);
    const refusals = client.logs.filter((log) => /refused textDocument\/did(Change|Open|Close)/.test(log.message));
    expect(refusals).toHaveLength(malformed.length);
    expect(client.logs.filter((log) => log.type === 1)).toEqual([]);
    expect(await client.stop()).toBe(0);
  }, 60_000);
});

describe("a checker thread that stops", () => {
  it("is replaced (three times), then checks run in-process: diagnostics still come and requests are answered", async () => {
    // A server whose checker thread exits whenever it is asked to check `crash.wf`.
    const dir = mkdtempSync(path.join(tmpdir(), "wfkit-lsp-crash-"));
    const launcher = launcherWithFakeChecker(dir, "launcher.mjs", ['parentPort.on("message", (message) => { if (message.type === "check" && message.uri.endsWith("crash.wf")) process.exit(3); });']);
    client = await LspTestClient.start({ command: { path: launcher, args: [] } });
    const uri = "file:///work/crash.wf";
    const broken = VALID_WF.replace("pack@1", "pakc@1");
    await client.open(uri, broken);
    const { diagnostics } = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => d.code)).toEqual(["part-unknown"]);
    // A small document opened while the thread starts is checked on the connection's thread
    // first (first-open.test.ts), so the diagnostics can come before the threads have stopped.
    const stopped = () => client!.logs.filter((log) => /the checker thread stopped/.test(log.message));
    for (let wait = 0; wait < 200 && stopped().length < 4; wait++) await new Promise((resolve) => setTimeout(resolve, 50));
    const stops = stopped();
    expect(stops.map((log) => /started a new one|checking in-process/.exec(log.message)?.[0])).toEqual(["started a new one", "started a new one", "started a new one", "checking in-process"]);
    await expectAlive(client);
    expect(await client.stop()).toBe(0);
  }, 60_000);
});

describe("a document that takes long to read", () => {
  it("does not hold up requests about another document: its answer comes before the long one's diagnostics", async () => {
    client = await LspTestClient.start();
    const small = "file:///work/small.wf";
    await client.open(small, VALID_WF);
    await client.diagnostics(small, 1);
    // 150 KB with a syntax error on every line.
    const big = "file:///work/error-dense.wf";
    const text = "}\n".repeat(75 * 1024);
    const events: string[] = [];
    const bigChecked = client.diagnostics(big, 1).then((published) => {
      events.push("big diagnostics");
      return published;
    });
    await client.open(big, text);
    const bigHover = client.request("textDocument/hover", { textDocument: { uri: big }, position: { line: 10, character: 0 } }).then((hover) => {
      events.push("big hover");
      return hover;
    });
    const smallHover = await client.request<Hover>("textDocument/hover", { textDocument: { uri: small }, position: positionOf(VALID_WF, "compare ->") });
    events.push("small hover");
    expect(JSON.stringify(smallHover.contents)).toContain("compare");
    expect((await bigChecked).diagnostics.length).toBeGreaterThan(1_000);
    await bigHover;
    expect(events[0]).toBe("small hover");
    expect(events.slice(1).sort()).toEqual(["big diagnostics", "big hover"]);
    expect(await client.stop()).toBe(0);
  }, 120_000);
});
