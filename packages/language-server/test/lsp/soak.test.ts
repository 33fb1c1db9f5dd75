/**
 * Soak: thousands of random edits (typing, deleting, pasting, much of it breaking the
 * syntax) sent to the real server as incremental changes, with requests of every kind
 * mixed in. The server must stay up, answer every request, and end with exactly the
 * diagnostics the CLI's analysis gives for the final text.
 *
 * WFKIT_SOAK_EDITS sets the number of edits (default 2,000).
 */
import { describe, expect, it } from "vitest";
import { analyzeSource } from "@wfkit/dsl";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver-protocol";
import { LspTestClient } from "../support/lsp-client.js";
import { applyEdit, outsideLineBreaks, prng, randomEdit, SAMPLE_WF } from "../support/random-edits.js";
import { LineMap } from "../../src/service/text.js";

const EDITS = Number(process.env.WFKIT_SOAK_EDITS ?? 2_000);
const URI = "file:///work/soak.wf";

const REQUESTS: ((position: { line: number; character: number }) => [string, unknown])[] = [
  (position) => ["textDocument/hover", { textDocument: { uri: URI }, position }],
  (position) => ["textDocument/completion", { textDocument: { uri: URI }, position }],
  (position) => ["textDocument/definition", { textDocument: { uri: URI }, position }],
  (position) => ["textDocument/references", { textDocument: { uri: URI }, position, context: { includeDeclaration: true } }],
  (position) => ["textDocument/documentHighlight", { textDocument: { uri: URI }, position }],
  (position) => ["textDocument/selectionRange", { textDocument: { uri: URI }, positions: [position] }],
  () => ["textDocument/documentSymbol", { textDocument: { uri: URI } }],
  () => ["textDocument/foldingRange", { textDocument: { uri: URI } }],
  () => ["textDocument/semanticTokens/full", { textDocument: { uri: URI } }],
  () => ["textDocument/codeLens", { textDocument: { uri: URI } }],
  () => ["textDocument/formatting", { textDocument: { uri: URI }, options: { tabSize: 2, insertSpaces: true } }],
  () => ["textDocument/inlayHint", { textDocument: { uri: URI }, range: { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } } }],
  () => ["textDocument/codeAction", { textDocument: { uri: URI }, range: { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } }, context: { diagnostics: [] } }],
];

describe("soak", () => {
  it(`survives ${EDITS} random edits and ends with the CLI's diagnostics`, async () => {
    const client = await LspTestClient.start();
    const random = prng(7);
    let text = SAMPLE_WF;
    let version = 1;
    await client.open(URI, text, "wf", version);
    const answers: Promise<unknown>[] = [];
    for (let i = 0; i < EDITS; i++) {
      const changes: TextDocumentContentChangeEvent[] = [];
      if (text.length > 3_000) {
        // Now and then the whole text is replaced, as some clients do.
        text = SAMPLE_WF;
        changes.push({ text });
      } else {
        // One or two changes per notification, each relative to the text the previous one left.
        for (let k = random() < 0.2 ? 2 : 1; k > 0; k--) {
          const edit = outsideLineBreaks(text, randomEdit(text, random));
          const lines = new LineMap(text);
          changes.push({ range: lines.rangeOf(edit.start, edit.end), text: edit.text });
          text = applyEdit(text, edit);
        }
      }
      version++;
      await client.change(URI, version, changes);
      if (i % 25 === 0) {
        const lines = new LineMap(text);
        const position = lines.positionAt(Math.floor(random() * (text.length + 1)));
        const [method, params] = REQUESTS[Math.floor(random() * REQUESTS.length)]!(position);
        answers.push(client.request(method, params));
      }
    }
    const settled = await Promise.allSettled(answers);
    expect(settled.filter((result) => result.status === "rejected")).toEqual([]);

    const final = await client.diagnostics(URI, version);
    const expected = analyzeSource(text, "wf").faults.map((fault) => ({ code: fault.code, severity: fault.severity === "error" ? 1 : 2, range: fault.range, message: fault.message }));
    const actual = final.diagnostics.map((d) => ({ code: d.code, severity: d.severity, range: d.range, message: d.message }));
    expect(actual, `final text: ${JSON.stringify(text)}`).toEqual(expected);
    expect(client.stderr).toBe("");
    expect(await client.stop()).toBe(0);
  });
});
