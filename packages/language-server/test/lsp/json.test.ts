/** Definition JSON documents: diagnostics (placed on the JSON text) and hover, over stdio. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hover } from "vscode-languageserver-protocol";
import { LspTestClient } from "../../../../test/support/lsp-client.js";
import { positionOf, textOf } from "../support/fixtures.js";

const DEFINITION = `{
  "schemaVersion": 1,
  "nodes": [
    { "id": "start", "kind": "trigger", "trigger": { "kind": "on_demand" } },
    { "id": "report", "partId": "pakc", "partVersion": "1" },
    { "id": "inbox", "kind": "destination", "destination": { "kind": "standalone" } }
  ],
  "edges": [
    { "from": "start", "to": "report" },
    { "from": "report", "to": "inbox" },
    { "from": "report", "to": "inbox" }
  ]
}
`;

let client: LspTestClient;
beforeAll(async () => {
  client = await LspTestClient.start();
});
afterAll(async () => {
  await client.stop();
});

describe("Definition JSON", () => {
  it("reports the checker's faults at their place in the JSON, with related places", async () => {
    const uri = "file:///work/grocers.workflow.json";
    await client.open(uri, DEFINITION, "json");
    const { diagnostics } = await client.diagnostics(uri, 1);
    const byCode = new Map(diagnostics.map((d) => [d.code, d]));
    expect(textOf(DEFINITION, byCode.get("part-unknown")!.range)).toBe('"pakc"');
    const duplicate = byCode.get("edge-duplicate")!;
    expect(duplicate.range.start.line).toBe(10);
    expect(duplicate.relatedInformation).toEqual([{ location: { uri, range: expect.objectContaining({ start: expect.objectContaining({ line: 9 }) }) }, message: "the same edge first appears here" }]);
  });

  it("reports JSON syntax errors", async () => {
    const uri = "file:///work/broken.workflow.json";
    await client.open(uri, '{ "schemaVersion": 1, "nodes": [ }', "json");
    const { diagnostics } = await client.diagnostics(uri, 1);
    expect(diagnostics.map((d) => d.code)).toContain("json-syntax");
  });

  it("hovers parts and nodes", async () => {
    const uri = "file:///work/hover.workflow.json";
    const text = DEFINITION.replace('"pakc"', '"pack"');
    await client.open(uri, text, "json");
    await client.diagnostics(uri, 1);
    const part = await client.request<Hover>("textDocument/hover", { textDocument: { uri }, position: positionOf(text, '"pack"', 0, 2) });
    expect((part.contents as { value: string }).value).toContain("**Report pack** `pack`");
    const node = await client.request<Hover>("textDocument/hover", { textDocument: { uri }, position: positionOf(text, '"to": "inbox"', 0, 8) });
    expect((node.contents as { value: string }).value).toContain("**destination** `inbox`");
    expect((node.contents as { value: string }).value).toContain("- inputs: `report`\n");
  });

  it("leaves JSON files that are not definitions alone", async () => {
    const uri = "file:///work/package.json";
    await client.open(uri, '{ "name": "x" }', "json");
    const hover = await client.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position: { line: 0, character: 4 } });
    expect(hover).toBeNull();
    // A definition sniffed by its content is handled even without the .workflow.json name.
    const other = "file:///work/other.json";
    await client.open(other, '{ "schemaVersion": 1, "nodes": [], "edges": [] }', "json");
    expect((await client.diagnostics(other, 1)).diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(["trigger-missing", "destination-missing"]));
    expect(client.published.some((p) => p.uri === uri)).toBe(false);
  });
});
