/**
 * The built CLI's contracts, run as a child process: exit codes, stdin, config, atomic
 * writes, SARIF validity, and the language server's start. Exact output is pinned by the
 * golden files (golden.test.ts); these tests pin behaviour.
 */
import { chmodSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { sarifValidator } from "../../../test/support/sarif-schema.js";
import { beforeAll, describe, expect, it } from "vitest";
import { bin, ensureBuilt, fixtures, runCli } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

beforeAll(() => ensureBuilt());

const brief = readFileSync(path.join(fixtures, "wf/brief.wf"), "utf8");
const unformatted = readFileSync(path.join(fixtures, "wf/unformatted.wf"), "utf8");

describe("exit codes", () => {
  it("0 when every file is valid", () => {
    expect(runCli(["check", "wf/brief.wf", "defs/brief.workflow.json"]).status).toBe(0);
  });

  it("0 with warnings, and 1 once they pass --max-warnings", () => {
    expect(runCli(["check", "defs/warnings.json"]).status).toBe(0);
    expect(runCli(["check", "defs/warnings.json", "--max-warnings", "2"]).status).toBe(0);
    expect(runCli(["check", "defs/warnings.json", "--max-warnings", "1"]).status).toBe(1);
  });

  it("1 for faults, and for a file that does not parse", () => {
    expect(runCli(["check", "defs/broken.json"]).status).toBe(1);
    const syntax = runCli(["check", "defs/syntax-error.json", "--format", "json"]);
    expect(syntax.status).toBe(1);
    expect(JSON.parse(syntax.stdout).files[0].faults[0]).toMatchObject({ code: "json-syntax", range: { start: { line: 4, column: 40 } } });
  });

  it("2 with one line on stderr for usage and I/O errors, never a stack trace", () => {
    const cases = [
      ["check", "wf/missing.wf"],
      ["check", "wf", "--catalogue", "missing.json"],
      ["check", "wf", "--catalogue", "defs/broken.json"],
      ["check", "bad-config"],
      ["check", "wf", "--format", "xml"],
      ["check", "wf", "--max-warnings", "many"],
      ["check", "--frobnicate"],
      ["frobnicate"],
      ["compile"],
      ["compile", "a.wf", "b.wf"],
      ["fmt", "--write", "--check"],
      ["fmt", "defs/brief.workflow.json"],
      ["graph", "wf/brief.wf", "--format", "png"],
    ];
    for (const args of cases) {
      const result = runCli(args);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stdout, args.join(" ")).toBe("");
      expect(result.stderr.trimEnd().split("\n"), args.join(" ")).toHaveLength(1);
      expect(result.stderr, args.join(" ")).toMatch(/^wfkit/);
      expect(result.stderr, args.join(" ")).not.toMatch(/\n\s+at /);
    }
  });

  it("2 for a directory with no definitions", () => {
    const root = tempTree({ "docs/readme.md": "# hi" });
    const result = runCli(["check", "docs"], { cwd: root });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe("wfkit: docs: no workflow definitions found (looked for *.wf, *.workflow.json, *.alert.json, *.view.json and .json definitions)\n");
  });

  it("--quiet hides warnings but they still count for --max-warnings", () => {
    const quiet = runCli(["check", "defs/warnings.json", "--quiet"]);
    expect(quiet).toMatchObject({ status: 0, stdout: "" });
    expect(runCli(["check", "defs/warnings.json", "--quiet", "--max-warnings", "0"]).status).toBe(1);
  });

  it("0 and a note when every file given is ignored by its config", () => {
    const result = runCli(["check", "project/drafts/idea.wf"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("wfkit: nothing to check: 1 file given is ignored (by --ignore or wfkit.config.json)\n");
  });
});

describe("choosing files", () => {
  it("--ignore leaves out matching files, in check, fmt and estimate", () => {
    const checked = runCli(["check", "wf", "--ignore", "wf/broken.wf", "--ignore", "wf/syntax.wf", "--format", "json"]);
    const paths = JSON.parse(checked.stdout).files.map((file: { path: string }) => file.path);
    expect(paths).toEqual(["wf/brief.wf", "wf/unformatted.wf", "wf/wide.wf"]);
    expect(runCli(["fmt", "--check", "wf", "--ignore", "**/syntax.wf", "--ignore", "wf/wide.wf"])).toMatchObject({ status: 1, stdout: "wf/unformatted.wf\n" });
    expect(runCli(["estimate", "wf", "--ignore", "wf/{broken,syntax,wide}.wf", "--format", "json"]).status).toBe(0);
  });

  it("estimate walks directories and reports each file", () => {
    const result = runCli(["estimate", "wf", "--format", "json"]);
    expect(result.status).toBe(1);
    const files = JSON.parse(result.stdout).files;
    expect(files.map((file: { path: string; ok: boolean }) => [file.path, file.ok])).toEqual([
      ["wf/brief.wf", true],
      ["wf/broken.wf", false],
      ["wf/syntax.wf", false],
      ["wf/unformatted.wf", true],
      ["wf/wide.wf", false],
    ]);
    expect(files[0].estimate.costMinorUnits).toBe(220);
    expect(result.stderr).toContain("wfkit: wf/broken.wf has errors, so it has no estimate\n");
  });
});

describe("standard input", () => {
  it("checks `-` under its --stdin-filename, choosing the language by that name", () => {
    const json = readFileSync(path.join(fixtures, "defs/broken.json"), "utf8");
    const result = runCli(["check", "-", "--stdin-filename", "flows/x.json", "--format", "json"], { stdin: json });
    const file = JSON.parse(result.stdout).files[0];
    expect(file.path).toBe("flows/x.json");
    expect(file.faults.map((fault: { code: string }) => fault.code)).toContain("part-unknown");
  });

  it("guesses the language from the text without a name", () => {
    const result = runCli(["check", "-", "--format", "json"], { stdin: brief });
    expect(JSON.parse(result.stdout).files[0]).toMatchObject({ path: "<stdin>", ok: true });
  });

  it("finds the config from the stdin name's directory", () => {
    const result = runCli(["check", "-", "--stdin-filename", "project/flows/new.wf", "--format", "json"], { stdin: readFileSync(path.join(fixtures, "project/flows/fields.wf"), "utf8") });
    // The project's config makes unknown-field an error.
    expect(JSON.parse(result.stdout).files[0].faults[0]).toMatchObject({ code: "unknown-field", severity: "error" });
  });

  it("formats standard input", () => {
    expect(runCli(["fmt", "-"], { stdin: unformatted }).stdout).toBe(runCli(["fmt", "wf/unformatted.wf"]).stdout);
    expect(runCli(["fmt", "--check", "-"], { stdin: unformatted })).toMatchObject({ status: 1, stdout: "<stdin>\n" });
    expect(runCli(["fmt", "--check", "-"], { stdin: brief }).status).toBe(0);
  });
});

describe("colour", () => {
  it("is off when not a terminal, on with FORCE_COLOR, and NO_COLOR always wins", () => {
    const escape = "\u001b[";
    expect(runCli(["check", "defs/warnings.json"]).stdout).not.toContain(escape);
    expect(runCli(["check", "defs/warnings.json"], { env: { FORCE_COLOR: "1" } }).stdout).toContain(escape);
    expect(runCli(["check", "defs/warnings.json"], { env: { FORCE_COLOR: "0" } }).stdout).not.toContain(escape);
    expect(runCli(["check", "defs/warnings.json"], { env: { FORCE_COLOR: "1", NO_COLOR: "1" } }).stdout).not.toContain(escape);
    expect(runCli(["check", "defs/warnings.json", "--format", "json"], { env: { FORCE_COLOR: "1" } }).stdout).not.toContain(escape);
  });
});

describe("writing files", () => {
  it("fmt --write rewrites only files that change, keeps their mode, leaves no temporary files", () => {
    const root = tempTree({ "a.wf": unformatted, "b.wf": brief });
    chmodSync(path.join(root, "a.wf"), 0o640);
    const past = new Date("2020-01-01T00:00:00Z");
    utimesSync(path.join(root, "b.wf"), past, past);
    const result = runCli(["fmt", "--write", "."], { cwd: root });
    expect(result).toMatchObject({ status: 0, stdout: "a.wf\n" });
    expect(readFileSync(path.join(root, "a.wf"), "utf8")).toBe(runCli(["fmt", "wf/unformatted.wf"]).stdout);
    expect(statSync(path.join(root, "a.wf")).mode & 0o777).toBe(0o640);
    expect(statSync(path.join(root, "b.wf")).mtime.getTime()).toBe(past.getTime());
    expect(readdirSync(root).sort()).toEqual(["a.wf", "b.wf"]);
    // A second run has nothing to do.
    expect(runCli(["fmt", "--check", "."], { cwd: root })).toMatchObject({ status: 0, stdout: "" });
  });

  it("fmt --write leaves a file that does not parse alone and exits 2", () => {
    const broken = "trigger start on_demand\npart p = pack@1 {\n";
    const root = tempTree({ "bad.wf": broken });
    expect(runCli(["fmt", "--write", "bad.wf"], { cwd: root }).status).toBe(2);
    expect(readFileSync(path.join(root, "bad.wf"), "utf8")).toBe(broken);
  });

  it("compile -o writes the definition, and does not touch an unchanged output", () => {
    const root = tempTree({ "brief.wf": brief });
    expect(runCli(["compile", "brief.wf", "-o", "brief.workflow.json"], { cwd: root })).toMatchObject({ status: 0, stdout: "" });
    const out = path.join(root, "brief.workflow.json");
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ schemaVersion: 1 });
    const past = new Date("2020-01-01T00:00:00Z");
    utimesSync(out, past, past);
    expect(runCli(["compile", "brief.wf", "-o", "brief.workflow.json"], { cwd: root }).status).toBe(0);
    expect(statSync(out).mtime.getTime()).toBe(past.getTime());
  });

  it("compile and decompile round-trip", () => {
    const root = tempTree({ "brief.wf": brief });
    runCli(["compile", "brief.wf", "-o", "brief.json"], { cwd: root });
    expect(runCli(["decompile", "brief.json", "-o", "again.wf"], { cwd: root }).status).toBe(0);
    const again = runCli(["compile", "again.wf"], { cwd: root });
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(readFileSync(path.join(root, "brief.json"), "utf8")));
  });

  it("compile writes nothing when the source has errors", () => {
    const root = tempTree({ "broken.wf": readFileSync(path.join(fixtures, "wf/broken.wf"), "utf8") });
    expect(runCli(["compile", "broken.wf", "-o", "out.json"], { cwd: root }).status).toBe(1);
    expect(readdirSync(root)).toEqual(["broken.wf"]);
  });
});

