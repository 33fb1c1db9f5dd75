#!/usr/bin/env node
/**
 * What `wfkit` runs first (bundled alone as dist/bundle/wfkit.cjs): it runs the CLI's bundle,
 * `cli.cjs`, compiled with V8's code cache kept beside it (`cli.cjs.cache`; see
 * @wfkit/language-server's code-cache.ts, which the checker thread uses too). Both are
 * CommonJS: an ES module anywhere on the way would start Node's ES module loader, a few
 * milliseconds of every run.
 *
 * The cache is written as the process exits, when there was none, V8 refused it, or it holds
 * no run of this command yet, so that it holds every function the runs so far compiled; it is
 * not refreshed on every run because writing it costs several milliseconds.
 * WFKIT_CODE_CACHE=0 turns it off.
 */
import { runCachedBundle } from "@wfkit/language-server/code-cache";
import path from "node:path";
import { pathToFileURL } from "node:url";

declare const __WFKIT_VERSION__: string | undefined;

// The bundle's siblings (lsp.mjs, service.mjs, graph.mjs) are imported through this module:
// see siblings.ts.
(globalThis as { [key: symbol]: unknown })[Symbol.for("wfkit.importBeside")] = (specifier: string) => import(pathToFileURL(path.join(__dirname, specifier)).href);

const version = typeof __WFKIT_VERSION__ === "string" ? __WFKIT_VERSION__ : "dev";
const cli = runCachedBundle(require, path.join(__dirname, "cli.cjs"), `wfkit ${version}`, process.env.WFKIT_CODE_CACHE !== "0");
// The command is the part of the bundle this run uses: the cache is written again when it
// holds no run of that command yet (code-cache.ts). A mistyped command is none.
const commandNames = cli.exports.commandNames as readonly string[] | undefined;
const command = commandNames?.includes(process.argv[2] ?? "") ? process.argv[2] : undefined;
if (cli.cacheWantedFor(command)) process.once("exit", () => cli.writeCache(command));
