// Where `-o` and `fmt --write` may write, through the BUILT CLI as a child process: through
// symbolic links to regular files (the link stays a link, the mode stays), never into a FIFO
// (it used to hang), a device, a directory or a socket, never over the input however it is
// spelt (`sub/../a.wf`, a symbolic link, a hard link), never over a read-only file. Each
// refusal is exit 2 with one line naming the path; `-o -` and `-o /dev/stdout` are standard
// output.
import { spawnSync } from "node:child_process";
import { chmodSync, linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bin } from "../support/built-cli.js";
import { ensureBuilt, runCli, tempDir } from "./support.js";

beforeAll(() => ensureBuilt());

const SOURCE = "trigger ask on_demand\ndestination inbox standalone\nask -> inbox\n";
const UNFORMATTED = "trigger   ask on_demand\ndestination inbox standalone\nask   ->   inbox\n";
const JSON_DEFINITION = JSON.stringify({
  schemaVersion: 1,
  nodes: [
    { id: "ask", kind: "trigger", trigger: { kind: "on_demand" } },
    { id: "inbox", kind: "destination", destination: { kind: "standalone" } },
  ],
  edges: [{ from: "ask", to: "inbox" }],
});

function mkfifo(file: string): void {
  expect(spawnSync("mkfifo", [file]).status).toBe(0);
}

/** A character device like /dev/null (major 1, minor 3) inside `dir`, or undefined where mknod is not allowed. */
function ownNullDevice(dir: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const device = path.join(dir, "null-device");
  return spawnSync("mknod", ["-m", "666", device, "c", "1", "3"]).status === 0 ? device : undefined;
}

/** A refusal: exit 2, exactly one line on stderr naming `shown`, nothing on stdout. */
function expectRefused(run: { status: number | null; stdout: string; stderr: string }, shown: string, reason: RegExp): void {
  expect(run.status, run.stderr).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr.trimEnd().split("\n"), run.stderr).toHaveLength(1);
  expect(run.stderr).toContain(shown);
  expect(run.stderr).toMatch(reason);
}

/** The directory's entries other than `expected`: no temporary file left behind. */
function strayFiles(dir: string, expected: readonly string[]): string[] {
  return readdirSync(dir).filter((name) => !expected.includes(name));
}

