/**
 * Every feature, asked over the protocol of the real server process (stdio), on `.wf` text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  CodeAction,
  CodeLens,
  CompletionList,
  Diagnostic,
  DocumentHighlight,
  DocumentSymbol,
  FoldingRange,
  Hover,
  InlayHint,
  Location,
  SelectionRange,
  SemanticTokens,
  TextEdit,
  WorkspaceEdit,
} from "vscode-languageserver-protocol";
import { LspTestClient } from "../../../../test/support/lsp-client.js";
import { VALID_WF, applyTextEdits, positionOf, textOf } from "../support/fixtures.js";

let client: LspTestClient;
let version = 0;
const uri = (name: string) => `file:///work/${name}.wf`;

/** Opens a document and waits for its first diagnostics. */
async function open(name: string, text: string): Promise<Diagnostic[]> {
  version++;
  await client.open(uri(name), text, "wf", version);
  return (await client.diagnostics(uri(name), version)).diagnostics;
}

const at = (name: string, position: { line: number; character: number }) => ({ textDocument: { uri: uri(name) }, position });

beforeAll(async () => {
  client = await LspTestClient.start();
  await open("valid", VALID_WF);
});

afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

describe("completion", () => {
  const complete = async (name: string, text: string, needle: string, offset: number) => {
    await open(name, text);
    const list = await client.request<CompletionList>("textDocument/completion", at(name, positionOf(text, needle, 0, offset)));
    return list.items.sort((a, b) => (a.sortText ?? "").localeCompare(b.sortText ?? ""));
  };

  it("offers part ids with versions, requires/produces and cost", async () => {
    const text = "part p = \n";
    const items = await complete("c-parts", text, "= ", 2);
    const compare = items.find((item) => item.label === "terminal.compare")!;
    expect(compare.detail).toContain("requires nothing → produces terminal.result");
    expect(compare.detail).toContain("100 + 50 per subject");
    expect(compare.textEdit).toMatchObject({ newText: "terminal.compare@1" });
    expect(items.map((item) => item.label)).toContain("pack");
  });

  it("offers a part's versions after @, the latest first", async () => {
    const items = await complete("c-versions", "part s = terminal.screen@\n", "@", 1);
    expect(items.map((item) => item.label)).toEqual(["2", "1"]);
  });

  it("offers only the jobs the enclosing part offers", async () => {
    const text = "part s = terminal.screen@2 {\n  job \n}\n";
    const items = await complete("c-jobs", text, "job ", 4);
    expect(items.map((item) => item.label).sort()).toEqual(["screen.imports@1", "screen.signals@1"]);
  });

  it("offers declared subjects not yet listed", async () => {
    const text = 'subject a = company "cmp_tesco" "Tesco PLC"\nsubject b = company "cmp_sbry" "J Sainsbury plc"\npart c = terminal.compare@1 {\n  job compare.peers@1\n  subjects [a, ]\n}\n';
    const items = await complete("c-subjects", text, "[a, ", 4);
    expect(items.map((item) => item.label)).toEqual(["b"]);
    expect(items[0]!.detail).toBe("subject: J Sainsbury plc");
  });

  it("ranks the nodes an edge could legally reach first", async () => {
    const text = "trigger start on_demand\npart report = pack@1\npart review = review.analyst@1\ndestination inbox standalone\nreview -> \n";
    const items = await complete("c-edges", text, "review -> ", 10);
    const labels = items.map((item) => item.label);
    // `review` produces pack.report: the destination is legal; a trigger or `review` itself is not offered first.
    expect(labels[0]).toBe("inbox");
    expect(labels).not.toContain("review");
    expect(items.find((item) => item.label === "start")!.detail).toMatch(/would not be legal/);
    expect(items.find((item) => item.label === "report")!.detail).toMatch(/would not be legal/);
  });

  it("offers statement keywords at the start of a line", async () => {
    const items = await complete("c-keywords", "trigger start on_demand\n\n", "\n\n", 1);
    const labels = items.map((item) => item.label);
    for (const keyword of ["trigger", "part", "subject", "gate", "destination"]) expect(labels).toContain(keyword);
    expect(labels).toContain("start");
  });

  it("offers the allowed kinds after a trigger, gate or destination name", async () => {
    expect((await complete("c-trigger", "trigger t \n", "t ", 2)).map((i) => i.label)).toEqual(["on_demand", "scheduled"]);
    expect((await complete("c-gate", "gate g \n", "g ", 2)).map((i) => i.label)).toEqual(["hold"]);
  });
});

