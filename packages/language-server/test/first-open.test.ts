/**
 * The first open in an editor (docs/performance.md, "The first open"): a small document opened
 * while the checker thread is still starting is checked on the connection's thread at once and
 * by the thread as well (one verdict, published once); a larger one waits for the thread; the
 * server's bundle starts its thread before the rest of the server is evaluated, and a thread
 * started early hands over what it said before the server listened.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import { adoptPrestartedChecker, CHECKER_BUNDLE, prestartChecker } from "../src/server/checker-loader.js";
import { CHECK_HERE_WHILE_STARTING } from "../src/server/server.js";
import { LspTestClient } from "../../../test/support/lsp-client.js";
import { launcherWithFakeChecker } from "./support/fake-checker.js";
import { VALID_WF } from "./support/fixtures.js";

const dir = mkdtempSync(path.join(tmpdir(), "wfkit-first-open-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let client: LspTestClient | undefined;
afterEach(async () => {
  client?.kill();
  client = undefined;
});

const broken = VALID_WF.replace("pack@1", "pakc@1");
/** `broken`, padded with comment lines past CHECK_HERE_WHILE_STARTING. */
const large = `${"# padding to make the document large\n".repeat(Math.ceil((CHECK_HERE_WHILE_STARTING + 1_000) / 37))}${broken}`;

/**
 * A server (the package's dist) whose checker thread never says it is ready and answers a
 * check only with a made-up diagnostic, so that a published verdict says where it came from.
 */
function launcherWithSilentThread(): string {
  const fromThread = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity: "error", code: "from-thread", message: "checked by the thread", source: "wfkit", related: [] };
  return launcherWithFakeChecker(dir, "silent-thread.mjs", [
    "const versions = new Map();",
    'parentPort.on("message", (message) => {',
    '  if (message.type === "open") versions.set(message.uri, message.version);',
    `  if (message.type === "check") parentPort.postMessage({ type: "result", uri: message.uri, version: versions.get(message.uri), diagnostics: [${JSON.stringify(fromThread)}], summary: { errors: 1, warnings: 0, costMinorUnits: undefined }, durationMs: 1, read: { ms: 1, incremental: false } });`,
    "});",
  ]);
}

describe("a document opened while the checker thread starts", () => {
  it("is checked on the connection's thread when small, and waits for the thread when large", async () => {
    client = await LspTestClient.start({ command: { path: launcherWithSilentThread(), args: [] } });
    const small = "file:///work/small.wf";
    await client.open(small, broken);
    // The real verdict first (this thread), then the thread's (here a made-up one) for the same version.
    const first = await client.diagnostics(small, 1);
    expect(first.diagnostics.map((d) => d.code)).toEqual(["part-unknown"]);
    await client.diagnosticsMatching(small, (diagnostics) => diagnostics.some((d) => d.code === "from-thread"));
    const big = "file:///work/big.wf";
    await client.open(big, large);
    const bigFirst = await client.diagnostics(big, 1);
    expect(bigFirst.diagnostics.map((d) => d.code)).toEqual(["from-thread"]);
    expect(client.published.filter((p) => p.uri === big)).toHaveLength(1);
    expect(await client.stop()).toBe(0);
  }, 60_000);

  it("gets one publication of its first diagnostics from the built server, the verdict the thread gives later", async () => {
    client = await LspTestClient.start();
    const uri = "file:///work/first.wf";
    await client.open(uri, broken);
    const first = await client.diagnostics(uri, 1);
    expect(first.diagnostics.map((d) => d.code)).toEqual(["part-unknown"]);
    // An edit that changes nothing the checker sees, checked by the thread (ready by now, or soon).
    await client.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "# a comment\n" }]);
    const second = await client.diagnostics(uri, 2);
    expect(second.diagnostics.map((d) => [d.code, d.message])).toEqual(first.diagnostics.map((d) => [d.code, d.message]));
    // The thread's check of version 1, had it come before the edit, found the same and was not pushed again.
    expect(client.published.filter((p) => p.uri === uri && p.version === 1)).toHaveLength(1);
    expect(await client.stop()).toBe(0);
  }, 60_000);
});

describe("a checker thread started before the server listens", () => {
  it("hands over what it said meanwhile, in order, to the server that adopts it", async () => {
    const bundleDir = mkdtempSync(path.join(dir, "prestart-"));
    // A stand-in for the checker's bundle: it says ready and one more thing at once.
    writeFileSync(
      path.join(bundleDir, CHECKER_BUNDLE),
      'exports.runCheckerWorker = () => { const { parentPort } = require("node:worker_threads"); parentPort.postMessage({ type: "ready" }); parentPort.postMessage({ type: "failed", uri: "file:///x", message: "said early" }); parentPort.on("message", (m) => parentPort.postMessage({ type: "failed", uri: "file:///x", message: `echo ${m.type}` })); };\n',
    );
    const server = pathToFileURL(path.join(bundleDir, "server.mjs"));
    prestartChecker(server);
    // Let it start and speak before anyone listens.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const heard: unknown[] = [];
    let adopted: Worker | undefined;
    expect(adoptPrestartedChecker({ bundle: path.join(bundleDir, "other.cjs") }, () => undefined)).toBe(false);
    const echoed = new Promise<void>((resolve) => {
      expect(
        adoptPrestartedChecker({ bundle: fileURLToPath(new URL(CHECKER_BUNDLE, server)) }, (worker) => {
          adopted = worker;
          worker.on("message", (message: { type: string; message?: string }) => {
            heard.push(message.message ?? message.type);
            if (message.message === "echo check") resolve();
          });
          worker.postMessage({ type: "check", uri: "file:///x" });
        }),
      ).toBe(true);
    });
    await echoed;
    expect(heard).toEqual(["ready", "said early", "echo check"]);
    // Once only.
    expect(adoptPrestartedChecker({ bundle: fileURLToPath(new URL(CHECKER_BUNDLE, server)) }, () => undefined)).toBe(false);
    await adopted!.terminate();
  }, 30_000);
});
