// The JSON keystroke: from `textDocument/didChange` to the `publishDiagnostics` of that
// version, measured from a client process over stdio against the built language server, for a
// Definition JSON document and for the `.wf` text of the same workflow, both open in one
// server, keystrokes alternating (.wf, JSON, .wf, JSON...) so that both meet the same load;
// the ratio is taken keystroke pair by keystroke pair and its median reported. Each keystroke
// toggles one character of a part id in the middle of the document (`pack` <-> `packx`), so
// every measurement includes a real change of diagnostics.
//
// The peer: VS Code's JSON language service (vscode-json-languageservice, in this process)
// re-validating the same document against the published definition schema
// (packages/core/schema/definition.schema.json) after the same keystroke: it parses the
// text and validates it on every change, as VS Code's JSON server does. It runs in-process,
// with no transport: wfkit's figure includes two hops over stdio and a thread, its own does not.
//
// Run after `npm run build`: node bench/json-keystroke.mjs [--nodes 10000] [--keystrokes 40]
//   [--server packages/language-server/dist/server.mjs] [--debounce 0]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
// The package is UMD: Node finds only getLanguageService by name; TextDocument (which it
// re-exports from vscode-languageserver-textdocument) is on its default export.
import vscodeJson from "vscode-json-languageservice";
import { compile } from "@wfkit/dsl";
import { generate } from "../packages/language-server/bench/generate.mjs";
import { median, percentile } from "./measure.mjs";

const { getLanguageService, TextDocument } = vscodeJson;

const DEFAULT_SERVER = fileURLToPath(new URL("../packages/language-server/dist/server.mjs", import.meta.url));
const SCHEMA_PATH = new URL("../packages/core/schema/definition.schema.json", import.meta.url);

/** The `.wf` bench document of `nodes` nodes and its Definition JSON (pretty-printed, as editors write it). */
export function keystrokeDocuments(nodes) {
  const { text: wf, nodes: count } = generate(nodes);
  const compiled = compile(wf);
  if (compiled.faults.some((fault) => fault.severity === "error")) throw new Error("the bench document does not compile");
  const json = JSON.stringify(compiled.definition, null, 2) + "\n";
  const middle = `k${Math.floor((count - 2) / 4)}`;
  // `.wf`: the `@` of `part kN = pack@1`; JSON: the closing quote of `"partId": "pack"` of node kN.
  const wfLines = wf.split("\n");
  const wfLine = wfLines.findIndex((line) => line === `part ${middle} = pack@1`);
  const jsonLines = json.split("\n");
  const idLine = jsonLines.findIndex((line) => line.trim() === `"id": "${middle}",`);
  const jsonLine = idLine + 1;
  if (wfLine < 0 || idLine < 0 || !jsonLines[jsonLine].includes('"partId": "pack"')) throw new Error("the bench documents changed shape");
  return {
    nodes: count,
    wf: { text: wf, at: { line: wfLine, character: wfLines[wfLine].indexOf("@") }, lines: wfLines.length },
    json: { text: json, at: { line: jsonLine, character: jsonLines[jsonLine].lastIndexOf('"') }, lines: jsonLines.length, bytes: json.length },
  };
}

/** The change that types `x` at `at` (odd keystrokes) or deletes it again (even ones). */
function toggle(at, typing) {
  return typing
    ? { range: { start: at, end: at }, text: "x" }
    : { range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: "" };
}

/** VS Code's JSON language service with the published definition schema for `*.workflow.json`. */
function vscodeJsonService() {
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8"));
  const service = getLanguageService({ schemaRequestService: () => Promise.reject(new Error("no network")) });
  service.configure({ validate: true, allowComments: false, schemas: [{ uri: schema.$id, fileMatch: ["*.workflow.json"], schema }] });
  return service;
}