describe("hover", () => {
  const hover = (position: { line: number; character: number }) => client.request<Hover | null>("textDocument/hover", at("valid", position));

  it("describes a part id from the catalogue", async () => {
    const result = await hover(positionOf(VALID_WF, "terminal.compare", 0, 3));
    const value = (result!.contents as { value: string }).value;
    expect(value).toContain("**Peer comparison**");
    expect(value).toContain("- requires: nothing");
    expect(value).toContain("- produces: `terminal.result`");
    expect(value).toContain("here 200 with 2 subjects");
    expect(value).toContain("unattendedSafe: yes");
  });

  it("describes a node: kind, inputs and outputs", async () => {
    const result = await hover(positionOf(VALID_WF, "report", 1, 2));
    const value = (result!.contents as { value: string }).value;
    expect(value).toContain("**part** `report`");
    expect(value).toContain("- inputs: `compare`");
    expect(value).toContain("- outputs: `floor`");
    expect(value).toContain("- requires: `terminal.result`");
  });

  it("describes a subject: label and identifiers", async () => {
    const result = await hover(positionOf(VALID_WF, "tesco,", 0, 1));
    const value = (result!.contents as { value: string }).value;
    expect(value).toContain("**Tesco PLC** `cmp_tesco`");
    expect(value).toContain("TSCO.L");
  });
});

describe("navigation and rename", () => {
  it("goes to a node's declaration from an edge", async () => {
    const location = await client.request<Location>("textDocument/definition", at("valid", positionOf(VALID_WF, "compare ->", 0, 2)));
    expect(location.range.start).toEqual(positionOf(VALID_WF, "compare = "));
    expect(textOf(VALID_WF, location.range)).toBe("compare");
  });

  it("finds every reference of a subject, with or without its declaration", async () => {
    const from = at("valid", positionOf(VALID_WF, "sainsbury]"));
    const all = await client.request<Location[]>("textDocument/references", { ...from, context: { includeDeclaration: true } });
    expect(all.map((l) => l.range.start.line)).toEqual([4, 9]);
    const uses = await client.request<Location[]>("textDocument/references", { ...from, context: { includeDeclaration: false } });
    expect(uses.map((l) => l.range.start.line)).toEqual([9]);
  });

  it("highlights a node's declaration as a write and its uses as reads", async () => {
    const highlights = await client.request<DocumentHighlight[]>("textDocument/documentHighlight", at("valid", positionOf(VALID_WF, "floor hold")));
    expect(highlights.map((h) => [h.range.start.line, h.kind])).toEqual([
      [12, 3],
      [15, 2],
    ]);
  });

  it("prepares and performs a rename of a node everywhere", async () => {
    const position = positionOf(VALID_WF, "report ->");
    const prepared = await client.request<{ range: unknown; placeholder: string }>("textDocument/prepareRename", at("valid", position));
    expect(prepared.placeholder).toBe("report");
    const edit = await client.request<WorkspaceEdit>("textDocument/rename", { ...at("valid", position), newName: "summary pack" });
    const renamed = applyTextEdits(VALID_WF, edit.changes![uri("valid")]!);
    expect(renamed).toContain('part "summary pack" = pack@1');
    expect(renamed).toContain('compare -> "summary pack" -> floor');
  });

  it("refuses to rename a keyword, and to a name already taken", async () => {
    await expect(client.request("textDocument/prepareRename", at("valid", positionOf(VALID_WF, "trigger")))).rejects.toThrow(/node and subject names/);
    await expect(client.request("textDocument/rename", { ...at("valid", positionOf(VALID_WF, "report ->")), newName: "floor" })).rejects.toThrow(/already exists/);
  });
});

