/**
 * The checker thread started on the checker's own bundle through CHECKER_LOADER: it checks
 * as the server's bundle does, writes V8's code cache beside the bundle after its first
 * report, and a cache that is missing, corrupt or made for another build never changes a
 * verdict (the built bundle, copied into a temporary directory; real worker threads).
 */
import { afterAll, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import { defaultCatalogue } from "@wfkit/core";
import { NO_POLICY } from "@wfkit/project/pure";
import { CHECKER_LOADER } from "../src/server/checker-loader.js";
import type { CheckerMessage, CheckerReport } from "../src/server/checker.js";
import { VALID_WF } from "./support/fixtures.js";

const built = fileURLToPath(new URL("../dist/lsp-checker.cjs", import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), "wfkit-checker-"));
const bundle = path.join(dir, "lsp-checker.cjs");
copyFileSync(built, bundle);
const cacheFile = `${bundle}.cache`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The cache file's contents, or undefined when there is none. */
const cacheNow = () => (existsSync(cacheFile) ? readFileSync(cacheFile) : undefined);

/**
 * Starts a checker thread the way the server does and checks `text`; with `writes`, stops it
 * only once the cache file changed (it is written on the thread's next turn after its first
 * report), a bounded wait.
 */
async function checkWithLoader(text: string, { codeCache = true, writes = false } = {}): Promise<Extract<CheckerReport, { type: "result" }>> {
  const before = cacheNow();
  const worker = new Worker(CHECKER_LOADER, { eval: true, workerData: { wfkitChecker: true, checkerBundle: bundle, codeCache } });
  try {
    const report = new Promise<CheckerReport>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    const uri = "file:///work/a.wf";
    worker.postMessage({ type: "open", uri, language: "wf", version: 1, text, catalogue: defaultCatalogue, problem: undefined, policy: NO_POLICY } satisfies CheckerMessage);
    worker.postMessage({ type: "check", uri } satisfies CheckerMessage);
    const result = await report;
    if (result.type !== "result") throw new Error(`the check failed: ${result.message}`);
    return result;
  } finally {
    for (let i = 0; i < 100 && writes; i++) {
      const now = cacheNow();
      if (now && !(before && now.equals(before))) break;
      await sleep(20);
    }
    await worker.terminate();
  }
}

const broken = VALID_WF.replace("pack@1", "pakc@1");

describe("the checker thread on the checker's bundle", () => {
  it("checks, and writes a code cache keyed by the bundle's size and Node's version", async () => {
    rmSync(cacheFile, { force: true });
    const result = await checkWithLoader(broken, { writes: true });
    expect(result.diagnostics.map((d) => d.code)).toEqual(["part-unknown"]);
    const key = readFileSync(cacheFile, "utf8").split("\n")[0]!;
    expect(key.startsWith(`wfkit-checker ${statSync(bundle).size} `)).toBe(true);
    expect(key.endsWith(` ${process.version} ${process.arch} parts`)).toBe(true);
  });

  it("gives the same verdicts with the cache, with a corrupt one (replaced), and with none", async () => {
    const withCache = await checkWithLoader(broken);
    const key = readFileSync(cacheFile, "utf8").split("\n")[0]!;
    // This build's key, no parts (the checker has one), then what V8 refuses.
    writeFileSync(cacheFile, `${key}\n\nnot V8's data`);
    const withCorrupt = await checkWithLoader(broken, { writes: true });
    expect(readFileSync(cacheFile).length).toBeGreaterThan(key.length + 100);
    writeFileSync(cacheFile, "wfkit-checker 1 2 v0 none\nstale");
    const withStale = await checkWithLoader(VALID_WF, { writes: true });
    expect(readFileSync(cacheFile, "utf8").startsWith(key)).toBe(true);
    rmSync(cacheFile, { force: true });
    const withoutCache = await checkWithLoader(broken, { codeCache: false });
    expect(existsSync(cacheFile)).toBe(false);
    for (const result of [withCache, withCorrupt, withoutCache]) expect(result.diagnostics).toEqual(withCache.diagnostics);
    expect(withStale.diagnostics).toEqual([]);
  });
});
