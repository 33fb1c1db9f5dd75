/**
 * Soak: thousands of random edits (typing, deleting, pasting, much of it breaking the
 * syntax) sent to the real server as incremental changes, with requests of every kind
 * mixed in. The server must stay up, answer every request, and end with exactly the
 * diagnostics the CLI's analysis gives for the final text. A second run does the same in a
 * folder with a wfkit.config.json (comments, severity settings) while suppression comments
 * are typed in, and compares with the built CLI's `check` of the final text there.
 *
 * WFKIT_SOAK_EDITS sets the number of edits (default 2,000).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { analyzeSource } from "@wfkit/dsl";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver-protocol";
import { LspTestClient } from "../../../../test/support/lsp-client.js";
import { applyEdit, outsideLineBreaks, prng, randomEdit, SAMPLE_WF } from "../support/random-edits.js";
import { LineMap } from "../../src/service/text.js";

const EDITS = Number(process.env.WFKIT_SOAK_EDITS ?? 2_000);
/** The built CLI, whose verdict the editor must match. */
const CLI_BIN = fileURLToPath(new URL("../../../cli/bin/wfkit.cjs", import.meta.url));
const URI = "file:///work/soak.wf";

const REQUESTS: ((uri: string, position: { line: number; character: number }) => [string, unknown])[] = [
  (uri, position) => ["textDocument/hover", { textDocument: { uri }, position }],
  (uri, position) => ["textDocument/completion", { textDocument: { uri }, position }],
  (uri, position) => ["textDocument/definition", { textDocument: { uri }, position }],
  (uri, position) => ["textDocument/references", { textDocument: { uri }, position, context: { includeDeclaration: true } }],
  (uri, position) => ["textDocument/documentHighlight", { textDocument: { uri }, position }],
  (uri, position) => ["textDocument/selectionRange", { textDocument: { uri }, positions: [position] }],
  (uri) => ["textDocument/documentSymbol", { textDocument: { uri } }],
  (uri) => ["textDocument/foldingRange", { textDocument: { uri } }],
  (uri) => ["textDocument/semanticTokens/full", { textDocument: { uri } }],
  (uri) => ["textDocument/codeLens", { textDocument: { uri } }],
  (uri) => ["textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }],
  (uri) => ["textDocument/inlayHint", { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } } }],
  (uri) => ["textDocument/codeAction", { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } }, context: { diagnostics: [] } }],
];

/** One notification's changes, and the text they leave. */
type EditStep = (text: string, random: () => number) => { changes: TextDocumentContentChangeEvent[]; text: string };

const randomEdits: EditStep = (text, random) => {
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
  return { changes, text };
};

const SUPPRESSIONS = [
  "# wfkit-ignore dead-end: kept for the soak\n",
  "# wfkit-ignore unknown-field, dead-end\n",
  "# wfkit-ignore cycle, constructor: neither can be suppressed\n",
  "# wfkit-ignore\n",
  "  # wfkit-ignore dead-end: trailing\n",
];

/** Random edits, and one time in eight a suppression typed at the start of a line (or after its code). */
const editsWithSuppressions: EditStep = (text, random) => {
  if (text.length > 3_000 || random() >= 1 / 8) return randomEdits(text, random);
  const lines = new LineMap(text);
  const line = Math.floor(random() * lines.lineCount);
  const comment = SUPPRESSIONS[Math.floor(random() * SUPPRESSIONS.length)]!;
  const trailing = comment.startsWith(" ");
  const at = trailing ? lines.offsetAt({ line, character: Number.MAX_SAFE_INTEGER }) : lines.offsetAt({ line, character: 0 });
  const inserted = trailing ? comment.trimEnd() : comment;
  return { changes: [{ range: lines.rangeOf(at, at), text: inserted }], text: text.slice(0, at) + inserted + text.slice(at) };
};

interface SoakRun {
  text: string;
  version: number;
}

