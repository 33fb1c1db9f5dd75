// Node ids and file names that carry line breaks and control sequences, through the BUILT CLI
// as a child process, in every command and output format. GitHub Actions runs any log line
// that starts with `::` (`::error`, `::add-mask::`) as a command, and a terminal obeys ESC and
// C1 sequences (colours, OSC 8 hyperlinks, OSC 52 clipboard writes), BEL and CR. What a file
// supplies must never start a line of wfkit's output or reach the terminal raw.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { decompile } from "../../packages/dsl/src/index.js";
import { ensureBuilt, runCli, tempDir } from "./support.js";
import type { RunResult } from "../support/built-cli.js";

beforeAll(() => ensureBuilt());

function mkfifoSync(file: string): void {
  expect(spawnSync("mkfifo", [file]).status).toBe(0);
}

/** Each one is an attack on its own; together they are the node ids and file names below. */
const HOSTILE = {
  newlineError: "a\n::error file=x.wf,line=1::pwned",
  addMask: "b\n::add-mask::hunter2",
  sgr: "c\u001b[31mred\u001b[0m",
  osc8: "d\u001b]8;;https://example.invalid/\u0007click\u001b]8;;\u0007",
  osc52: "e\u001b]52;c;aGk=\u0007",
  bel: "f\u0007\u0007",
  crOverwrite: "g\r::error::overwritten",
  lineSeparator: "h\u2028::error::separated",
  paragraphSeparator: "i\u2029::warning::p",
  nextLine: "j\u0085::error::nel",
  c1Csi: "k\u009b31mcsi",
} as const;
const ids = Object.values(HOSTILE);

/** Raw in output, each of these is an attack (wfkit's own output has none: colour is off here). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
/** The lines GitHub would run as commands: wfkit's own annotations only, in the github format. */
const OWN_ANNOTATION = /^::(error|warning) file=[^\n]*,title=wfkit [a-z-]+::/;

function definitionWith(hostileIds: readonly string[]) {
  const [trigger, ...rest] = hostileIds;
  return {
    schemaVersion: 1,
    nodes: [
      { id: trigger, kind: "trigger", trigger: { kind: "on_demand" } },
      ...rest.map((id) => ({ id, partId: "pack", partVersion: "1" })),
      { id: "out", kind: "destination", destination: { kind: "standalone" } },
    ],
    // A chain through every part, then edges to undeclared hostile ids: messages quote them.
    edges: [
      ...hostileIds.map((from, i) => ({ from, to: hostileIds[i + 1] ?? "out" })),
      { from: trigger, to: `${HOSTILE.osc52}missing` },
      { from: rest[0], to: `${HOSTILE.newlineError}missing` },
    ],
  };
}

const definition = definitionWith(ids);
const json = JSON.stringify(definition, null, 2);
const wf = decompile(definition);

/** A file name made of a hostile string (a name cannot hold `/`). */
const fileName = (id: string, extension: string) => `${id.replace(/\//g, "_")}.${extension}`;
const jsonNames = ids.map((id) => fileName(id, "json"));
const wfNames = ids.map((id) => fileName(id, "wf"));

/** A directory of files whose names are the hostile strings, each holding the hostile graph. */
function hostileTree(): { dir: string; jsonNames: string[]; wfNames: string[] } {
  const dir = tempDir();
  for (const name of jsonNames) writeFileSync(path.join(dir, name), json);
  for (const name of wfNames) writeFileSync(path.join(dir, name), wf);
  return { dir, jsonNames, wfNames };
}

function expectSafe(run: RunResult, label: string, allowOwnAnnotations = false): void {
  expect(run.stderr, label).not.toMatch(/internal error|\n\s+at /);
  for (const [stream, text] of [["stdout", run.stdout], ["stderr", run.stderr]] as const) {
    const raw = RAW_CONTROL.exec(text);
    expect(raw === null, `${label} ${stream}: raw U+${raw?.[0].charCodeAt(0).toString(16).padStart(4, "0")} at ${raw?.index}`).toBe(true);
    for (const line of text.split("\n")) {
      if (!line.startsWith("::")) continue;
      expect(allowOwnAnnotations && stream === "stdout", `${label} ${stream}: a line starts with :: :\n${line}`).toBe(true);
      // The hostile text may follow as the annotation's data: only a line's start is a command.
      expect(line, label).toMatch(OWN_ANNOTATION);
    }
  }
}