describe("outline, folding, selection", () => {
  it("lists declarations and the edges in the outline", async () => {
    const symbols = await client.request<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri: uri("valid") } });
    expect(symbols.map((s) => `${s.name}:${s.detail ?? ""}`)).toEqual([
      "grocers:",
      "tesco:Tesco PLC",
      "sainsbury:J Sainsbury plc",
      "start:on_demand",
      "compare:terminal.compare@1",
      "report:pack@1",
      "floor:hold",
      "inbox:standalone",
      "edges:1 statement",
    ]);
    expect(symbols[symbols.length - 1]!.children![0]!.name).toBe("start -> compare -> report -> floor -> inbox");
  });

  it("folds multi-line statements", async () => {
    const ranges = await client.request<FoldingRange[]>("textDocument/foldingRange", { textDocument: { uri: uri("valid") } });
    expect(ranges).toContainEqual({ startLine: 7, endLine: 10 });
  });

  it("widens a selection from a name to its statement to the file", async () => {
    const [range] = await client.request<SelectionRange[]>("textDocument/selectionRange", { textDocument: { uri: uri("valid") }, positions: [positionOf(VALID_WF, "peers")] });
    const texts: string[] = [];
    for (let current: SelectionRange | undefined = range; current; current = current.parent) texts.push(textOf(VALID_WF, current.range));
    expect(texts[0]).toBe("compare.peers");
    expect(texts).toContain("job compare.peers@1");
    expect(texts[texts.length - 1]).toBe(VALID_WF);
  });
});

describe("formatting", () => {
  it("formats the whole document with the DSL formatter", async () => {
    const messy = "trigger   start    on_demand\npart report=pack@1\ndestination inbox standalone\nstart->report ->inbox\n";
    await open("messy", messy);
    const edits = await client.request<TextEdit[]>("textDocument/formatting", { textDocument: { uri: uri("messy") }, options: { tabSize: 2, insertSpaces: true } });
    const formatted = applyTextEdits(messy, edits);
    expect(formatted).toContain("trigger start on_demand\n");
    expect(formatted).toContain("start -> report -> inbox\n");
  });
});

describe("code actions", () => {
  const actionsFor = async (name: string, text: string) => {
    const diagnostics = await open(name, text);
    const range = { start: { line: 0, character: 0 }, end: { line: text.split("\n").length, character: 0 } };
    const actions = await client.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: uri(name) }, range, context: { diagnostics } });
    return { diagnostics, actions, apply: (action: CodeAction) => applyTextEdits(text, action.edit!.changes![uri(name)]!) };
  };

  it("fixes a misspelt part id", async () => {
    const { actions, apply } = await actionsFor("a-part", "trigger start on_demand\npart report = pakc@1\ndestination inbox standalone\nstart -> report -> inbox\n");
    const fix = actions.find((a) => a.title === "Change to `pack`")!;
    expect(fix.isPreferred).toBe(true);
    expect(fix.diagnostics![0]!.code).toBe("part-unknown");
    expect(apply(fix)).toContain("part report = pack@1");
  });

  it("fixes a misspelt node name in an edge", async () => {
    const { actions, apply } = await actionsFor("a-node", "trigger start on_demand\npart report = pack@1\ndestination inbox standalone\nstart -> reprot -> inbox\n");
    const fix = actions.find((a) => a.title === "Change to `report`")!;
    expect(apply(fix)).toContain("start -> report -> inbox");
  });

  it("adds a missing destination fed by the graph's last node", async () => {
    const { actions, apply } = await actionsFor("a-destination", "trigger start on_demand\npart report = pack@1\nstart -> report\n");
    const fix = actions.find((a) => a.title.startsWith("Add destination"))!;
    const fixed = apply(fix);
    expect(fixed).toContain("destination inbox standalone\nreport -> inbox\n");
  });

  it("adds a missing trigger feeding the graph's first node", async () => {
    const { actions, apply } = await actionsFor("a-trigger", 'part p = terminal.profile@1 {\n  job profile.company@1\n  subjects [t]\n}\nsubject t = company "cmp_tesco" "Tesco PLC"\ndestination inbox standalone\np -> inbox\n');
    const fix = actions.find((a) => a.title.startsWith("Add trigger"))!;
    expect(apply(fix)).toContain("trigger start on_demand\nstart -> p\n");
  });

  it("removes a duplicate edge", async () => {
    const text = "trigger start on_demand\ndestination inbox standalone\nstart -> inbox\nstart -> inbox\n";
    const { actions, apply } = await actionsFor("a-duplicate", text);
    const fix = actions.find((a) => a.title === "Remove the duplicate edge")!;
    expect(apply(fix)).toBe("trigger start on_demand\ndestination inbox standalone\nstart -> inbox\n");
  });

  it("removes a duplicate edge from the middle of a chain, keeping the rest", async () => {
    const text = "trigger start on_demand\npart a = pack@1\ngate g hold\ndestination inbox standalone\na -> g\nstart -> a -> g -> inbox\n";
    const { actions, diagnostics, apply } = await actionsFor("a-duplicate-chain", text);
    expect(diagnostics.map((d) => d.code)).toContain("edge-duplicate");
    const fix = actions.find((a) => a.title === "Remove the duplicate edge")!;
    expect(apply(fix)).toContain("start -> a\ng -> inbox\n");
  });

  it("pins an undeclared subject from the catalogue's table", async () => {
    const { actions, apply } = await actionsFor("a-pin", "trigger start on_demand\npart p = terminal.profile@1 {\n  job profile.company@1\n  subjects [tesco]\n}\ndestination inbox standalone\nstart -> p -> inbox\n");
    const fix = actions.find((a) => a.title.includes("pinned as `cmp_tesco`"))!;
    expect(apply(fix)).toMatch(/^subject tesco = company "cmp_tesco" "Tesco PLC"\n/);
  });
});