/** Opens `uri`, sends `edits` notifications made by `step` with requests mixed in, and checks every request was answered. */
async function soak(client: LspTestClient, uri: string, edits: number, step: EditStep): Promise<SoakRun> {
  const random = prng(7);
  let text = SAMPLE_WF;
  let version = 1;
  await client.open(uri, text, "wf", version);
  const answers: Promise<unknown>[] = [];
  for (let i = 0; i < edits; i++) {
    const next = step(text, random);
    text = next.text;
    version++;
    await client.change(uri, version, next.changes);
    if (i % 25 === 0) {
      const lines = new LineMap(text);
      const position = lines.positionAt(Math.floor(random() * (text.length + 1)));
      const [method, params] = REQUESTS[Math.floor(random() * REQUESTS.length)]!(uri, position);
      answers.push(client.request(method, params));
    }
  }
  const settled = await Promise.allSettled(answers);
  expect(settled.filter((result) => result.status === "rejected")).toEqual([]);
  return { text, version };
}

describe("soak", () => {
  it(`survives ${EDITS} random edits and ends with the CLI's diagnostics`, async () => {
    const client = await LspTestClient.start();
    const { text, version } = await soak(client, URI, EDITS, randomEdits);

    const final = await client.diagnostics(URI, version);
    const expected = analyzeSource(text, "wf").faults.map((fault) => ({ code: fault.code, severity: fault.severity === "error" ? 1 : 2, range: fault.range, message: fault.message }));
    const actual = final.diagnostics.map((d) => ({ code: d.code, severity: d.severity, range: d.range, message: d.message }));
    expect(actual, `final text: ${JSON.stringify(text)}`).toEqual(expected);
    expect(client.stderr).toBe("");
    expect(await client.stop()).toBe(0);
  });

  it(`under a config with comments and severity settings, and suppressions typed in, ends with the built CLI's verdict`, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "wfkit-soak-"));
    try {
      writeFileSync(
        path.join(dir, "wfkit.config.json"),
        '{\n  // as the docs show it: comments and a trailing comma\n  "severity": { "dead-end": "error", "unknown-field": "off", "suppression-without-reason": "off", },\n}\n',
      );
      const uri = pathToFileURL(path.join(dir, "soak.wf")).href;
      const client = await LspTestClient.start({ rootUri: pathToFileURL(dir).href });
      const { text, version } = await soak(client, uri, Math.ceil(EDITS / 4), editsWithSuppressions);
      expect(text).toContain("wfkit-ignore");

      const final = await client.diagnostics(uri, version);
      const cli = spawnSync(process.execPath, [CLI_BIN, "check", "-", "--stdin-filename", "soak.wf", "--format", "json"], { cwd: dir, input: text, encoding: "utf8", timeout: 60_000 });
      expect([0, 1], cli.stderr).toContain(cli.status);
      const report = JSON.parse(cli.stdout) as { files: { faults: { code: string; severity: string; message: string; range: { start: { line: number; column: number }; end: { line: number; column: number } } }[] }[] };
      const zeroBased = (place: { line: number; column: number }) => ({ line: place.line - 1, character: place.column - 1 });
      const expected = report.files[0]!.faults.map((fault) => ({ code: fault.code, severity: fault.severity === "error" ? 1 : 2, range: { start: zeroBased(fault.range.start), end: zeroBased(fault.range.end) }, message: fault.message }));
      const actual = final.diagnostics.map((d) => ({ code: d.code, severity: d.severity, range: d.range, message: d.message }));
      expect(actual, `final text: ${JSON.stringify(text)}`).toEqual(expected);
      // The policy was in play: the verdict is not the bare analysis's.
      const bare = analyzeSource(text, "wf").faults.map((fault) => [fault.code, fault.severity]);
      expect(actual.map((d) => [d.code, d.severity === 1 ? "error" : "warning"])).not.toEqual(bare);
      expect(client.stderr).toBe("");
      expect(await client.stop()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
