/**
 * `runCachedBundle` reads a bundle as Latin-1 when it is ASCII (no decoding) and as UTF-8
 * otherwise: either way the bundle sees its own strings exactly. Its cache records the parts
 * (commands) whose runs it holds, and is wanted again for a part it holds no run of.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCachedBundle } from "../src/code-cache.js";

const load = createRequire(import.meta.url);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "wfkit-code-cache-"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(name: string, source: string): Record<string, unknown> {
  const bundle = path.join(dir, name);
  writeFileSync(bundle, source, "utf8");
  return runCachedBundle(load, bundle, "test", false).exports;
}

describe("runCachedBundle", () => {
  it("reads an ASCII bundle", () => {
    expect(run("ascii.cjs", 'module.exports.text = "plain \\u00e9";').text).toBe("plain é");
  });

  it("reads a bundle with other characters as UTF-8", () => {
    const text = "café, Łódź, 東京, 🚀";
    expect(run("utf8.cjs", `module.exports.text = ${JSON.stringify(text)};`).text).toBe(text);
  });
});

describe("the parts a cache holds", () => {
  const source = "module.exports.a = () => [1, 2, 3].map((x) => x * 2); module.exports.b = () => 'b'.repeat(3);";

  function load(name: string): ReturnType<typeof runCachedBundle> {
    return runCachedBundle(createRequire(import.meta.url), path.join(dir, name), "test", true);
  }

  function partsLine(name: string): string {
    const contents = readFileSync(path.join(dir, `${name}.cache`));
    const keyEnd = contents.indexOf(10) + 1;
    return contents.subarray(keyEnd, contents.indexOf(10, keyEnd)).toString("latin1");
  }

  it("wants a cache for a part it holds no run of, and not for one it holds", () => {
    writeFileSync(path.join(dir, "parts.cjs"), source);
    const first = load("parts.cjs");
    expect(first.cacheWanted).toBe(true);
    (first.exports.a as () => unknown)();
    first.writeCache("alpha");
    expect(partsLine("parts.cjs")).toBe("alpha");

    const second = load("parts.cjs");
    expect(second.cacheWanted).toBe(false);
    expect(second.cacheWantedFor("alpha")).toBe(false);
    expect(second.cacheWantedFor(undefined)).toBe(false);
    expect(second.cacheWantedFor("beta")).toBe(true);
    (second.exports.b as () => unknown)();
    second.writeCache("beta");
    expect(partsLine("parts.cjs")).toBe("alpha beta");

    const third = load("parts.cjs");
    expect([third.cacheWantedFor("alpha"), third.cacheWantedFor("beta")]).toEqual([false, false]);
    // A name that is not a word is never a part: nothing to write for it.
    expect(third.cacheWantedFor("two words")).toBe(false);
    expect(third.cacheWantedFor("")).toBe(false);
  });

  it("reads a parts line of junk as words only, at most 64 of them, and still runs with the cache", () => {
    writeFileSync(path.join(dir, "junk.cjs"), source);
    const made = load("junk.cjs");
    made.writeCache();
    const contents = readFileSync(path.join(dir, "junk.cjs.cache"));
    const keyEnd = contents.indexOf(10) + 1;
    const data = contents.subarray(contents.indexOf(10, keyEnd) + 1);
    // 10,000 names (only some of them words), control characters, a name far too long.
    const junk = [...Array.from({ length: 10_000 }, (_, i) => (i % 2 ? `p${"abcdefghij"[i % 10]}${i.toString(36).replace(/\d/g, "x")}` : `Bad_${i}`)), "\t\u0001", "z".repeat(500)].join(" ");
    writeFileSync(path.join(dir, "junk.cjs.cache"), Buffer.concat([contents.subarray(0, keyEnd), Buffer.from(`${junk}\n`, "latin1"), data]));
    const read = load("junk.cjs");
    expect(read.cacheWanted).toBe(false);
    expect((read.exports.b as () => unknown)()).toBe("bbb");
    // The 64 words read leave no room for another part: nothing more is wanted or written.
    expect(read.cacheWantedFor("another")).toBe(false);
    read.writeCache("another");
    const kept = partsLine("junk.cjs").split(" ");
    expect(kept).toHaveLength(64);
    expect(kept.every((name) => /^[a-z][a-z-]{0,31}$/.test(name))).toBe(true);
    expect(kept).not.toContain("another");
  });

  it("does not use a cache without its parts line (an older launcher's): it is wanted again", () => {
    writeFileSync(path.join(dir, "old.cjs"), source);
    const made = load("old.cjs");
    made.writeCache();
    const contents = readFileSync(path.join(dir, "old.cjs.cache"));
    const keyEnd = contents.indexOf(10) + 1;
    // The key an older launcher wrote (without " parts"), then the data at once.
    const oldKey = contents.subarray(0, keyEnd).toString("latin1").replace(" parts\n", "\n");
    writeFileSync(path.join(dir, "old.cjs.cache"), Buffer.concat([Buffer.from(oldKey, "latin1"), contents.subarray(contents.indexOf(10, keyEnd) + 1)]));
    expect(load("old.cjs").cacheWanted).toBe(true);
  });
});