describe("SARIF output of the built CLI", () => {
  it("validates against the SARIF 2.1.0 schema, for faults and for a clean run", () => {
    const { validate, errors } = sarifValidator();
    for (const args of [["check", "wf", "defs", "--format", "sarif"], ["check", "wf/brief.wf", "--format", "sarif"]]) {
      const log = JSON.parse(runCli(args).stdout);
      expect(validate(log), errors()).toBe(true);
    }
  });
});

describe("version and help", () => {
  it("prints the package version", () => {
    const { version } = JSON.parse(readFileSync(path.join(fixtures, "../../package.json"), "utf8"));
    expect(runCli(["--version"])).toMatchObject({ status: 0, stdout: `${version}\n` });
  });

  it("has help with examples for every command", () => {
    for (const command of ["check", "fmt", "compile", "decompile", "estimate", "graph", "lsp"]) {
      const result = runCli([command, "--help"]);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: wfkit ${command} `));
      expect(result.stdout).toContain("Examples:");
    }
  });
});

describe("wfkit lsp", () => {
  it("answers an LSP initialize request over stdio", async () => {
    const child = spawn(process.execPath, [bin, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const reply = await new Promise<string>((resolve, reject) => {
      let received = "";
      child.stdout.on("data", (chunk: Buffer) => {
        received += chunk.toString("utf8");
        if (received.includes('"capabilities"')) resolve(received);
      });
      child.on("error", reject);
      child.on("exit", (code) => reject(new Error(`the server exited (${code}) before answering: ${received}`)));
    });
    child.kill();
    expect(reply).toMatch(/^Content-Length: \d+\r\n/);
    expect(reply).toContain('"id":1');
  });
});
