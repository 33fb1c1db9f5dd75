/**
 * `wfkit init` through the BUILT CLI: the files it writes (a config @wfkit/project reads, a
 * first workflow that `wfkit check` passes), the next steps it prints, and that it never
 * overwrites anything: a file, a directory or a dangling link in the way is left and named,
 * and with nothing written the exit status is 1.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

beforeAll(() => ensureBuilt());

describe("wfkit init", () => {
  it("writes a config and a first workflow that passes check, and prints the next steps", () => {
    const cwd = tempTree();
    const result = runCli(["init"], { cwd });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("created wfkit.config.json  (settings: catalogue, severities, ignores, the service)\ncreated flows/first.wf  (a first workflow)\n");
    expect(result.stdout).toContain("flows/first.wf passes `wfkit check` (estimate 80 minor units per run)\n");
    for (const step of ["Editor:", "wfkit lsp --stdio", "pre-commit:", "id: wfkit-check", "CI:", "wfkit check --format github --max-warnings 0", "wfkit fmt --check", "docs/install.md#github-actions", "wfkit deploy flows/first.wf --dry-run", "wfkit completion"])
      expect(result.stdout).toContain(step);
    expect(readdirSync(cwd).sort()).toEqual(["flows", "wfkit.config.json"]);
    expect(readdirSync(path.join(cwd, "flows"))).toEqual(["first.wf"]);

    const check = runCli(["check"], { cwd });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain("ok flows/first.wf");
    const fmt = runCli(["fmt", "--check"], { cwd });
    expect(fmt.status, fmt.stdout + fmt.stderr).toBe(0);
    // The config is one @wfkit/project reads (it would be an exit 2 otherwise), with its settings explained.
    const config = readFileSync(path.join(cwd, "wfkit.config.json"), "utf8");
    for (const key of ['"catalogue"', '"baseUrl"', '"severity"', '"ignore"']) expect(config).toContain(key);
  });

  it("never overwrites: what exists is kept and named; exit 1 when nothing could be written", () => {
    const cwd = tempTree({ "wfkit.config.json": '{ "ignore": ["x/**"] }\n' });
    const partly = runCli(["init"], { cwd });
    expect(partly.status, partly.stderr).toBe(0);
    expect(partly.stderr).toBe("wfkit: kept wfkit.config.json: it exists (wfkit init never overwrites a file)\n");
    expect(readFileSync(path.join(cwd, "wfkit.config.json"), "utf8")).toBe('{ "ignore": ["x/**"] }\n');
    expect(partly.stdout).toContain("created flows/first.wf");

    const workflow = readFileSync(path.join(cwd, "flows", "first.wf"), "utf8");
    writeFileSync(path.join(cwd, "flows", "first.wf"), workflow + "# mine\n");
    const again = runCli(["init"], { cwd });
    expect(again.status).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toBe(
      [
        "wfkit: kept wfkit.config.json: it exists (wfkit init never overwrites a file)",
        "wfkit: kept flows/first.wf: it exists (wfkit init never overwrites a file)",
        "wfkit: nothing was written (see above)",
        "",
      ].join("\n"),
    );
    expect(readFileSync(path.join(cwd, "flows", "first.wf"), "utf8")).toBe(workflow + "# mine\n");
    expect(readdirSync(path.join(cwd, "flows"))).toEqual(["first.wf"]); // no temporary file left behind
  });

  it("leaves a dangling link and a directory in the way alone, and makes DIR with --name", () => {
    const cwd = tempTree();
    mkdirSync(path.join(cwd, "research", "flows"), { recursive: true });
    symlinkSync(path.join(cwd, "nowhere.json"), path.join(cwd, "research", "wfkit.config.json"));
    mkdirSync(path.join(cwd, "research", "flows", "grocers.wf"));
    const result = runCli(["init", "research", "--name", "grocers"], { cwd });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("kept research/wfkit.config.json: it exists");
    expect(result.stderr).toContain("kept research/flows/grocers.wf: it exists");
    expect(readlinkSync(path.join(cwd, "research", "wfkit.config.json"))).toBe(path.join(cwd, "nowhere.json"));
    expect(existsSync(path.join(cwd, "nowhere.json"))).toBe(false);
    expect(lstatSync(path.join(cwd, "research", "flows", "grocers.wf")).isDirectory()).toBe(true);

    const fresh = runCli(["init", "new/place", "--name", "grocer-compare"], { cwd });
    expect(fresh.status, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain("created new/place/flows/grocer-compare.wf");
    expect(readFileSync(path.join(cwd, "new/place/flows/grocer-compare.wf"), "utf8")).toContain('workflow "grocer-compare"\n');
    expect(fresh.stdout).toContain("cd new/place && wfkit check");
    expect(runCli(["check", "new/place"], { cwd }).status).toBe(0);
  });

  it("refuses a bad --name and more than one directory", () => {
    const cwd = tempTree();
    for (const args of [["init", "--name", "../escape"], ["init", "--name", ""], ["init", "a", "b"]]) {
      const result = runCli(args, { cwd });
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/^wfkit init: .*\(see `wfkit init --help`\)\n$/);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });
});
