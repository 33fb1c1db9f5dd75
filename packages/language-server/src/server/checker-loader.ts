/**
 * How a checker thread loads the checker's bundle (`lsp-checker.cjs`): with V8's code cache
 * kept beside it (code-cache.ts), written once the thread has reported its first check, so
 * that the cache holds the parser, compiler and checker it compiled.
 *
 * It runs as the worker's own code (`new Worker(CHECKER_LOADER, { eval: true })`), before any
 * bundle is loaded, so it is CommonJS source text: `runCachedBundle` is carried as its own
 * source. A cache that cannot be read or written (a read-only install) only costs the compile.
 */
import { runCachedBundle } from "../code-cache.js";

export const CHECKER_LOADER = `"use strict";
const { workerData } = require("node:worker_threads");
const checker = (${runCachedBundle.toString()})(require, workerData.checkerBundle, "wfkit-checker", workerData.codeCache);
checker.exports.runCheckerWorker({ afterFirstReport: checker.cacheWanted ? checker.writeCache : undefined });
`;
