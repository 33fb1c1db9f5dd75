/**
 * `wfkit/graph`, the editor preview's request, over real JSON-RPC on stdio against the built
 * server: the drawing of the current version with its faults, and each node's declaration.
 */
import { afterEach, describe, expect, it } from "vitest";
import { LspTestClient } from "../../../../test/support/lsp-client.js";
import { VALID_WF, positionOf, textOf } from "../support/fixtures.js";

let client: LspTestClient | undefined;

afterEach(() => {
  client?.kill();
  client = undefined;
});

interface GraphNodeResult {
  key: string;
  id: string;
  kind: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } } | null;
  selectionRange: { start: { line: number; character: number }; end: { line: number; character: number } } | null;
  errors: number;
  warnings: number;
}
type GraphResult = { version: number; svg: string; nodes: GraphNodeResult[] } | { error: string };

describe("wfkit/graph", () => {
  it("draws the document as it is now, faults on the graph, with every node's declaration", async () => {
    client = await LspTestClient.start();
    const uri = "file:///work/picture.wf";
    await client.open(uri, VALID_WF);
    const first = (await client.request<GraphResult>("wfkit/graph", { uri })) as Exclude<GraphResult, { error: string }>;
    expect(first.version).toBe(1);
    expect(first.svg.startsWith("<?xml")).toBe(true);
    expect(first.nodes.map((node) => [node.key, node.id, node.kind])).toEqual([
      ["n0", "start", "trigger"],
      ["n1", "compare", "part"],
      ["n2", "report", "part"],
      ["n3", "floor", "gate"],
      ["n4", "inbox", "destination"],
    ]);
    for (const node of first.nodes) {
      expect(textOf(VALID_WF, node.selectionRange!), node.id).toBe(node.id);
      expect(textOf(VALID_WF, node.range!), node.id).toContain(node.id);
      expect(first.svg).toContain(`<g id="wf-${node.key}" class="node`);
    }
    expect(first.svg).not.toContain("wf&#45;fault");

    // A typo in a part id: the next version's drawing shows the fault on that node.
    const at = positionOf(VALID_WF, "pack@1");
    await client.change(uri, 2, [{ range: { start: at, end: { line: at.line, character: at.character + 4 } }, text: "pakc" }]);
    const second = (await client.request<GraphResult>("wfkit/graph", { uri })) as Exclude<GraphResult, { error: string }>;
    expect(second.version).toBe(2);
    expect(second.nodes.find((node) => node.id === "report")).toMatchObject({ errors: 1, warnings: 0 });
    expect(second.svg).toMatch(/<g id="wf-n2" class="node wf&#45;node wf&#45;part wf&#45;fault wf&#45;error">\n<title>report\npakc@1\nerror part-unknown: /);
    expect(await client.stop()).toBe(0);
  }, 60_000);

  it("answers an error for a document that is not open", async () => {
    client = await LspTestClient.start();
    expect(await client.request<GraphResult>("wfkit/graph", { uri: "file:///work/closed.wf" })).toEqual({ error: "The document is not open in the language server." });
    expect(await client.stop()).toBe(0);
  }, 60_000);
});
