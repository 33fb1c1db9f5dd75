/**
 * A big document must not block the connection: its check runs on the checker thread, so a
 * request about another document is answered while the big one is still being checked.
 * (An ordering assertion, not a timing one.)
 */
import { describe, expect, it } from "vitest";
import type { DocumentSymbol } from "vscode-languageserver-protocol";
import { LspTestClient } from "../../../../test/support/lsp-client.js";
import { VALID_WF } from "../support/fixtures.js";

/** A valid workflow of about `nodes` nodes. */
function bigWorkflow(nodes: number): string {
  const lines = ['subject tesco = company "cmp_tesco" "Tesco PLC"', "trigger start on_demand", "destination inbox standalone"];
  for (let i = 0; i < nodes / 2; i++) lines.push(`part p${i} = terminal.profile@1 {`, "  job profile.company@1", "  subjects [tesco]", "}", `part k${i} = pack@1`, `start -> p${i} -> k${i} -> inbox`);
  return lines.join("\n") + "\n";
}

describe("responsiveness", () => {
  it("answers requests about a small document while a 10,000-node one is being checked", async () => {
    const client = await LspTestClient.start();
    const small = "file:///work/small.wf";
    const big = "file:///work/big.wf";
    await client.open(small, VALID_WF);
    await client.diagnostics(small, 1);
    // Parse the small document on the main thread first, so the request below is cheap.
    await client.request("textDocument/documentSymbol", { textDocument: { uri: small } });

    const events: string[] = [];
    const bigChecked = client.diagnostics(big, 1).then((published) => {
      events.push("big document checked");
      return published;
    });
    await client.open(big, bigWorkflow(10_000));
    const symbols = await client.request<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri: small } });
    events.push("small document answered");
    expect(symbols.length).toBeGreaterThan(0);
    expect((await bigChecked).diagnostics).toEqual([]);
    expect(events).toEqual(["small document answered", "big document checked"]);
    expect(await client.stop()).toBe(0);
  });
});
