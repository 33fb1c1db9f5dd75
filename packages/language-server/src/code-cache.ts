/**
 * Runs a CommonJS bundle compiled with V8's code cache kept in a file beside it: how the
 * `wfkit` command starts its CLI bundle (packages/cli/src/launch.ts) and how a checker thread
 * starts the checker's bundle (server/checker-loader.ts).
 *
 * Compiling a large bundle is a large share of a short run, and Node 20 keeps no code cache
 * for modules (Node 22's `module.enableCompileCache` does). A script can be given one: the
 * bundle is compiled as a `vm.Script` with the cache, and when there is none yet (or V8
 * refuses it: another Node, another build) the caller writes a new one once the run has
 * compiled what it uses (`writeCache`), so that the cache holds every function it needed.
 *
 * The cache starts with a key line (the caller's label, the bundle's size and modification
 * time, Node's version and architecture): V8 checks its own version and flags but compares
 * the source by length only, so a rebuilt bundle of the same length must not meet the old
 * cache. It is only as trustworthy as the bundle itself (whoever can replace one can replace
 * the other), and is written to a temporary file and renamed, so a reader never sees half of
 * one. Where the directory is not writable (a global install owned by another user) there is
 * simply no cache.
 *
 * The function is self-contained and is given `require`: a checker thread runs its source
 * text (`Function.prototype.toString`) as the worker's own code, before any bundle is loaded,
 * where nothing else of ours exists.
 */
export interface CachedBundle {
  /** What the bundle put in `module.exports`. */
  exports: Record<string, unknown>;
  /** Whether the run should write a cache (none was read, or V8 refused it). */
  cacheWanted: boolean;
  /** Writes the cache with what has been compiled so far; never throws. */
  writeCache(): void;
}

export function runCachedBundle(load: NodeRequire, bundle: string, label: string, useCache: boolean): CachedBundle {
  const fs = load("node:fs") as typeof import("node:fs");
  const vm = load("node:vm") as typeof import("node:vm");
  const { createRequire } = load("node:module") as typeof import("node:module");
  const { dirname } = load("node:path") as typeof import("node:path");
  const { isAscii } = load("node:buffer") as typeof import("node:buffer");
  const descriptor = fs.openSync(bundle, "r");
  let source: string;
  let key: string;
  try {
    const stat = fs.fstatSync(descriptor);
    key = `${label} ${stat.size} ${stat.mtimeMs} ${process.version} ${process.arch}\n`;
    // An ASCII bundle (esbuild escapes every other character) is read as Latin-1, the same
    // string made without UTF-8 decoding.
    const bytes = fs.readFileSync(descriptor);
    source = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  } finally {
    fs.closeSync(descriptor);
  }
  const cacheFile = `${bundle}.cache`;
  let cachedData: Buffer | undefined;
  if (useCache) {
    try {
      const contents = fs.readFileSync(cacheFile);
      const keyBytes = Buffer.byteLength(key);
      if (contents.length > keyBytes && contents.toString("utf8", 0, keyBytes) === key) cachedData = contents.subarray(keyBytes);
    } catch {
      // No cache yet, or one that cannot be read: compile without it.
    }
  }
  // The same wrapper Node gives a CommonJS module, so the bundle sees the usual five names.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
  const bundleModule = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void).call(bundleModule.exports, bundleModule.exports, createRequire(bundle), bundleModule, bundle, dirname(bundle));
  return {
    exports: bundleModule.exports,
    cacheWanted: useCache && (!cachedData || script.cachedDataRejected === true),
    writeCache() {
      const temporary = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        fs.writeFileSync(temporary, Buffer.concat([Buffer.from(key), script.createCachedData()]));
        fs.renameSync(temporary, cacheFile);
      } catch {
        // A directory we may not write to, a full disk: the next run compiles the bundle again.
        try {
          fs.unlinkSync(temporary);
        } catch {
          // Never written.
        }
      }
    },
  };
}
