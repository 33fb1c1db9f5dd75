/**
 * `runCachedBundle` reads a bundle as Latin-1 when it is ASCII (no decoding) and as UTF-8
 * otherwise: either way the bundle sees its own strings exactly.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
