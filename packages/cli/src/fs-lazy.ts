/**
 * The file functions the CLI awaits, without loading `node:fs/promises` at start-up: that
 * module brings more of Node's internal modules (file handles, directory streams, watchers,
 * readline's interface), whose cost at start-up docs/performance.md measures.
 * What every `check` calls is the callback API (`node:fs`, which every run has loaded)
 * promisified; the rest reach `fs.promises` on their first call, so a run that writes no file
 * never loads it. (The CLI is bundled as CommonJS, where `fs.promises` is read at the call,
 * not at the import.)
 */
import * as fs from "node:fs";
import type * as fsPromises from "node:fs/promises";
import { promisify } from "node:util";

// What `check` calls for every input.
export const readFile = promisify(fs.readFile);
export const stat = promisify(fs.stat);
export const readdir = promisify(fs.readdir);

// The rest: from `fs.promises`, loaded on the first call.
export const access: typeof fsPromises.access = (...args) => fs.promises.access(...args);
export const chmod: typeof fsPromises.chmod = (...args) => fs.promises.chmod(...args);
export const lstat = ((...args: Parameters<typeof fsPromises.lstat>) => fs.promises.lstat(...args)) as typeof fsPromises.lstat;
export const mkdir = ((...args: Parameters<typeof fsPromises.mkdir>) => fs.promises.mkdir(...args)) as typeof fsPromises.mkdir;
export const open: typeof fsPromises.open = (...args) => fs.promises.open(...args);
export const realpath = ((...args: Parameters<typeof fsPromises.realpath>) => fs.promises.realpath(...args)) as typeof fsPromises.realpath;
export const rename: typeof fsPromises.rename = (...args) => fs.promises.rename(...args);
export const unlink: typeof fsPromises.unlink = (...args) => fs.promises.unlink(...args);
