/**
 * Consumer Signals alert and view JSON in the editor, over stdio: the body rules' diagnostics
 * placed on the text, completion of the enumerations (conditions fitting the alert's type),
 * and hover on fields.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompletionList, Hover } from "vscode-languageserver-protocol";
import { ALERT_TYPES, CONDITIONS_BY_TYPE, GEOGRAPHIES } from "@wfkit/core";
import { LspTestClient } from "../../../../test/support/lsp-client.js";
import { positionOf, textOf } from "../support/fixtures.js";

const ALERT = `{
  "name": "CPIX jumps",
  "type": "cpix_change",
  "condition": "above",
  "geography": "",
  "email": "analyst@example.com",
  "whatsapp_number": "07700 900123"
}
`;

let client: LspTestClient;
beforeAll(async () => {
  client = await LspTestClient.start();
});
afterAll(async () => {
  await client.stop();
});

const completionAt = async (uri: string, text: string, needle: string, offset: number) => {
  const list = await client.request<CompletionList | null>("textDocument/completion", { textDocument: { uri }, position: positionOf(text, needle, 0, offset) });
  return (list?.items ?? []).map((item) => item.label).sort();
};

describe("alert JSON in the editor", () => {
  const uri = "file:///work/cpix.alert.json";

  it("reports the body rules' faults at their place", async () => {
    await client.open(uri, ALERT, "json");
    const { diagnostics } = await client.diagnostics(uri, 1);
    const byCode = new Map(diagnostics.map((d) => [d.code, d]));
    expect([...byCode.keys()].sort()).toEqual(["alert-condition-mismatch", "alert-geography", "alert-threshold-missing", "alert-whatsapp-number"]);
    expect(textOf(ALERT, byCode.get("alert-condition-mismatch")!.range)).toBe('"above"');
    expect(textOf(ALERT, byCode.get("alert-whatsapp-number")!.range)).toBe('"07700 900123"');
    expect(byCode.get("alert-condition-mismatch")!.message).toContain("`rises_by` or `falls_by`");
  });

  it("completes the type, the conditions of the type, the geography and field names", async () => {
    expect(await completionAt(uri, ALERT, '"cpix_change"', 1)).toEqual([...ALERT_TYPES].sort());
    expect(await completionAt(uri, ALERT, '"above"', 1)).toEqual([...CONDITIONS_BY_TYPE.cpix_change].sort());
    expect(await completionAt(uri, ALERT, '"geography": ""', 14)).toEqual([...GEOGRAPHIES].sort());
    expect(await completionAt(uri, ALERT, '"email"', 1)).toContain("min_consecutive");
  });

  it("hovers a field with what it is for", async () => {
    const hover = await client.request<Hover>("textDocument/hover", { textDocument: { uri }, position: positionOf(ALERT, '"type"', 0, 2) });
    const text = (hover.contents as { value: string }).value;
    expect(text).toContain("**type** (string, required)");
    expect(text).toContain("`rises_by` or `falls_by` and needs `threshold`");
  });

  it("judges a JSON file whose $schema names the view schema as a view", async () => {
    const viewUri = "file:///work/housing.json";
    const view = `{ "$schema": "https://wfkit.dev/schema/view.schema.json", "name": "US housing", "geography": "US", "driver_ids": [] }\n`;
    await client.open(viewUri, view, "json");
    const { diagnostics } = await client.diagnostics(viewUri, 1);
    expect(diagnostics.map((d) => d.code)).toEqual(["view-field-missing"]);
  });
});
