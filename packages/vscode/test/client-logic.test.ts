import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SemanticTokenTypes } from "vscode-languageserver-protocol";
import { languageOf } from "../../language-server/src/server/server.js";
import { SEMANTIC_TOKEN_TYPES } from "../../language-server/src/service/types.js";
import {
  COMMANDS,
  REQUESTS,
  compileToJson,
  decompileJson,
  documentSelector,
  estimateDetail,
  estimateRows,
  estimateSummary,
  executeCommandMiddleware,
  initializationOptions,
  showEstimate,
  type ActiveDocument,
  type EditorHost,
} from "../src/client-logic.js";

/** A recording stand-in for VS Code and the language client. */
function fakeHost(document: ActiveDocument | undefined, responses: Record<string, unknown>, pick?: number) {
  const calls = {
    requests: [] as { method: string; params: unknown }[],
    opened: [] as { content: string; language: string }[],
    info: [] as string[],
    errors: [] as string[],
    lists: [] as { title: string; rows: string[]; placeholder: string | undefined }[],
    revealed: [] as { uri: string; nodeId: string }[],
  };
  const host: EditorHost = {
    activeDocument: () => document,
    openUntitled: async (content, language) => void calls.opened.push({ content, language }),
    showInformation: (message, detail) => void calls.info.push(detail ? `${message}\n${detail}` : message),
    showError: (message) => void calls.errors.push(message),
    showList: async (title, rows, placeholder) => {
      calls.lists.push({ title, rows: rows.map((row) => row.label), placeholder });
      return pick;
    },
    revealNode: async (uri, nodeId) => void calls.revealed.push({ uri, nodeId }),
    sendRequest: async <R>(method: string, params: unknown) => {
      calls.requests.push({ method, params });
      return responses[method] as R;
    },
  };
  return { host, calls };
}

const wfDocument: ActiveDocument = { uri: "file:///w/a.wf", languageId: "wf", fileName: "/w/a.wf", text: "trigger start on_demand\n" };
const jsonDocument: ActiveDocument = { uri: "file:///w/a.workflow.json", languageId: "json", fileName: "/w/a.workflow.json", text: '{"schemaVersion":1,"nodes":[],"edges":[]}' };

describe("Compile to JSON", () => {
  it("asks the server for the document's JSON and opens it in a new JSON editor", async () => {
    const { host, calls } = fakeHost(wfDocument, { [REQUESTS.compile]: { json: '{\n  "schemaVersion": 1\n}\n', ok: true } });
    await compileToJson(host);
    expect(calls.requests).toEqual([{ method: "wfkit/compile", params: { uri: "file:///w/a.wf" } }]);
    expect(calls.opened).toEqual([{ content: '{\n  "schemaVersion": 1\n}\n', language: "json" }]);
    expect(calls.errors).toEqual([]);
  });

  it("opens the JSON but warns when the workflow has errors", async () => {
    const { host, calls } = fakeHost(wfDocument, { [REQUESTS.compile]: { json: "{}", ok: false } });
    await compileToJson(host);
    expect(calls.opened).toHaveLength(1);
    expect(calls.info[0]).toMatch(/has errors/);
  });

  it("refuses a document that is not .wf, without asking the server", async () => {
    const { host, calls } = fakeHost(jsonDocument, {});
    await compileToJson(host);
    expect(calls.requests).toEqual([]);
    expect(calls.errors[0]).toMatch(/\.wf file/);
  });

  it("reports the server's error", async () => {
    const { host, calls } = fakeHost(wfDocument, { [REQUESTS.compile]: { error: "syntax errors" } });
    await compileToJson(host);
    expect(calls.opened).toEqual([]);
    expect(calls.errors).toEqual(["Could not compile a.wf: syntax errors"]);
  });
});

