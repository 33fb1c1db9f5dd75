// The first open in an editor: how long the first diagnostics of a 50-node workflow take from a
// fresh language server, against VS Code's JSON language service starting cold on the same
// definition as JSON.
//
// wfkit: a fresh `node server.mjs --stdio` (the built language server); the client sends
// `initialize` as soon as the process is spawned, then `initialized` and `textDocument/didOpen`
// as soon as it is answered (as an editor does); the figure is from sending `didOpen` to
// receiving that version's `publishDiagnostics`. Both the `.wf` text and the same definition as
// `*.workflow.json` are timed, each in its own fresh server.
//
// The peer: a fresh `node` process that loads vscode-json-languageservice, gives it the
// published definition schema (packages/core/schema/definition.schema.json) for
// `*.workflow.json`, parses the JSON and validates it, timed inside that process. Its figure
// for the goal is its first validation, from once its code is loaded (the service made, the
// schema given, the text parsed and validated, all cold) to the diagnostics: as wfkit's figure
// starts once its server has loaded and answered `initialize`. Neither includes Node's own
// start-up; wfkit's includes two hops over stdio and, while its checker thread is still
// starting, whatever the server does about that. Beside them: the peer from its script's
// first line (loading its code included), and the whole wait from spawning each process to
// its first diagnostics (wfkit: its start-up, `initialize` and the open; the peer: Node's
// start-up, loading and validating), also paired.
//
// Pairs: a wfkit process and a peer process back to back, alternating which goes first, one
// unmeasured warm-up pair; the ratio is taken pair by pair and its median reported.
// Run after `npm run build`: node bench/lsp-first-open.mjs [pairs] [--server path/to/server.mjs]
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
import { compile } from "../packages/dsl/dist/index.js";
import { generate } from "../packages/language-server/bench/generate.mjs";
import { median } from "./measure.mjs";

const DEFAULT_SERVER = fileURLToPath(new URL("../packages/language-server/dist/server.mjs", import.meta.url));
const SCHEMA = fileURLToPath(new URL("../packages/core/schema/definition.schema.json", import.meta.url));
const tmp = fileURLToPath(new URL("./.tmp/lsp-first-open/", import.meta.url));

/** The first diagnostics of a 50-node file: at most this many times the peer's cold start (issue 32). */
export const FIRST_OPEN_GOAL = 1.0;

// The peer's process: everything from loading the service to the diagnostics, timed inside it.
const PEER = `
const started = performance.now();
const { readFileSync } = require("node:fs");
const { getLanguageService } = require("vscode-json-languageservice");
const { TextDocument } = require("vscode-languageserver-textdocument");
const loaded = performance.now();
const [schemaFile, jsonFile] = process.argv.slice(1);
const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
const service = getLanguageService({ schemaRequestService: () => Promise.reject(new Error("no network")) });
service.configure({ validate: true, allowComments: false, schemas: [{ uri: schema.$id, fileMatch: ["*.workflow.json"], schema }] });
const document = TextDocument.create("file:///bench/first.workflow.json", "json", 1, readFileSync(jsonFile, "utf8"));
service.doValidation(document, service.parseJSONDocument(document)).then((diagnostics) => {
  const done = performance.now();
  process.stdout.write(JSON.stringify({ firstValidationMs: done - loaded, withLoadMs: done - started, diagnostics: diagnostics.length }) + "\\n");
});
`;

/** The bench's `.wf` document of `nodes` nodes and its definition as pretty JSON. */
function documents(nodes) {
  const { text: wf, nodes: count } = generate(nodes);
  const compiled = compile(wf);
  if (compiled.faults.some((fault) => fault.severity === "error")) throw new Error("the bench document does not compile");
  return { nodes: count, wf, json: JSON.stringify(compiled.definition, null, 2) + "\n" };
}

