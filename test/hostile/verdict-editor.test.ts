// The verdict classes of verdict.test.ts, judged by the language server over stdio: the editor
// must report exactly what the built CLI reports (code, severity and place) for bodies that mix
// the two forms, subjects pinned by a name, and the shapes that once cascaded into many faults.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspTestClient } from "../../packages/language-server/test/support/lsp-client.js";
import { checkFile, ensureBuilt } from "./support.js";

type Json = Record<string, unknown>;
const trigger = { id: "start", kind: "trigger", trigger: { kind: "on_demand" } };
const inbox = { id: "inbox", kind: "destination", destination: { kind: "standalone" } };
const gate = (id: string) => ({ id, kind: "gate", belowFloor: "hold" });
const edge = (from: unknown, to: unknown) => ({ from, to });
const profile = (canonicalId: string) => ({ id: "p", partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [{ canonicalId, kind: "company" }] } });
const graph = { schemaVersion: 1, nodes: [trigger, { id: "x", partId: "nope", partVersion: "1" }, gate("a"), gate("b"), inbox], edges: [edge("start", "x"), edge("x", "a"), edge("a", "b"), edge("b", "a"), edge("b", "inbox"), edge("x", "ghost")] };
const wired = [edge("start", "g"), edge("g", "inbox")];

const json = (value: Json) => JSON.stringify(value, null, 2);
const CASES: [name: string, text: string][] = [
  ["mixed-schema-version.json", json({ schemaVersion: 1, scope: { graph } })],
  ["mixed-nodes.json", json({ nodes: [], edges: [], scope: { graph } })],
  ["extra-scope.json", json({ schemaVersion: 1, nodes: [trigger, inbox], edges: [edge("start", "inbox")], scope: "x" })],
  ["label-as-id.json", json({ schemaVersion: 1, nodes: [trigger, profile("Tesco PLC"), inbox], edges: [edge("start", "p"), edge("p", "inbox")] })],
  ["ticker-as-id.json", json({ schemaVersion: 1, nodes: [trigger, profile("TSCO.L"), inbox], edges: [edge("start", "p"), edge("p", "inbox")] })],
  ["nodes-object.json", json({ schemaVersion: 1, nodes: { a: 1 }, edges: wired })],
  ["number-id.json", json({ schemaVersion: 1, nodes: [trigger, { ...gate("g"), id: 5 }, inbox], edges: [edge("start", "5"), edge("5", "inbox")] })],
  ["misspelt-kind.json", json({ schemaVersion: 1, nodes: [{ ...trigger, kind: "triger" }, gate("g"), inbox], edges: wired })],
  ["from-destination.wf", ["trigger start on_demand", "destination inbox standalone", "gate g hold", "destination archive standalone", "start -> inbox -> g -> archive", ""].join("\n")],
  ["ticker-subject.wf", ['subject tesco = company "TSCO.L" "Tesco PLC"', "trigger start on_demand", "part p = terminal.profile@1 { job profile.company@1 subjects [tesco] }", "destination inbox standalone", "start -> p -> inbox", ""].join("\n")],
];

type Place = [code: string, severity: string, line: number, character: number];
const byPlace = (a: Place, b: Place) => a[2] - b[2] || a[3] - b[3] || a[0].localeCompare(b[0]);

describe("the editor's verdict on the verdict classes is the CLI's", () => {
  let dir: string;
  let client: LspTestClient;
  beforeAll(async () => {
    ensureBuilt();
    // One directory for the whole file (support's tempDir is removed after each test).
    dir = mkdtempSync(path.join(os.tmpdir(), "wfkit-verdict-editor-"));
    mkdirSync(path.join(dir, "flows"));
    for (const [name, text] of CASES) writeFileSync(path.join(dir, "flows", name), text);
    client = await LspTestClient.start({ rootUri: pathToFileURL(dir).href });
  });
  afterAll(() => {
    client?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(CASES)("%s", async (name, text) => {
    const cli = checkFile(path.join(dir, "flows"), name);
    expect(cli.faults.length).toBeGreaterThan(0);
    const expected = cli.faults.map((fault): Place => [fault.code, fault.severity, fault.range.start.line - 1, fault.range.start.column - 1]).sort(byPlace);
    const uri = pathToFileURL(path.join(dir, "flows", name)).href;
    await client.open(uri, text, name.endsWith(".wf") ? "wf" : "json");
    const { diagnostics } = await client.diagnostics(uri, 1);
    const editor = diagnostics.map((d): Place => [String(d.code), d.severity === 1 ? "error" : "warning", d.range.start.line, d.range.start.character]).sort(byPlace);
    expect(editor).toEqual(expected);
  });
});