describe("Decompile JSON to .wf", () => {
  it("sends the JSON text and opens the .wf result", async () => {
    const { host, calls } = fakeHost(jsonDocument, { [REQUESTS.decompile]: { text: "trigger start on_demand\n" } });
    await decompileJson(host);
    expect(calls.requests).toEqual([{ method: "wfkit/decompile", params: { text: jsonDocument.text } }]);
    expect(calls.opened).toEqual([{ content: "trigger start on_demand\n", language: "wf" }]);
  });

  it("refuses when no editor is open", async () => {
    const { host, calls } = fakeHost(undefined, {});
    await decompileJson(host);
    expect(calls.errors[0]).toMatch(/Definition JSON/);
  });
});

describe("Show estimate", () => {
  const estimate = { costMinorUnits: 240, parts: [{ nodeId: "compare", partId: "terminal.compare", costMinorUnits: 200 }, { nodeId: "report", partId: "pack", costMinorUnits: 20 }], ok: true, errors: 0 };

  it("lists each part under the total and the verdict, where it can be read (not a message's hidden detail)", async () => {
    const { host, calls } = fakeHost(wfDocument, { [REQUESTS.estimate]: estimate });
    await showEstimate(host);
    expect(calls.info).toEqual([]);
    expect(calls.lists).toEqual([
      { title: "Estimated cost: 240 minor units (valid).", rows: ["compare (terminal.compare): 200 minor units", "report (pack): 20 minor units"], placeholder: "Pick a part to go to its declaration" },
    ]);
    expect(calls.revealed).toEqual([]);
  });

  it("moves the cursor to the part picked", async () => {
    const { host, calls } = fakeHost(wfDocument, { [REQUESTS.estimate]: estimate }, 1);
    await showEstimate(host);
    expect(calls.revealed).toEqual([{ uri: "file:///w/a.wf", nodeId: "report" }]);
  });

  it("uses the uri a code lens passes rather than the active editor", async () => {
    const { host, calls } = fakeHost(undefined, { [REQUESTS.estimate]: estimate });
    await showEstimate(host, "file:///w/b.wf");
    expect(calls.requests).toEqual([{ method: "wfkit/estimate", params: { uri: "file:///w/b.wf" } }]);
  });

  it("says when the figure may be incomplete", () => {
    expect(estimateSummary({ ...estimate, ok: false, errors: 2 })).toBe("Estimated cost: 240 minor units (2 errors, so this figure may be incomplete).");
    expect(estimateDetail({ ...estimate, parts: [] })).toBe("No part in this workflow has a known cost.");
    expect(estimateRows({ ...estimate, parts: [] })).toEqual([{ label: "No part in this workflow has a known cost." }]);
    expect(estimateDetail(estimate)).toBe("compare (terminal.compare): 200 minor units\nreport (pack): 20 minor units");
  });

  it("reports a missing document", async () => {
    const { host, calls } = fakeHost(undefined, {});
    await showEstimate(host);
    expect(calls.requests).toEqual([]);
    expect(calls.errors).toHaveLength(1);
  });
});