/** One fresh server: initialize at once, then open `text`; ms from didOpen to its diagnostics, and from the spawn. */
async function firstDiagnostics(server, uri, languageId, text) {
  const spawned = performance.now();
  const child = spawn(process.execPath, [server, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  let resolvePublished;
  const published = new Promise((resolve) => (resolvePublished = resolve));
  connection.onNotification("textDocument/publishDiagnostics", (params) => {
    if (params.uri === uri && params.version === 1) resolvePublished({ at: performance.now(), count: params.diagnostics.length });
  });
  connection.listen();
  try {
    await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
    await connection.sendNotification("initialized", {});
    const start = performance.now();
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
    const { at, count } = await published;
    return { ms: at - start, fromSpawnMs: at - spawned, diagnostics: count };
  } finally {
    await connection.sendRequest("shutdown").catch(() => undefined);
    await connection.sendNotification("exit").catch(() => undefined);
    connection.dispose();
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
  }
}

/** One fresh peer process: its own figure, and the ms from the spawn to its answer. */
function peerColdStart(jsonFile) {
  return new Promise((resolve, reject) => {
    const spawned = performance.now();
    const child = spawn(process.execPath, ["-e", PEER, SCHEMA, jsonFile], { cwd: fileURLToPath(new URL("..", import.meta.url)), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let answered;
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (answered === undefined && out.includes("\n")) answered = performance.now();
    });
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0 || answered === undefined) return reject(new Error(`the JSON language service's process failed (${code}): ${err}`));
      resolve({ ...JSON.parse(out), fromSpawnMs: answered - spawned });
    });
  });
}

/**
 * Rows per document kind (`.wf`, `.workflow.json`): median ms of wfkit's first diagnostics and of
 * the peer's first validation, and the median pair-by-pair ratio (the goal's figure); the peer
 * with its load; and both from each process's spawn.
 */
export async function benchLspFirstOpen({ nodes = 50, pairs = 9, server = DEFAULT_SERVER } = {}) {
  const docs = documents(nodes);
  mkdirSync(tmp, { recursive: true });
  const jsonFile = `${tmp}first.workflow.json`;
  writeFileSync(jsonFile, docs.json);
  const kinds = [
    { document: ".wf", uri: "file:///bench/first.wf", languageId: "wf", text: docs.wf },
    { document: ".workflow.json", uri: "file:///bench/first.workflow.json", languageId: "json", text: docs.json },
  ];
  const rows = [];
  try {
    for (const kind of kinds) {
      const measureWfkit = () => firstDiagnostics(server, kind.uri, kind.languageId, kind.text);
      await measureWfkit();
      await peerColdStart(jsonFile);
      const ours = [];
      const theirs = [];
      for (let i = 0; i < pairs; i++) {
        if (i % 2 === 0) {
          ours.push(await measureWfkit());
          theirs.push(await peerColdStart(jsonFile));
        } else {
          theirs.push(await peerColdStart(jsonFile));
          ours.push(await measureWfkit());
        }
      }
      const ratio = (ourKey, theirKey) => median(ours.map((wfkit, i) => wfkit[ourKey] / theirs[i][theirKey]));
      rows.push({
        document: kind.document,
        nodes: docs.nodes,
        pairs,
        wfkitFirstDiagnosticsMs: median(ours.map((run) => run.ms)),
        jsonServiceFirstValidationMs: median(theirs.map((run) => run.firstValidationMs)),
        ratio: ratio("ms", "firstValidationMs"),
        jsonServiceWithLoadMs: median(theirs.map((run) => run.withLoadMs)),
        ratioToPeerWithLoad: ratio("ms", "withLoadMs"),
        wfkitFromSpawnMs: median(ours.map((run) => run.fromSpawnMs)),
        jsonServiceFromSpawnMs: median(theirs.map((run) => run.fromSpawnMs)),
        fromSpawnRatio: ratio("fromSpawnMs", "fromSpawnMs"),
      });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { goal: FIRST_OPEN_GOAL, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const serverAt = args.indexOf("--server");
  const server = serverAt >= 0 ? args.splice(serverAt, 2)[1] : DEFAULT_SERVER;
  console.log(JSON.stringify(await benchLspFirstOpen({ pairs: Number(args[0] ?? 9), server }), null, 2));
}
