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
 * cache. A second line names the parts of the bundle (the CLI's commands) whose runs the
 * cache holds: a run of a part it does not hold writes it again, with what that run compiled
 * added to what it read. Without that, the cache would hold only what the first run after an
 * install needed (`wfkit --version`, say), and every `check` after it would compile the
 * checker afresh: about 16 ms of a 70 ms run, measured. It is only as trustworthy as the
 * bundle itself (whoever can replace one can replace the other), and is written to a
 * temporary file and renamed, so a reader never sees half of one. Where the directory is not writable (a global install owned by another user) there is
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
  /** `cacheWanted`, or the cache holds no run of `part` yet (a command's name). */
  cacheWantedFor(part: string | undefined): boolean;
  /** Writes the cache with what has been compiled so far, and `part` among the parts it holds; never throws. */
  writeCache(part?: string): void;
}

export function runCachedBundle(load: NodeRequire, bundle: string, label: string, useCache: boolean): CachedBundle {
  // A part's name is a word (the caller names only its own commands), and a cache holds at
  // most this many.
  const PART_NAME = /^[a-z][a-z-]{0,31}$/;
  const MOST_PARTS = 64;
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
    key = `${label} ${stat.size} ${stat.mtimeMs} ${process.version} ${process.arch} parts\n`;
    // An ASCII bundle (esbuild escapes every other character) is read as Latin-1, the same
    // string made without UTF-8 decoding.
    const bytes = fs.readFileSync(descriptor);
    source = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  } finally {
    fs.closeSync(descriptor);
  }
  const cacheFile = `${bundle}.cache`;
  let cachedData: Buffer | undefined;
  let parts: string[] = [];
  if (useCache) {
    try {
      const contents = fs.readFileSync(cacheFile);
      const keyBytes = Buffer.byteLength(key);
      const partsEnd = contents.indexOf(10, keyBytes);
      if (partsEnd > 0 && contents.toString("latin1", 0, keyBytes) === key) {
        // Read as written, words only and at most MOST_PARTS of them, whatever the line holds.
        parts = contents.toString("latin1", keyBytes, partsEnd).split(" ").filter((name) => PART_NAME.test(name)).slice(0, MOST_PARTS);
        cachedData = contents.subarray(partsEnd + 1);
      }
    } catch {
      // No cache yet, or one that cannot be read: compile without it.
    }
  }
  const isNewPart = (part: string | undefined): part is string => part !== undefined && PART_NAME.test(part) && !parts.includes(part) && parts.length < MOST_PARTS;
  // The same wrapper Node gives a CommonJS module, so the bundle sees the usual five names.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
  const bundleModule = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void).call(bundleModule.exports, bundleModule.exports, createRequire(bundle), bundleModule, bundle, dirname(bundle));
  return {
    exports: bundleModule.exports,
    cacheWanted: useCache && (!cachedData || script.cachedDataRejected === true),
    cacheWantedFor(part) {
      return this.cacheWanted || (useCache && isNewPart(part));
    },
    writeCache(part) {
      const held = isNewPart(part) ? [...parts, part] : parts;
      const temporary = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        fs.writeFileSync(temporary, Buffer.concat([Buffer.from(`${key}${held.join(" ")}\n`, "latin1"), script.createCachedData()]));
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
