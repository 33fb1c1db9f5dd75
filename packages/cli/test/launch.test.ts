/**
 * The launcher (src/launch.ts) runs the CLI's bundle with V8's code cache kept beside it. A
 * copy of the built launcher and bundle in a temporary directory is run as a process, so the
 * cache it writes stays there.
 */
import { isAscii } from "node:buffer";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRoot, ensureBuilt } from "../../../test/support/built-cli.js";

let dir: string;
let cache: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(path.join(os.tmpdir(), "wfkit-launch-"));
  for (const name of ["wfkit.cjs", "cli.cjs"]) copyFileSync(path.join(cliRoot, "dist", "bundle", name), path.join(dir, name));
  writeFileSync(path.join(dir, "ok.wf"), "trigger start on_demand\ndestination out standalone\nstart -> out\n");
  cache = path.join(dir, "cli.cjs.cache");
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function wfkit(args: readonly string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(dir, "wfkit.cjs"), ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const check = (env: Record<string, string> = {}) => wfkit(["check", "ok.wf"], env);

/** The key line the cache starts with. */
function cacheKey(): string {
  const contents = readFileSync(cache);
  return contents.subarray(0, contents.indexOf(10) + 1).toString("utf8");
}

/** The commands whose runs the cache holds (its second line). */
function cacheParts(): string[] {
  const contents = readFileSync(cache);
  const keyEnd = contents.indexOf(10) + 1;
  return contents.subarray(keyEnd, contents.indexOf(10, keyEnd)).toString("utf8").split(" ").filter(Boolean);
}

describe("the launcher's code cache", () => {
  it("runs a bundle written in ASCII, which it reads without decoding", () => {
    expect(isAscii(readFileSync(path.join(dir, "cli.cjs")))).toBe(true);
  });

  it("is written beside the bundle by the first run, keyed to this bundle and Node, and then read", () => {
    rmSync(cache, { force: true });
    const first = check();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain("1 file checked: no problems");
    const { size, mtimeMs } = statSync(path.join(dir, "cli.cjs"));
    expect(cacheKey()).toMatch(new RegExp(`^wfkit \\S+ ${size} ${mtimeMs} ${process.version} ${process.arch} parts\\n$`));
    expect(cacheParts()).toEqual(["check"]);
    expect(statSync(cache).size).toBeGreaterThan(100_000);
    const written = statSync(cache).mtimeMs;
    const second = check();
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // Accepted, so not written again.
    expect(statSync(cache).mtimeMs).toBe(written);
  });

  it("replaces a cache made for another build, or one that V8 refuses, and runs the same", () => {
    const good = readFileSync(cache);
    const key = cacheKey();
    writeFileSync(cache, Buffer.concat([Buffer.from(key.replace(/ \d+ /, " 1 ")), good.subarray(key.length)]));
    expect(check().status).toBe(0);
    expect(cacheKey()).toBe(key);
    // What V8 refuses, under this build's key and a line that says it holds `check`.
    writeFileSync(cache, Buffer.concat([Buffer.from(`${key}check\n`), Buffer.alloc(5_000, 7)]));
    const refused = check();
    expect(refused.status, refused.stderr).toBe(0);
    expect(refused.stderr).toBe("");
    expect(readFileSync(cache).subarray(key.length + "check\n".length).equals(Buffer.alloc(5_000, 7))).toBe(false);
    expect(cacheParts()).toEqual(["check"]);
  });

  it("is written again by the first run of a command it holds no run of, and then holds both", () => {
    rmSync(cache, { force: true });
    expect(wfkit(["--version"]).status).toBe(0);
    // A run of no command (flags only) holds the bundle's start and no command.
    expect(cacheParts()).toEqual([]);
    const small = statSync(cache).size;
    expect(check().status).toBe(0);
    expect(cacheParts()).toEqual(["check"]);
    const withCheck = statSync(cache).size;
    expect(withCheck).toBeGreaterThan(small);
    const written = statSync(cache).mtimeMs;
    expect(check().status).toBe(0);
    expect(statSync(cache).mtimeMs).toBe(written);
    expect(wfkit(["fmt", "--check", "ok.wf"]).status).toBe(0);
    expect(cacheParts()).toEqual(["check", "fmt"]);
    // What the check compiled is kept beside what the fmt run compiled.
    expect(statSync(cache).size).toBeGreaterThanOrEqual(withCheck);
    // A command that does not exist is no part: the cache is not written for it.
    const before = statSync(cache).mtimeMs;
    expect(wfkit(["chekc"]).status).toBe(2);
    expect(cacheParts()).toEqual(["check", "fmt"]);
    expect(statSync(cache).mtimeMs).toBe(before);
  });

  it("is neither read nor written with WFKIT_CODE_CACHE=0, and its absence where it cannot be written is no error", () => {
    rmSync(cache, { force: true });
    expect(check({ WFKIT_CODE_CACHE: "0" }).status).toBe(0);
    expect(existsSync(cache)).toBe(false);
    // A directory where the cache would go can be neither read as one nor replaced by one,
    // whoever runs the test (root writes into a read-only directory).
    mkdirSync(cache);
    try {
      const run = check();
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toBe("");
      expect(statSync(cache).isDirectory()).toBe(true);
      expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});

describe("what a check loads of Node", () => {
  // Node's internal modules a run loaded beyond `node -e 0`'s, listed by a preload as it exits.
  function internalModules(stdout: "pipe" | "ignore"): string[] {
    const preload = path.join(dir, "list-modules.cjs");
    writeFileSync(
      preload,
      `const before = new Set(process.moduleLoadList);\nprocess.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(path.join(dir, "modules.json"))}, JSON.stringify(process.moduleLoadList.filter((name) => !before.has(name)))));\n`,
    );
    const result = spawnSync(process.execPath, ["--require", preload, path.join(dir, "wfkit.cjs"), "check", "ok.wf"], { cwd: dir, encoding: "utf8", stdio: ["ignore", stdout, "pipe"] });
    expect(result.status, result.stderr).toBe(0);
    return JSON.parse(readFileSync(path.join(dir, "modules.json"), "utf8")) as string[];
  }

  it("neither fs/promises nor a stream for its output, into a pipe or into /dev/null", () => {
    for (const stdout of ["pipe", "ignore"] as const) {
      const loaded = internalModules(stdout);
      expect(loaded, stdout).toContain("NativeModule vm");
      expect(loaded.filter((name) => /^NativeModule (fs\/promises|internal\/fs\/promises|stream|internal\/streams\/|tty|net)/.test(name)), stdout).toEqual([]);
    }
  });
});
