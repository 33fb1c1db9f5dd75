/**
 * Which catalogue a document is checked against, over the protocol: the `wfkit.catalogue`
 * setting, else the nearest wfkit.config.json, else the sample; reloaded when a watched
 * file or the settings change.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { FileChangeType } from "vscode-languageserver-protocol";
import { LspTestClient } from "../../../../test/support/lsp-client.js";

const USES_CUSTOM_PART = "trigger start on_demand\npart step = custom.step@1\ndestination inbox standalone\nstart -> step -> inbox\n";

function catalogue(partId: string, baseMinorUnits = 7): string {
  return JSON.stringify({
    catalogueVersion: 1,
    parts: [{ partId, versions: ["1"], title: "Custom step", requires: [], produces: ["x"], unattendedSafe: true, cost: { baseMinorUnits } }],
    nodeKinds: { trigger: { produces: [] }, destination: { requires: [] } },
  });
}

function workspace(): string {
  return mkdtempSync(path.join(tmpdir(), "wfkit-lsp-"));
}

let client: LspTestClient | undefined;
afterEach(() => {
  client?.kill();
  client = undefined;
});

const codes = (diagnostics: { code?: string | number }[]) => diagnostics.map((d) => d.code);

describe("catalogue resolution", () => {
  it("uses the embedded sample catalogue by default", async () => {
    client = await LspTestClient.start();
    const uri = pathToFileURL(path.join(workspace(), "a.wf")).href;
    await client.open(uri, USES_CUSTOM_PART);
    expect(codes((await client.diagnostics(uri, 1)).diagnostics)).toEqual(["part-unknown"]);
  });

  it("uses the catalogue named by the wfkit.catalogue setting, relative to the workspace", async () => {
    const root = workspace();
    writeFileSync(path.join(root, "catalogue.json"), catalogue("custom.step"));
    client = await LspTestClient.start({ rootUri: pathToFileURL(root).href, initializationOptions: { settings: { catalogue: "catalogue.json" } } });
    const uri = pathToFileURL(path.join(root, "a.wf")).href;
    await client.open(uri, USES_CUSTOM_PART);
    expect((await client.diagnostics(uri, 1)).diagnostics).toEqual([]);
  });

  it("finds wfkit.config.json walking up from the document, and reloads when the catalogue changes", async () => {
    const root = workspace();
    mkdirSync(path.join(root, "catalogues"));
    mkdirSync(path.join(root, "flows", "team"), { recursive: true });
    writeFileSync(path.join(root, "wfkit.config.json"), JSON.stringify({ catalogue: "catalogues/main.json" }));
    const cataloguePath = path.join(root, "catalogues", "main.json");
    writeFileSync(cataloguePath, catalogue("custom.step"));
    client = await LspTestClient.start({ capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } } });
    const uri = pathToFileURL(path.join(root, "flows", "team", "a.wf")).href;
    await client.open(uri, USES_CUSTOM_PART);
    expect((await client.diagnostics(uri, 1)).diagnostics).toEqual([]);

    // The catalogue drops the part: after the watched-file event the document is re-checked.
    writeFileSync(cataloguePath, catalogue("other.step"));
    const next = client.diagnostics(uri);
    await client.connection.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(cataloguePath).href, type: FileChangeType.Changed }] });
    expect(codes((await next).diagnostics)).toEqual(["part-unknown"]);
  });

  it("switches catalogue when the settings change", async () => {
    const root = workspace();
    writeFileSync(path.join(root, "custom.json"), catalogue("custom.step"));
    client = await LspTestClient.start({ rootUri: pathToFileURL(root).href });
    const uri = pathToFileURL(path.join(root, "a.wf")).href;
    await client.open(uri, USES_CUSTOM_PART);
    expect(codes((await client.diagnostics(uri, 1)).diagnostics)).toEqual(["part-unknown"]);
    const next = client.diagnostics(uri);
    await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: { wfkit: { catalogue: "custom.json" } } });
    expect((await next).diagnostics).toEqual([]);
  });

  it("pulls settings with workspace/configuration when the client supports it", async () => {
    const root = workspace();
    writeFileSync(path.join(root, "custom.json"), catalogue("custom.step"));
    client = await LspTestClient.start({
      rootUri: pathToFileURL(root).href,
      capabilities: { workspace: { configuration: true } },
      configuration: () => ({ catalogue: "custom.json", rules: { docsBaseUrl: "https://docs.example/rules" } }),
    });
    const uri = pathToFileURL(path.join(root, "a.wf")).href;
    await client.open(uri, USES_CUSTOM_PART + "start -> step\n");
    // Wait for the check that follows the pulled settings: the part is known, the link moved.
    const { diagnostics } = await client.diagnosticsMatching(uri, (published) => !codes(published).includes("part-unknown"));
    expect(diagnostics.map((d) => [d.code, d.codeDescription?.href])).toEqual([["edge-duplicate", "https://docs.example/rules/edge-duplicate.md"]]);
  });

  it("warns, and falls back to the sample, when the configured catalogue is invalid", async () => {
    const root = workspace();
    writeFileSync(path.join(root, "wfkit.config.json"), JSON.stringify({ catalogue: "broken.json" }));
    writeFileSync(path.join(root, "broken.json"), "{ not json");
    client = await LspTestClient.start();
    const uri = pathToFileURL(path.join(root, "a.wf")).href;
    await client.open(uri, "trigger start on_demand\ndestination inbox standalone\nstart -> inbox\n");
    const { diagnostics } = await client.diagnostics(uri, 1);
    expect(diagnostics, JSON.stringify(diagnostics)).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: "catalogue-unusable", severity: 2 });
    expect(diagnostics[0]!.message).toMatch(/broken\.json.*could not be read.*sample catalogue/);
  });
});