describe("inlay hints, code lens, semantic tokens", () => {
  it("shows each part's cost after its id", async () => {
    const hints = await client.request<InlayHint[]>("textDocument/inlayHint", { textDocument: { uri: uri("valid") }, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } } });
    expect(hints.map((h) => [h.position, h.label])).toEqual([
      [positionOf(VALID_WF, "compare@1", 0, 9), "cost 200"],
      [positionOf(VALID_WF, "pack@1", 0, 6), "cost 20"],
    ]);
  });

  it("shows the estimate and the verdict in a code lens", async () => {
    const lenses = await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: uri("valid") } });
    expect(lenses).toHaveLength(1);
    expect(lenses[0]!.command).toMatchObject({ title: "estimate 220 minor units · valid", command: "wfkit.showEstimate", arguments: [uri("valid")] });
    await open("lens-errors", "part report = pack@1\n");
    const broken = await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: uri("lens-errors") } });
    expect(broken[0]!.command!.title).toMatch(/· \d+ errors$/);
  });

  it("colours node names, part ids and subjects", async () => {
    const legend = client.initializeResult.capabilities.semanticTokensProvider!.legend;
    const tokens = await client.request<SemanticTokens>("textDocument/semanticTokens/full", { textDocument: { uri: uri("valid") } });
    const decoded: { text: string; type: string }[] = [];
    let line = 0;
    let character = 0;
    const lines = VALID_WF.split("\n");
    for (let i = 0; i < tokens.data.length; i += 5) {
      const [deltaLine, deltaStart, length, type] = tokens.data.slice(i, i + 4) as [number, number, number, number];
      line += deltaLine;
      character = deltaLine ? deltaStart : character + deltaStart;
      decoded.push({ text: lines[line]!.slice(character, character + length), type: legend.tokenTypes[type]! });
    }
    expect(decoded).toContainEqual({ text: "compare", type: "node" });
    expect(decoded).toContainEqual({ text: "terminal.compare", type: "part" });
    expect(decoded).toContainEqual({ text: "sainsbury", type: "subject" });
    expect(decoded.filter((t) => t.type === "node").map((t) => t.text)).toEqual(["start", "compare", "report", "floor", "inbox", "start", "compare", "report", "floor", "inbox"]);
  });
});

describe("wfkit's own requests", () => {
  it("compiles a document to its Definition JSON", async () => {
    const result = await client.request<{ json: string; ok: boolean }>("wfkit/compile", { uri: uri("valid") });
    expect(result.ok).toBe(true);
    const definition = JSON.parse(result.json);
    expect(definition.schemaVersion).toBe(1);
    expect(definition.nodes.map((n: { id: string }) => n.id)).toEqual(["start", "compare", "report", "floor", "inbox"]);
  });

  it("estimates a document", async () => {
    const result = await client.request<{ costMinorUnits: number; ok: boolean }>("wfkit/estimate", { uri: uri("valid") });
    expect(result).toMatchObject({ costMinorUnits: 220, ok: true, errors: 0 });
  });

  it("decompiles JSON to .wf that compiles back to the same definition", async () => {
    const compiled = await client.request<{ json: string }>("wfkit/compile", { uri: uri("valid") });
    const result = await client.request<{ text: string }>("wfkit/decompile", { text: compiled.json });
    await open("roundtrip", result.text);
    const again = await client.request<{ json: string }>("wfkit/compile", { uri: uri("roundtrip") });
    expect(JSON.parse(again.json)).toEqual(JSON.parse(compiled.json));
  });
});