export async function benchJsonKeystroke({ nodes = 10_000, keystrokes = 40, warmup = 10, server = DEFAULT_SERVER, debounceMs = 0 } = {}) {
  const documents = keystrokeDocuments(nodes);
  const child = spawn(process.execPath, [server, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map();
  connection.onNotification("textDocument/publishDiagnostics", (params) => {
    const key = `${params.uri}@${params.version}`;
    const resolve = waiting.get(key);
    if (resolve) {
      waiting.delete(key);
      resolve({ at: performance.now(), count: params.diagnostics.length });
    }
  });
  connection.listen();
  await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { settings: { diagnostics: { debounceMs } } } });
  await connection.sendNotification("initialized", {});
  const published = (uri, version) => new Promise((resolve) => waiting.set(`${uri}@${version}`, resolve));

  const docs = {
    wf: { uri: "file:///bench/keystroke.wf", languageId: "wf", version: 1, ...documents.wf },
    json: { uri: "file:///bench/keystroke.workflow.json", languageId: "json", version: 1, ...documents.json },
  };
  const openMs = {};
  for (const [name, doc] of Object.entries(docs)) {
    const done = published(doc.uri, 1);
    const start = performance.now();
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: doc.uri, languageId: doc.languageId, version: 1, text: doc.text } });
    openMs[name] = (await done).at - start;
  }

  /** One keystroke to the server: its latency, and a check that the diagnostics followed it. */
  const type = async (doc, index) => {
    doc.version++;
    const typing = index % 2 === 0;
    const done = published(doc.uri, doc.version);
    const start = performance.now();
    await connection.sendNotification("textDocument/didChange", { textDocument: { uri: doc.uri, version: doc.version }, contentChanges: [toggle(doc.at, typing)] });
    const result = await done;
    if ((result.count > 0) !== typing) throw new Error(`${doc.uri}: unexpected diagnostics at version ${doc.version}: ${result.count}`);
    return result.at - start;
  };

  // The peer, on the same JSON text, keystroke for keystroke.
  const vscode = vscodeJsonService();
  let peerDoc = TextDocument.create("file:///bench/keystroke.workflow.json", "json", 1, documents.json.text);
  const peerType = async (index) => {
    const typing = index % 2 === 0;
    const start = performance.now();
    peerDoc = TextDocument.update(peerDoc, [toggle(documents.json.at, typing)], peerDoc.version + 1);
    const diagnostics = await vscode.doValidation(peerDoc, vscode.parseJSONDocument(peerDoc));
    const elapsed = performance.now() - start;
    // The schema cannot know the catalogue: `packx` is valid to it, so no count is checked.
    void diagnostics;
    return elapsed;
  };
  const peerOpenStart = performance.now();
  await vscode.doValidation(peerDoc, vscode.parseJSONDocument(peerDoc));
  const peerOpenMs = performance.now() - peerOpenStart;

  const wfMs = [];
  const jsonMs = [];
  const peerMs = [];
  for (let i = 0; i < warmup + keystrokes; i++) {
    // Each round starts with another of the three, so none always follows the same one.
    const order = [0, 1, 2].map((k) => (k + i) % 3);
    const round = [];
    for (const which of order) round[which] = which === 0 ? await type(docs.wf, i) : which === 1 ? await type(docs.json, i) : await peerType(i);
    if (i < warmup) continue;
    wfMs.push(round[0]);
    jsonMs.push(round[1]);
    peerMs.push(round[2]);
  }
  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  connection.dispose();

  const stats = (values) => ({ medianMs: median(values), p95Ms: percentile(values, 95) });
  return {
    nodes: documents.nodes,
    jsonBytes: documents.json.bytes,
    keystrokes,
    debounceCapMs: debounceMs,
    openMs: { wf: openMs.wf, json: openMs.json, vscodeJson: peerOpenMs },
    wf: stats(wfMs),
    json: stats(jsonMs),
    vscodeJson: stats(peerMs),
    jsonVsWf: median(jsonMs.map((ms, i) => ms / wfMs[i])),
    jsonVsVscodeJson: median(jsonMs.map((ms, i) => ms / peerMs[i])),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const result = await benchJsonKeystroke({
    nodes: Number(option("nodes", 10_000)),
    keystrokes: Number(option("keystrokes", 40)),
    warmup: Number(option("warmup", 10)),
    server: option("server", DEFAULT_SERVER),
    debounceMs: Number(option("debounce", 0)),
  });
  console.log(JSON.stringify(result, null, 2));
}