describe("hostile ids and file names in every output a person or a CI log reads", () => {
  it("check, in every format, over files named and filled with hostile text", () => {
    const { dir } = hostileTree();
    for (const format of ["pretty", "github", "json", "rdjsonl"]) {
      const run = runCli(["check", ".", "--format", format], { cwd: dir });
      expect(run.status, `${format}: ${run.stderr.slice(0, 300)}`).toBe(1);
      expectSafe(run, `check --format ${format}`, format === "github");
      if (format === "github") expect(run.stdout.split("\n").filter(Boolean).every((line) => OWN_ANNOTATION.test(line))).toBe(true);
      if (format === "rdjsonl") {
        // One record per line, and each record keeps the hostile text exactly, as data.
        const records = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { message: string; location: { path: string } });
        expect(new Set(records.map((record) => record.location.path))).toEqual(new Set([...jsonNames, ...wfNames]));
        expect(records.some((record) => record.message.includes(HOSTILE.osc52))).toBe(true);
      }
      if (format === "json") {
        const report = JSON.parse(run.stdout) as { files: { path: string; faults: { message: string; nodeId: string | null }[] }[] };
        expect(report.files.map((file) => file.path).sort()).toEqual([...jsonNames, ...wfNames].sort());
        // JSON keeps the text exactly, as data.
        expect(report.files[0]!.faults.some((fault) => fault.message.includes(`${HOSTILE.newlineError}missing`))).toBe(true);
      }
    }
  });

  it("sarif: every record parses and no line of it is a workflow command", () => {
    const { dir } = hostileTree();
    const run = runCli(["check", ".", "--format", "sarif"], { cwd: dir });
    expect(run.status).toBe(1);
    expect(() => JSON.parse(run.stdout)).not.toThrow();
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    // JSON.stringify leaves C1 controls and line separators raw; SARIF escapes them as the json format does.
    expect(run.stdout).not.toMatch(/[\u0080-\u009f\u2028\u2029]/);
    expect(run.stdout.split("\n").some((line) => line.startsWith("::"))).toBe(false);
  });

  it("pretty with colours forced: the only escape sequences are wfkit's own colours", () => {
    const { dir } = hostileTree();
    const plain = runCli(["check", "."], { cwd: dir });
    const coloured = runCli(["check", "."], { cwd: dir, env: { FORCE_COLOR: "1" } });
    expect(coloured.stdout).toMatch(/\u001b\[31m/);
    expect(coloured.stdout.replace(/\u001b\[\d+m/g, "")).toBe(plain.stdout);
    expectSafe(plain, "check (no colour)");
  });

  it("compile, decompile, graph and estimate on each hostile file", () => {
    const { dir, jsonNames, wfNames } = hostileTree();
    for (let i = 0; i < ids.length; i++) {
      const compiled = runCli(["compile", wfNames[i]!], { cwd: dir });
      // The graph has faults (dangling edges): compile refuses it, printing them on stderr.
      expect(compiled.status, compiled.stderr.slice(0, 300)).toBe(1);
      expectSafe(compiled, `compile ${JSON.stringify(wfNames[i])}`);
      // The graph's labels and decompile's text hold the same ids whatever the file's name.
      if (i % 4 !== 0) continue;
      const decompiled = runCli(["decompile", jsonNames[i]!], { cwd: dir });
      expect(decompiled.status).toBe(0);
      expectSafe(decompiled, `decompile ${JSON.stringify(jsonNames[i])}`);
      for (const format of ["mermaid", "dot"]) {
        const graph = runCli(["graph", jsonNames[i]!, "--format", format], { cwd: dir });
        expect(graph.status).toBe(0);
        expectSafe(graph, `graph --format ${format} ${JSON.stringify(jsonNames[i])}`);
      }
    }
    for (const format of ["table", "json"]) {
      const estimate = runCli(["estimate", ".", "--format", format], { cwd: dir });
      expect(estimate.status).toBe(1);
      expectSafe(estimate, `estimate --format ${format}`);
    }
  });

  it("decompile's output keeps every hostile id exactly: it compiles back to the same graph", () => {
    const clean = {
      schemaVersion: 1,
      nodes: [
        { id: HOSTILE.newlineError, kind: "trigger", trigger: { kind: "on_demand" } },
        {
          id: HOSTILE.c1Csi,
          partId: "terminal.profile",
          partVersion: "1",
          terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [{ canonicalId: "cmp_cost", kind: "company", label: HOSTILE.osc52 }] },
        },
        { id: HOSTILE.sgr, partId: "pack", partVersion: "1" },
        { id: HOSTILE.osc8, kind: "destination", destination: { kind: "standalone" } },
      ],
      edges: [
        { from: HOSTILE.newlineError, to: HOSTILE.c1Csi },
        { from: HOSTILE.c1Csi, to: HOSTILE.sgr },
        { from: HOSTILE.sgr, to: HOSTILE.osc8 },
      ],
    };
    const dir = tempDir({ "clean.json": JSON.stringify(clean) });
    const decompiled = runCli(["decompile", "clean.json", "-o", "clean.wf"], { cwd: dir });
    expect(decompiled.status, decompiled.stderr).toBe(0);
    const compiled = runCli(["compile", "clean.wf"], { cwd: dir });
    expectSafe(compiled, "compile of the decompiled text");
    expect(compiled.status, compiled.stderr).toBe(0);
    expect(JSON.parse(compiled.stdout)).toEqual(clean);
    const estimate = runCli(["estimate", "clean.json"], { cwd: dir });
    expect(estimate.status).toBe(0);
    expectSafe(estimate, "estimate table of hostile node ids");
    expect(estimate.stdout).toContain("k\\u009b31mcsi");
    expect(estimate.stdout).toContain("c\\u001b[31mred\\u001b[0m");
  });

  it("fmt lists hostile file names safely, and names the ones it could not format", () => {
    const { dir, wfNames } = hostileTree();
    for (const name of wfNames) writeFileSync(path.join(dir, name), `trigger   ${JSON.stringify(HOSTILE.sgr)}   on_demand\n`);
    writeFileSync(path.join(dir, fileName(`${HOSTILE.newlineError}broken`, "wf")), "trigger t on_demand ->\n");
    const check = runCli(["fmt", "--check", "."], { cwd: dir });
    expect(check.status).toBe(2);
    expectSafe(check, "fmt --check");
    expect(check.stdout.trimEnd().split("\n")).toHaveLength(wfNames.length);
    expect(check.stderr).toContain("a\\n::error file=x.wf,line=1::pwnedbroken.wf could not be formatted: it does not parse");
    const write = runCli(["fmt", "--write", "."], { cwd: dir });
    expectSafe(write, "fmt --write");
  });

  it("error messages on stderr: missing files, usage errors, refused outputs", () => {
    const dir = tempDir({ "a.wf": "trigger t on_demand\ndestination d standalone\nt -> d\n" });
    const fifo = path.join(dir, fileName(HOSTILE.osc52, "json"));
    mkfifoSync(fifo);
    const runs: [string, RunResult][] = [
      ["check missing", runCli(["check", `${HOSTILE.newlineError}.wf`], { cwd: dir })],
      ["compile missing", runCli(["compile", `${HOSTILE.crOverwrite}.wf`], { cwd: dir })],
      ["unknown flag", runCli(["check", `--${HOSTILE.addMask}`], { cwd: dir })],
      ["unknown command", runCli([HOSTILE.sgr], { cwd: dir })],
      ["fmt of json", runCli(["fmt", `${HOSTILE.c1Csi}.json`], { cwd: dir, stdin: "" })],
      ["-o to a fifo", runCli(["compile", "a.wf", "-o", path.basename(fifo)], { cwd: dir })],
      ["stdin name", runCli(["check", "-", "--stdin-filename", `${HOSTILE.lineSeparator}.wf`], { cwd: dir, stdin: "trigger t nope\n" })],
    ];
    for (const [label, run] of runs) {
      expect(run.status, `${label}: ${run.stderr}`).not.toBe(0);
      expectSafe(run, label);
    }
  });
});
