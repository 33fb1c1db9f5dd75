/**
 * How a checker thread loads the checker's bundle (`lsp-checker.cjs`): compiled as a
 * `vm.Script` with V8's code cache kept beside it, as the CLI loads its own bundle (see
 * packages/cli/src/launch.ts for the reasoning: Node 20 keeps no code cache for modules, and
 * V8 compares the cached source by length only, hence the key of size, modification time and
 * Node's version). The first thread without a usable cache writes one once it has reported
 * its first check, so that the cache holds the parser, compiler and checker it compiled.
 *
 * It runs as the worker's own code (`new Worker(CHECKER_LOADER, { eval: true })`), before any
 * bundle is loaded, so it is plain CommonJS in a string: no import of ours can be used in it.
 * A cache that cannot be read or written (a read-only install) only costs the compile.
 */
export const CHECKER_LOADER = String.raw`"use strict";
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { createRequire } = require("node:module");
const bundle = workerData.checkerBundle;
const source = fs.readFileSync(bundle, "utf8");
const stat = fs.statSync(bundle);
const key = "wfkit-checker " + stat.size + " " + stat.mtimeMs + " " + process.version + " " + process.arch + "\n";
const cacheFile = bundle + ".cache";
let cachedData;
if (workerData.codeCache) {
  try {
    const contents = fs.readFileSync(cacheFile);
    const keyBytes = Buffer.byteLength(key);
    if (contents.length > keyBytes && contents.toString("utf8", 0, keyBytes) === key) cachedData = contents.subarray(keyBytes);
  } catch {}
}
const script = new vm.Script("(function (exports, require, module, __filename, __dirname) {" + source + "\n})", { filename: bundle, cachedData });
const writeCache = workerData.codeCache && (!cachedData || script.cachedDataRejected);
const checkerModule = { exports: {} };
script.runInThisContext().call(checkerModule.exports, checkerModule.exports, createRequire(bundle), checkerModule, bundle, path.dirname(bundle));
checkerModule.exports.runCheckerWorker({
  afterFirstReport: writeCache ? () => {
    const temporary = cacheFile + "." + process.pid + "." + require("node:worker_threads").threadId + ".tmp";
    try {
      fs.writeFileSync(temporary, Buffer.concat([Buffer.from(key), script.createCachedData()]));
      fs.renameSync(temporary, cacheFile);
    } catch {
      try { fs.unlinkSync(temporary); } catch {}
    }
  } : undefined,
});
`;