describe("-o through links, to regular files only", () => {
  it("writes through a symbolic link to a file: the link stays, the target gets the text and keeps its mode", () => {
    const dir = tempDir({ "a.wf": SOURCE, "target.json": "old\n" });
    chmodSync(path.join(dir, "target.json"), 0o640);
    symlinkSync("target.json", path.join(dir, "link.json"));
    const run = runCli(["compile", "a.wf", "-o", "link.json"], { cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    expect(lstatSync(path.join(dir, "link.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, "target.json"), "utf8"))).toEqual(JSON.parse(JSON_DEFINITION));
    expect(statSync(path.join(dir, "target.json")).mode & 0o777).toBe(0o640);
    expect(strayFiles(dir, ["a.wf", "target.json", "link.json"])).toEqual([]);
  });

  it("writes through a chain of links into another directory", () => {
    const dir = tempDir({ "a.json": JSON_DEFINITION });
    mkdirSync(path.join(dir, "out"));
    writeFileSync(path.join(dir, "out", "real.wf"), "old\n");
    symlinkSync("out/real.wf", path.join(dir, "first.wf"));
    symlinkSync("first.wf", path.join(dir, "second.wf"));
    const run = runCli(["decompile", "a.json", "-o", "second.wf"], { cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(path.join(dir, "out", "real.wf"), "utf8")).toMatch(/^trigger ask on_demand\n/);
    expect(lstatSync(path.join(dir, "second.wf")).isSymbolicLink()).toBe(true);
    expect(readdirSync(path.join(dir, "out"))).toEqual(["real.wf"]);
  });

  it("refuses a FIFO at once (it used to block for ever), and a link to one", () => {
    const dir = tempDir({ "a.wf": SOURCE });
    mkfifo(path.join(dir, "pipe"));
    symlinkSync("pipe", path.join(dir, "pipe-link"));
    for (const [command, input] of [["compile", "a.wf"], ["graph", "a.wf"]] as const)
      for (const output of ["pipe", "pipe-link"]) {
        // Bounded: a regression would block on the FIFO, and a blocked spawnSync never times out by itself.
        const run = spawnSync(process.execPath, [bin, command, input, "-o", output], { cwd: dir, encoding: "utf8", timeout: 30_000, env: { PATH: process.env.PATH ?? "" } });
        expect(run.signal, "killed after 30 s: blocked on the FIFO").toBeNull();
        expectRefused(run, output, /named pipe \(FIFO\).*only regular files/);
      }
  });

  it("refuses a directory, a device, a link to a device, a socket and a link to nothing", async () => {
    const dir = tempDir({ "a.wf": SOURCE });
    mkdirSync(path.join(dir, "folder"));
    // The device is the test's own copy of /dev/null where the test may make one (as root):
    // a build that regressed to renaming over the target, run as root, would otherwise
    // replace the machine's /dev/null with a regular file. Without root, /dev/null itself is
    // safe to aim at (its directory is not writable); as root without mknod, no device is tried.
    const device = ownNullDevice(dir) ?? (process.getuid?.() === 0 ? undefined : "/dev/null");
    if (device) symlinkSync(device, path.join(dir, "null-link"));
    symlinkSync("missing.json", path.join(dir, "dangling"));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, "sock"), resolve));
    try {
      expectRefused(runCli(["compile", "a.wf", "-o", "folder"], { cwd: dir }), "folder", /is a directory/);
      if (device) {
        expectRefused(runCli(["compile", "a.wf", "-o", device], { cwd: dir }), path.basename(device), /is a device/);
        expectRefused(runCli(["compile", "a.wf", "-o", "null-link"], { cwd: dir }), "null-link", /is a device/);
      }
      expectRefused(runCli(["compile", "a.wf", "-o", "sock"], { cwd: dir }), "sock", /is a socket/);
      expectRefused(runCli(["compile", "a.wf", "-o", "dangling"], { cwd: dir }), "dangling", /symbolic link to a file that does not exist/);
      expectRefused(runCli(["compile", "a.wf", "-o", "nowhere/x.json"], { cwd: dir }), "nowhere/x.json", /no such file or directory/);
    } finally {
      server.close();
    }
    if (device) {
      expect(lstatSync(path.join(dir, "null-link")).isSymbolicLink()).toBe(true);
      expect(statSync(device).isCharacterDevice()).toBe(true);
    }
    expect(lstatSync(path.join(dir, "dangling")).isSymbolicLink()).toBe(true);
  });

  it("refuses a read-only file and leaves it as it was", () => {
    const dir = tempDir({ "a.wf": SOURCE, "locked.json": "keep\n" });
    chmodSync(path.join(dir, "locked.json"), 0o444);
    expectRefused(runCli(["compile", "a.wf", "-o", "locked.json"], { cwd: dir }), "locked.json", /read-only/);
    expect(readFileSync(path.join(dir, "locked.json"), "utf8")).toBe("keep\n");
  });
});

describe("-o never overwrites the input", () => {
  it("refuses the input however it is spelt, and the source is unchanged", () => {
    const dir = tempDir({ "a.wf": SOURCE, "a.json": JSON_DEFINITION });
    mkdirSync(path.join(dir, "sub"));
    symlinkSync("a.wf", path.join(dir, "soft.wf"));
    linkSync(path.join(dir, "a.wf"), path.join(dir, "hard.wf"));
    symlinkSync(dir, path.join(dir, "sub", "up"));
    for (const output of ["a.wf", "./a.wf", "sub/../a.wf", "soft.wf", "hard.wf", "sub/up/a.wf", path.join(dir, "a.wf")]) {
      for (const command of ["compile", "graph"]) expectRefused(runCli([command, "a.wf", "-o", output], { cwd: dir }), "is the input a.wf", /choose another output file/);
      expect(readFileSync(path.join(dir, "a.wf"), "utf8")).toBe(SOURCE);
    }
    expectRefused(runCli(["decompile", "a.json", "-o", "sub/../a.json"], { cwd: dir }), "is the input a.json", /would be overwritten/);
    expect(readFileSync(path.join(dir, "a.json"), "utf8")).toBe(JSON_DEFINITION);
  });
});

describe("-o - and /dev/stdout are standard output", () => {
  it("writes to standard output, whether it is a pipe or a file", () => {
    const dir = tempDir({ "a.wf": SOURCE });
    for (const output of ["-", "/dev/stdout"]) {
      const run = runCli(["compile", "a.wf", "-o", output], { cwd: dir });
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON_DEFINITION));
    }
    // Standard output redirected to a file: `-o /dev/stdout` and `-o out.json` name that same
    // file, which is written through the shell's descriptor, not replaced behind its back.
    symlinkSync("/dev/stdout", path.join(dir, "stdout-link"));
    for (const output of ["/dev/stdout", "out.json", "stdout-link"]) {
      writeFileSync(path.join(dir, "out.json"), "");
      const shell = spawnSync("sh", ["-c", `"${process.execPath}" "${bin}" compile a.wf -o "${output}" > out.json`], { cwd: dir, encoding: "utf8" });
      expect(shell.status, shell.stderr).toBe(0);
      expect(JSON.parse(readFileSync(path.join(dir, "out.json"), "utf8"))).toEqual(JSON.parse(JSON_DEFINITION));
    }
  });

  it("a shell pipe (a FIFO) that is standard output is written, not refused", () => {
    const dir = tempDir({ "a.wf": SOURCE });
    const shell = spawnSync("sh", ["-c", `"${process.execPath}" "${bin}" compile a.wf -o /dev/stdout | cat`], { cwd: dir, encoding: "utf8", timeout: 30_000 });
    expect(shell.status, shell.stderr).toBe(0);
    expect(JSON.parse(shell.stdout)).toEqual(JSON.parse(JSON_DEFINITION));
  });
});

describe("fmt --write", () => {
  it("formats the file a symbolic link points at, and the link stays a link", () => {
    const dir = tempDir({ "real.wf": UNFORMATTED });
    chmodSync(path.join(dir, "real.wf"), 0o600);
    symlinkSync("real.wf", path.join(dir, "link.wf"));
    const run = runCli(["fmt", "--write", "link.wf"], { cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe("link.wf\n");
    expect(lstatSync(path.join(dir, "link.wf")).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(dir, "real.wf"), "utf8")).toBe(SOURCE);
    expect(statSync(path.join(dir, "real.wf")).mode & 0o777).toBe(0o600);
    expect(strayFiles(dir, ["real.wf", "link.wf"])).toEqual([]);
  });

  it("refuses a read-only file with one line naming it, formats the others, and exits 2", () => {
    const dir = tempDir({ "locked.wf": UNFORMATTED, "open.wf": UNFORMATTED });
    chmodSync(path.join(dir, "locked.wf"), 0o444);
    const run = runCli(["fmt", "--write", "."], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toEqual(["wfkit: cannot write locked.wf: it is read-only; make it writable first if it should change"]);
    expect(run.stdout).toBe("open.wf\n");
    expect(readFileSync(path.join(dir, "locked.wf"), "utf8")).toBe(UNFORMATTED);
    expect(readFileSync(path.join(dir, "open.wf"), "utf8")).toBe(SOURCE);
  });
});

describe("fmt --check on a tree with a file that does not parse", () => {
  it("names the file that could not be formatted and exits 2; would-change alone is 1", () => {
    const dir = tempDir({ "bad.wf": "trigger t on_demand ->\n", "messy.wf": UNFORMATTED, "fine.wf": SOURCE });
    const run = runCli(["fmt", "--check", "."], { cwd: dir });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("messy.wf\n");
    expect(run.stderr).toContain("wfkit: bad.wf could not be formatted: it does not parse (1 syntax error, shown above)");
    const messyOnly = runCli(["fmt", "--check", "messy.wf", "fine.wf"], { cwd: dir });
    expect(messyOnly.status).toBe(1);
    expect(runCli(["fmt", "--check", "fine.wf"], { cwd: dir }).status).toBe(0);
  });

  it("this repository's examples pass: the broken ones are ignored by examples/wfkit.config.json", () => {
    const repo = path.resolve(import.meta.dirname, "../..");
    const run = runCli(["fmt", "--check", "examples"], { cwd: repo });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
  });
});
