#!/usr/bin/env node
/**
 * What `wfkit` runs first (bundled alone as dist/bundle/wfkit.cjs): it loads the CLI's
 * bundle, `cli.cjs`, compiled with V8's code cache. Both are CommonJS: an ES module
 * anywhere on the way would start Node's ES module loader, a few milliseconds of every run.
 *
 * Compiling the 1 MB bundle is a large share of a short command's time, and Node 20 keeps no
 * code cache for modules (Node 22's `module.enableCompileCache` does). A CommonJS script can
 * be given one: the bundle is compiled as a `vm.Script` with the cache beside it, and when
 * there is none yet (or V8 refuses it: another Node, another build) a new one is written as
 * the process exits, so that it holds every function this run compiled.
 *
 * The cache is a file beside the bundle (`cli.cjs.cache`): it is only as trustworthy as the
 * bundle itself, and whoever can replace one can replace the other. Where that directory is
 * not writable (a global install owned by another user) there is simply no cache. It starts
 * with a key (wfkit's version, the bundle's size and modification time, Node's version and
 * architecture): V8 checks its own version and flags but compares the source by length
 * only, so a rebuilt bundle of the same length must not meet the old cache. It is written
 * to a temporary file and renamed, so a reader never sees half of one. WFKIT_CODE_CACHE=0
 * turns it off.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

declare const __WFKIT_VERSION__: string | undefined;

const bundle = path.join(__dirname, "cli.cjs");
const cacheFile = `${bundle}.cache`;
const useCache = process.env.WFKIT_CODE_CACHE !== "0";

// The bundle's siblings (lsp.mjs, service.mjs, graph.mjs) are imported through this module:
// see siblings.ts.
(globalThis as { [key: symbol]: unknown })[Symbol.for("wfkit.importBeside")] = (specifier: string) => import(pathToFileURL(path.join(__dirname, specifier)).href);

const descriptor = openSync(bundle, "r");
let source: string;
let key: string;
try {
  const stat = fstatSync(descriptor);
  key = `wfkit ${typeof __WFKIT_VERSION__ === "string" ? __WFKIT_VERSION__ : "dev"} ${stat.size} ${stat.mtimeMs} ${process.version} ${process.arch}\n`;
  source = readFileSync(descriptor, "utf8");
} finally {
  closeSync(descriptor);
}

const cachedData = useCache ? readCache(key) : undefined;
// The same wrapper Node gives a CommonJS module, so the bundle sees the usual five names.
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
if (useCache && (!cachedData || script.cachedDataRejected)) process.once("exit", () => writeCache(key, script));
const cliModule = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void).call(cliModule.exports, cliModule.exports, createRequire(bundle), cliModule, bundle, path.dirname(bundle));

/** The cache's V8 data, if the file holds one made for exactly this bundle and Node. */
function readCache(expectedKey: string): Buffer | undefined {
  let file: number;
  try {
    file = openSync(cacheFile, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(file).size;
    const keyBytes = Buffer.byteLength(expectedKey);
    if (size <= keyBytes) return undefined;
    const contents = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const count = readSync(file, contents, read, size - read, read);
      if (count === 0) return undefined;
      read += count;
    }
    if (contents.toString("utf8", 0, keyBytes) !== expectedKey) return undefined;
    return contents.subarray(keyBytes);
  } catch {
    return undefined;
  } finally {
    closeSync(file);
  }
}

function writeCache(cacheKey: string, compiled: vm.Script): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([Buffer.from(cacheKey), compiled.createCachedData()]));
    renameSync(temporary, cacheFile);
  } catch {
    // A directory we may not write to, a full disk: the next run compiles the bundle again.
    try {
      unlinkSync(temporary);
    } catch {
      // Never written.
    }
  }
}
