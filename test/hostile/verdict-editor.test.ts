// The verdict classes of verdict.test.ts, judged by the editor's language service: it must
// report exactly what `wfkit check --format json` reports (code, severity and place) for bodies
// that mix the two forms, subjects pinned by a name, and the shapes that once cascaded into many
// faults. Both in-process: the language service as the server runs it, the CLI's `main` on a
// captured terminal. The end-to-end agreement (a real VS Code's Problems panel against the
// built CLI) is test/vscode/real-vscode.test.ts's; verdict.test.ts runs these classes through
// the built CLI.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../packages/cli/src/main.js";
import { createLanguageService } from "../../packages/language-server/src/index.js";
import { captureIo } from "../support/captured-io.js";

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
  const service = createLanguageService({});
  beforeAll(() => {
    // One directory for the whole file.
    dir = mkdtempSync(path.join(os.tmpdir(), "wfkit-verdict-editor-"));
    mkdirSync(path.join(dir, "flows"));
    for (const [name, text] of CASES) writeFileSync(path.join(dir, "flows", name), text);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(CASES)("%s", async (name, text) => {
    const io = captureIo(path.join(dir, "flows"));
    const status = await main(["check", name, "--format", "json"], io);
    expect([0, 1], io.err()).toContain(status);
    const report = JSON.parse(io.out()) as { files: { faults: { code: string; severity: string; range: { start: { line: number; column: number } } }[] }[] };
    expect(report.files).toHaveLength(1);
    const cli = report.files[0]!.faults;
    expect(cli.length).toBeGreaterThan(0);
    const expected = cli.map((fault): Place => [fault.code, fault.severity, fault.range.start.line - 1, fault.range.start.column - 1]).sort(byPlace);
    const uri = pathToFileURL(path.join(dir, "flows", name)).href;
    const document = service.createDocument({ uri, language: name.endsWith(".wf") ? "wf" : "json", version: 1, text });
    const editor = service.doValidation(document).map((d): Place => [d.code, d.severity, d.range.start.line, d.range.start.character]).sort(byPlace);
    expect(editor).toEqual(expected);
  });
});