describe("client options", () => {
  it("sends the server .wf and every JSON document, so that it checks the JSON the docs say (it decides from the content)", () => {
    const selector = documentSelector();
    const selected = (languageId: string, uri: string) => selector.some((filter) => filter.language === languageId && (!filter.scheme || uri.startsWith(`${filter.scheme}:`)) && !filter.pattern);
    const documents = [
      { languageId: "wf", uri: "file:///w/a.wf", text: "trigger t on_demand", checked: "wf" },
      { languageId: "wf", uri: "untitled:Untitled-1", text: "", checked: "wf" },
      { languageId: "json", uri: "file:///w/a.workflow.json", text: "{}", checked: "json" },
      { languageId: "json", uri: "file:///w/definition.json", text: '{\n  "schemaVersion": 1, "nodes": []\n}', checked: "json" },
      { languageId: "jsonc", uri: "file:///w/save.json", text: '{"scope": {"graph": {}}}', checked: "json" },
      { languageId: "json", uri: "untitled:Untitled-2", text: '{"schemaVersion": 1}', checked: "json" },
      { languageId: "json", uri: "file:///w/package.json", text: '{"name": "x", "version": "1.0.0"}', checked: undefined },
      { languageId: "jsonc", uri: "file:///w/tsconfig.json", text: '{"compilerOptions": {}}', checked: undefined },
    ];
    for (const document of documents) {
      expect(selected(document.languageId, document.uri), document.uri).toBe(true);
      expect(languageOf(document.languageId, document.uri, document.text), document.uri).toBe(document.checked);
    }
    // Not documents on disk or new ones (settings, output panes, git's views): not selected.
    expect(selected("json", "vscode-userdata:/settings.json")).toBe(false);
    expect(selected("plaintext", "file:///w/a.txt")).toBe(false);
  });

  it("routes the server's estimate command to VS Code's own list, and passes other commands on", async () => {
    const { host, calls } = fakeHost(wfDocument, { "wfkit/estimate": { costMinorUnits: 1200, parts: [], ok: true, errors: 0 } });
    const passed: unknown[][] = [];
    const middleware = executeCommandMiddleware(() => host);
    await middleware("wfkit.showEstimate", ["file:///w/lens.wf"], () => passed.push(["unexpected"]));
    expect(calls.requests).toEqual([{ method: "wfkit/estimate", params: { uri: "file:///w/lens.wf" } }]);
    expect(calls.lists).toEqual([{ title: "Estimated cost: 1,200 minor units (valid).", rows: ["No part in this workflow has a known cost."], placeholder: undefined }]);
    await middleware("other.command", [1], (command, args) => passed.push([command, args]));
    expect(passed).toEqual([["other.command", [1]]]);
  });

  it("declares every semantic token type the server uses that is not one of LSP's, with a fallback scope from the grammar", async () => {
    const manifest = (await import("../package.json", { with: { type: "json" } })).default as {
      contributes: { semanticTokenTypes: { id: string; superType: string }[]; semanticTokenScopes: { language: string; scopes: Record<string, string[]> }[] };
    };
    const standard = new Set<string>(Object.values(SemanticTokenTypes));
    const custom = SEMANTIC_TOKEN_TYPES.filter((type) => !standard.has(type));
    expect(manifest.contributes.semanticTokenTypes.map((type) => type.id).sort()).toEqual([...custom].sort());
    for (const type of manifest.contributes.semanticTokenTypes) expect(standard.has(type.superType), type.id).toBe(true);
    const [wf] = manifest.contributes.semanticTokenScopes;
    expect(wf!.language).toBe("wf");
    const grammar = readFileSync(new URL("../../../grammar/wf.tmLanguage.json", import.meta.url), "utf8");
    for (const type of custom) expect(Object.keys(wf!.scopes), type).toContain(type);
    for (const [selector, scopes] of Object.entries(wf!.scopes)) {
      expect(custom, selector).toContain(selector.split(".")[0]);
      for (const scope of scopes) expect(grammar, `${selector} -> ${scope}`).toContain(`"${scope}"`);
    }
  });

  it("passes the wfkit settings to the server in the shape it reads", () => {
    const settings: Record<string, unknown> = { catalogue: "cat.json", "diagnostics.debounceMs": 50, "rules.docsBaseUrl": "https://x/", "inlayHints.cost": false };
    expect(initializationOptions((key) => settings[key])).toEqual({
      settings: { catalogue: "cat.json", diagnostics: { debounceMs: 50 }, rules: { docsBaseUrl: "https://x/" }, inlayHints: { cost: false } },
    });
  });

  it("names the commands the manifest contributes", async () => {
    const manifest = (await import("../package.json", { with: { type: "json" } })).default as { contributes: { commands: { command: string }[] } };
    expect(manifest.contributes.commands.map((c) => c.command).sort()).toEqual(Object.values(COMMANDS).sort());
  });
});
