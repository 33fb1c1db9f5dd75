/**
 * `wfkit check --fix` through the BUILT CLI, on copies of the broken examples
 * (examples/broken) and the CLI's `.wf` fixtures: the fixed text of every file against a
 * golden (test/golden/fix/, one file per input, readable as the user's file would be after
 * the fix), the command's output against another, comments kept, and a second run that
 * changes nothing. Regenerate with `UPDATE_GOLDEN=1 npx vitest run
 * packages/cli/test/expect-fix.test.ts`, then read the diff.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cliRoot, ensureBuilt, fixtures, repoRoot, runCli } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

const goldenDir = path.join(cliRoot, "test", "golden", "fix");
const update = process.env.UPDATE_GOLDEN === "1";

/** The inputs, by the path they get in the project copied for the test. */
function inputs(): Record<string, string> {
  const files: Record<string, string> = { "wfkit.config.json": "{}\n" };
  const take = (directory: string, prefix: string, keep: (name: string) => boolean) => {
    for (const name of readdirSync(directory).sort()) if (keep(name)) files[`${prefix}/${name}`] = readFileSync(path.join(directory, name), "utf8");
  };
  take(path.join(repoRoot, "examples", "broken"), "examples-broken", (name) => name.endsWith(".wf") || name.endsWith(".json") && !name.endsWith(".diagnostics.json"));
  take(path.join(fixtures, "wf"), "fixtures-wf", (name) => name.endsWith(".wf"));
  return files;
}

function golden(name: string, actual: string): void {
  const file = path.join(goldenDir, name);
  if (update) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
  }
  expect(existsSync(file), `missing golden ${path.relative(cliRoot, file)}; run with UPDATE_GOLDEN=1 and review it`).toBe(true);
  expect(actual, `golden ${path.relative(cliRoot, file)}`).toBe(readFileSync(file, "utf8"));
}

const comments = (text: string) => text.split(/\r?\n/).flatMap((line) => (/#.*$/.exec(line)?.[0] ? [/#.*$/.exec(line)![0].trim()] : []));

beforeAll(() => ensureBuilt());

describe("wfkit check --fix", () => {
  it("fixes the broken examples and fixtures in place: goldens of the fixed text and of the output, comments kept, idempotent", () => {
    const files = inputs();
    const cwd = tempTree(files);
    const first = runCli(["check", "--fix", "."], { cwd });
    golden("check-fix.txt", `$ wfkit check --fix .\n--- exit ${first.status}\n--- stdout\n${first.stdout}--- stderr\n${first.stderr}`);
    expect(first.status).toBe(1); // errors remain that no fix is safe for
    for (const [name, before] of Object.entries(files)) {
      if (name === "wfkit.config.json") continue;
      const after = readFileSync(path.join(cwd, name), "utf8");
      golden(name, after);
      expect(comments(after), `${name} keeps its comments`).toEqual(comments(before));
      if (name.endsWith(".json")) expect(after, "JSON files are left as they are").toBe(before);
    }
    // The report is of the fixed text: it is what a plain check of the fixed files says.
    const plain = runCli(["check", "."], { cwd });
    expect(plain.stdout).toBe(first.stdout);
    // A second run finds nothing left to fix and writes nothing.
    const mtimes = Object.keys(files).map((name) => statSync(path.join(cwd, name)).mtimeMs);
    const second = runCli(["check", "--fix", "."], { cwd });
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toBe("wfkit: --fix: 0 problems fixed, 0 files formatted, 0 files rewritten; the report is of the fixed text\n");
    expect(Object.keys(files).map((name) => statSync(path.join(cwd, name)).mtimeMs)).toEqual(mtimes);
  });

  it("--fix-type problem keeps the layout; --fix-type layout only formats", () => {
    const text = "# first\ntrigger   start on_demand\npart report=pakc@1   # typo\ndestination inbox standalone\nstart->report->inbox\n";
    const cwd = tempTree({ "wfkit.config.json": "{}", "a.wf": text, "b.wf": text });
    const problems = runCli(["check", "--fix-type", "problem", "a.wf"], { cwd });
    expect(problems.status, problems.stderr).toBe(1); // pack needs a result that start does not make: no fix for that
    expect(problems.stdout).toContain("error[edge-incompatible]");
    expect(problems.stdout).not.toContain("part-unknown");
    expect(readFileSync(path.join(cwd, "a.wf"), "utf8")).toBe(text.replace("pakc", "pack"));
    expect(problems.stderr).toBe("wfkit: fixed a.wf: 1 problem (part-unknown: Change to `pack`)\nwfkit: --fix: 1 problem fixed, 1 file rewritten; the report is of the fixed text\n");
    const layout = runCli(["check", "--fix-type", "layout", "b.wf"], { cwd });
    expect(layout.status).toBe(1);
    expect(readFileSync(path.join(cwd, "b.wf"), "utf8")).toBe("# first\ntrigger start on_demand\npart report = pakc@1  # typo\ndestination inbox standalone\nstart -> report -> inbox\n");
    expect(layout.stdout).toContain("error[part-unknown]");
  });

  it("refuses standard input and a bad --fix-type, and reports a file it cannot write as it is", () => {
    const cwd = tempTree({ "wfkit.config.json": "{}", "ro.wf": "trigger start on_demand\npart report = pakc@1\ndestination inbox standalone\nstart -> report -> inbox\n" });
    const stdin = runCli(["check", "--fix", "-"], { cwd, stdin: "trigger start on_demand\n" });
    expect(stdin.status).toBe(2);
    expect(stdin.stderr).toMatch(/--fix rewrites files in place, and standard input is not a file/);
    const bad = runCli(["check", "--fix-type", "style", "ro.wf"], { cwd });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--fix-type takes problem, layout/);
    chmodSync(path.join(cwd, "ro.wf"), 0o444);
    const readOnly = runCli(["check", "--fix", "ro.wf"], { cwd });
    expect(readOnly.status).toBe(1);
    expect(readOnly.stderr).toMatch(/cannot write ro\.wf: it is read-only.*; its problems are reported as they are/);
    expect(readOnly.stdout).toContain("error[part-unknown]");
    expect(readFileSync(path.join(cwd, "ro.wf"), "utf8")).toContain("pakc@1");
  });
});
