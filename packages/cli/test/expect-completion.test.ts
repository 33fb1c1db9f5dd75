/**
 * `wfkit completion bash|zsh|fish`: the scripts the BUILT CLI prints, run in the real shells.
 * bash: sourced in `bash -c`, its function called with COMP_WORDS and COMP_CWORD as bash sets
 * them. fish: `complete -C` asks fish itself what it would offer. zsh: an interactive zsh in a
 * pseudo-terminal (zsh/zpty) types the line and TAB, and the listing zsh draws is read. A shell
 * that is not installed is installed first (test/support/debian.ts); each script is also checked
 * to name every command and flag of the command table, which it is generated from.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMON_FLAGS } from "../src/args.js";
import { choicesOf, commandModel } from "../src/commands/completion.js";
import { COMMANDS } from "../src/main.js";
import { ensureBuilt, runCli } from "../../../test/support/built-cli.js";
import { ensureCommands } from "../../../test/support/debian.js";

const scripts: Record<string, string> = {};
let dir: string;

beforeAll(() => {
  ensureCommands(["bash", "zsh", "fish"]);
  ensureBuilt();
  // Kept for the whole file (helpers' tempTree is removed after each test).
  dir = mkdtempSync(path.join(os.tmpdir(), "wfkit-completion-"));
  mkdirSync(path.join(dir, "flows"));
  for (const file of ["flows/a.wf", "flows/b.json", "notes.txt"]) writeFileSync(path.join(dir, file), "");
  for (const shell of ["bash", "zsh", "fish"]) {
    const result = runCli(["completion", shell]);
    expect(result.status, result.stderr).toBe(0);
    scripts[shell] = result.stdout;
    writeFileSync(path.join(dir, `wfkit.${shell}`), result.stdout);
  }
  // Installing a shell from Debian's mirrors, the first time only, takes a while.
}, 360_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("generated from the command table", () => {
  it("every script names every command and every long flag", () => {
    for (const [shell, script] of Object.entries(scripts))
      for (const { spec } of COMMANDS) {
        expect(script, `${shell}: ${spec.name}`).toContain(spec.name);
        for (const flag of Object.keys({ ...spec.flags, ...COMMON_FLAGS })) expect(script, `${shell}: ${spec.name} --${flag}`).toMatch(new RegExp(`(--|-l )${flag}\\b`));
      }
  });

  it("reads choices and actions from the specs", () => {
    const flag = (command: string, name: string) => COMMANDS.find((c) => c.spec.name === command)!.spec.flags[name]!;
    expect(choicesOf(flag("check", "format"))).toEqual(["pretty", "json", "sarif", "github", "rdjsonl"]);
    expect(choicesOf(flag("check", "fix-type"))).toEqual(["problem", "layout"]);
    expect(choicesOf(flag("graph", "format"))).toEqual(["mermaid", "dot", "svg"]);
    expect(choicesOf(flag("estimate", "format"))).toEqual(["table", "json"]);
    expect(choicesOf(flag("runs", "state"))).toEqual(["open", "terminal", "all"]);
    expect(choicesOf(flag("signals", "geography"))).toEqual(["US", "UK"]);
    expect(choicesOf(flag("signals", "severity"))).toEqual(["high", "medium", "low"]);
    expect(choicesOf(flag("signals", "category"))).toBeUndefined();
    expect(choicesOf(flag("check", "catalogue"))).toBeUndefined();
    const model = (name: string) => commandModel(COMMANDS.find((c) => c.spec.name === name)!.spec);
    expect(model("runs").actions.map((a) => a.name)).toEqual(["list", "show", "watch", "deliver", "cancel"]);
    expect(model("alerts").actions).toEqual([
      { name: "list", argument: "any" },
      { name: "create", argument: "files" },
      { name: "notifications", argument: "any" },
    ]);
    expect(model("check")).toMatchObject({ actions: [], argument: "files" });
    expect(model("init")).toMatchObject({ actions: [], argument: "directories" });
    expect(model("check").flags.find((f) => f.long === "catalogue")!.value).toEqual({ kind: "files" });
  });

  it("refuses a shell it does not know", () => {
    const result = runCli(["completion", "tcsh"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("say which shell: `completion bash`, `completion zsh` or `completion fish` (got `tcsh`)");
  });
});

describe("bash", () => {
  /** What `_wfkit` puts in COMPREPLY for the words typed (the last one being completed). */
  function complete(...words: string[]): string[] {
    const quoted = words.map((word) => `'${word}'`).join(" ");
    const script = `source ./wfkit.bash; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _wfkit; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const result = spawnSync("bash", ["--norc", "-c", script], { cwd: dir, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout.split("\n").filter(Boolean).sort();
  }

  it("completes commands, actions, flags, their values and files", () => {
    expect(spawnSync("bash", ["-n", path.join(dir, "wfkit.bash")]).status).toBe(0);
    expect(complete("wfkit", "c")).toEqual(["catalogue", "check", "compile", "completion"]);
    expect(complete("wfkit", "runs", "")).toEqual(["cancel", "deliver", "list", "show", "watch"]);
    expect(complete("wfkit", "runs", "--workflow", "x", "s")).toEqual(["show"]);
    expect(complete("wfkit", "runs", "list", "--state", "")).toEqual(["all", "open", "terminal"]);
    expect(complete("wfkit", "check", "--fi")).toEqual(["--fix", "--fix-type"]);
    expect(complete("wfkit", "check", "--format", "s")).toEqual(["sarif"]);
    expect(complete("wfkit", "check", "-f", "")).toEqual(["github", "json", "pretty", "rdjsonl", "sarif"]);
    expect(complete("wfkit", "check", "flows/")).toEqual(["flows/a.wf", "flows/b.json"]);
    expect(complete("wfkit", "check", "--catalogue", "no")).toEqual(["notes.txt"]);
    expect(complete("wfkit", "deploy", "--timeout", "")).toEqual([]);
    expect(complete("wfkit", "alerts", "create", "fl")).toEqual(["flows"]);
    expect(complete("wfkit", "alerts", "list", "")).toEqual([]);
    expect(complete("wfkit", "init", "")).toEqual(["flows"]);
    expect(complete("wfkit", "completion", "")).toEqual(["bash", "fish", "zsh"]);
    expect(complete("wfkit", "help", "ru")).toEqual(["run", "runs"]);
    expect(complete("wfkit", "--v")).toEqual(["--version"]);
  });
});

describe("fish", () => {
  /** What fish offers for the command line, without descriptions. */
  function complete(line: string): string[] {
    const result = spawnSync("fish", ["--no-config", "-c", `source ./wfkit.fish; complete -C '${line}'`], { cwd: dir, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout
      .split("\n")
      .filter(Boolean)
      .map((entry) => entry.split("\t")[0]!)
      .sort();
  }

  it("completes commands, actions, flags, their values and files", () => {
    expect(spawnSync("fish", ["--no-config", "-n", path.join(dir, "wfkit.fish")]).status).toBe(0);
    expect(complete("wfkit c")).toEqual(["catalogue", "check", "compile", "completion"]);
    expect(complete("wfkit runs ")).toEqual(["cancel", "deliver", "list", "show", "watch"]);
    expect(complete("wfkit runs list --state ")).toEqual(["all", "open", "terminal"]);
    expect(complete("wfkit check --fi")).toEqual(["--fix", "--fix-type"]);
    expect(complete("wfkit check --format s")).toEqual(["sarif"]);
    expect(complete("wfkit check flows/")).toEqual(["flows/a.wf", "flows/b.json"]);
    expect(complete("wfkit alerts list ")).toEqual([]);
    expect(complete("wfkit completion ")).toEqual(["bash", "fish", "zsh"]);
  });
});

describe("zsh", () => {
  /** The words zsh lists after TAB on `line`, typed into an interactive zsh in a pseudo-terminal. */
  function complete(line: string): string {
    const driver = `
zmodload zsh/zpty
zpty z 'zsh -f -i'
zpty -w z 'PS1="> "; cd ${dir}; autoload -U compinit; compinit -u -D; source ./wfkit.zsh; echo READ""Y'
zpty -r -m z ignored '*READY*'
zpty -w -n z $'${line}\\t'
sleep 1
local out line
while zpty -r -t z line; do out+=$line; done
zpty -d z
print -r -- "$out"
`;
    const result = spawnSync("zsh", ["-f", "-c", driver], { encoding: "utf8", timeout: 20_000 });
    expect(result.status, result.stderr).toBe(0);
    // What zsh drew after READY (the echoed command says READ""Y, so only the output matches): the listing, or the line completed in place; escapes dropped.
    return result.stdout.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, " ").replace(/[\u0000-\u001f]/g, " ");
  }

  it("completes actions, flag values and commands in a real interactive zsh", () => {
    expect(spawnSync("zsh", ["-n", path.join(dir, "wfkit.zsh")]).status).toBe(0);
    expect(complete("wfkit runs ")).toMatch(/cancel\s+deliver\s+list\s+show\s+watch/);
    expect(complete("wfkit check --format ")).toMatch(/github\s+json\s+pretty\s+rdjsonl\s+sarif/);
    expect(complete("wfkit comp")).toMatch(/compile.*completion/);
    expect(complete("wfkit completion ")).toMatch(/bash\s+fish\s+zsh/);
    expect(complete("wfkit runs list --t")).toMatch(/--timeout.*--token-file/);
    expect(complete("wfkit alerts create flows/")).toMatch(/a\.wf\s+b\.json/);
    expect(complete("wfkit check --catalogue flows/")).toMatch(/a\.wf\s+b\.json/);
  });
});
