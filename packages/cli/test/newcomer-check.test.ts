/**
 * What misled a newcomer (issue 30), for the commands that need no service: each through the
 * BUILT CLI as a child process, as a user, a hook or a CI job runs it.
 *
 * - `check --skip-other-json` (what the pre-commit hook runs on every staged `.wf` and
 *   `.json` file) judges a named `.json` file as a directory walk would: a broken definition
 *   and a broken alert body are reported, package.json and tsconfig.json passed over quietly;
 * - `--no-ignore` checks an ignored file on purpose;
 * - `--format sarif` and `json` print a valid empty document when every file is ignored;
 * - a config's mistakes all at once, one line each; an unknown command's did-you-mean; the
 *   `.wf` messages that spoke JSON or gave no hint of the fix;
 * - the terminal charts and the unresolved-reason words, at sizes and names that broke them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { unresolvedReasonText } from "@wfkit/dsl";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { blockChart, sparkline } from "../src/terminal-chart.js";
import { sarifValidator } from "../../../test/support/sarif-schema.js";
import { ensureBuilt, repoRoot, runCli } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

beforeAll(() => ensureBuilt());

const GROCERS = readFileSync(path.join(repoRoot, "examples", "grocer-compare.wf"), "utf8");
/** A JSON definition with a misspelt part and no trigger or destination. */
const BROKEN_DEFINITION = JSON.stringify({ schemaVersion: 1, nodes: [{ id: "a", kind: "part", partId: "pakc", partVersion: "1" }], edges: [] });
/** An alert body of an unknown type, without condition or email. */
const BROKEN_ALERT = JSON.stringify({ name: "x", type: "threshold" });

/** The hook's `entry` and `files`, as .pre-commit-hooks.yaml declares them. */
function hook(id: string): { entry: string; files: RegExp } {
  const hooks = parseYaml(readFileSync(path.join(repoRoot, ".pre-commit-hooks.yaml"), "utf8")) as { id: string; entry: string; files: string }[];
  const found = hooks.find((candidate) => candidate.id === id)!;
  return { entry: found.entry, files: new RegExp(found.files) };
}

describe("the pre-commit hook judges what wfkit check judges", () => {
  const staged = ["package.json", "tsconfig.json", "def.json", "bad.alert.json", "flow.wf", "README.md", ".wfkit/state.json"];
  const tree = () =>
    tempTree({
      "package.json": JSON.stringify({ name: "x", version: "1.0.0" }),
      "tsconfig.json": JSON.stringify({ compilerOptions: {} }),
      "def.json": BROKEN_DEFINITION,
      "bad.alert.json": BROKEN_ALERT,
      "flow.wf": GROCERS,
      "README.md": "# x\n",
      ".wfkit/state.json": JSON.stringify({ version: 1, baseUrls: {} }),
    });

  it("hands over every staged .wf and .json file, and reports the broken definition and alert body, not package.json", () => {
    const { entry, files } = hook("wfkit-check");
    const handed = staged.filter((file) => files.test(file));
    expect(handed).toEqual(["package.json", "tsconfig.json", "def.json", "bad.alert.json", "flow.wf", ".wfkit/state.json"]);
    const [command, ...flags] = entry.split(" ");
    expect(command).toBe("wfkit");
    const result = runCli([...flags, ...handed], { cwd: tree() });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/error\[part-unknown\].*\n  --> def\.json:/);
    expect(result.stdout).toMatch(/error\[alert-type-unknown\].*\n  --> bad\.alert\.json:/);
    expect(result.stdout).toContain("in 2 of 3 files");
    expect(result.stdout + result.stderr).not.toMatch(/package\.json|tsconfig\.json|state\.json/);
  });

  it("passes over JSON that is not a definition quietly: exit 0, nothing printed", () => {
    const result = runCli(["check", "--skip-other-json", "package.json", "tsconfig.json"], { cwd: tree() });
    expect(result).toEqual({ status: 0, stdout: "", stderr: "" });
    // Without the flag a named file is always checked, whatever it is (as before).
    expect(runCli(["check", "package.json"], { cwd: tree() }).stdout).toContain("error[schema-version]");
  });

  it("still checks a named .json definition that is valid, and a .wf whatever its content", () => {
    const cwd = tempTree({ "ok.json": readFileSync(path.join(repoRoot, "examples", "grocer-compare.json"), "utf8"), "notes.wf": "this is not a workflow\n" });
    const result = runCli(["check", "--skip-other-json", "ok.json", "notes.wf"], { cwd });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("ok ok.json: estimate");
    expect(result.stdout).toContain("--> notes.wf:1:");
  });
});

describe("--no-ignore", () => {
  const tree = () => tempTree({ "wfkit.config.json": JSON.stringify({ ignore: ["drafts/**"] }), "drafts/a.json": BROKEN_DEFINITION, "flows/ok.wf": GROCERS });

  it("checks a file a config ignores, named or in a walk", () => {
    const cwd = tree();
    const ignored = runCli(["check", "drafts/a.json"], { cwd });
    expect(ignored.status).toBe(0);
    expect(ignored.stderr).toBe("wfkit: nothing to check: 1 file given is ignored (by --ignore or wfkit.config.json)\n");
    const named = runCli(["check", "drafts/a.json", "--no-ignore"], { cwd });
    expect(named.status).toBe(1);
    expect(named.stdout).toContain("--> drafts/a.json:");
    const walked = runCli(["check", "--no-ignore"], { cwd });
    expect(walked.status).toBe(1);
    expect(walked.stdout).toContain("in 1 of 2 files");
  });

  it("contradicts --ignore", () => {
    const result = runCli(["check", "--no-ignore", "--ignore", "x/**"], { cwd: tree() });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe("wfkit check: --ignore and --no-ignore contradict each other: give one (see `wfkit check --help`)\n");
  });
});

describe("machine formats with nothing to check", () => {
  const tree = () => tempTree({ "flows/wfkit.config.json": JSON.stringify({ ignore: ["**/*.wf"] }), "flows/a.wf": GROCERS });

  it("sarif: a valid log with one run and no results, which code scanning takes", () => {
    const result = runCli(["check", "flows", "--format", "sarif"], { cwd: tree() });
    expect(result.status).toBe(0);
    const log = JSON.parse(result.stdout);
    const { validate, errors } = sarifValidator();
    expect(validate(log), errors()).toBe(true);
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0].results).toEqual([]);
    expect(log.runs[0].tool.driver.name).toBe("wfkit");
  });

  it("json: the empty document; github and rdjsonl: nothing, their valid empty output", () => {
    const cwd = tree();
    const json = runCli(["check", "flows", "--format", "json"], { cwd });
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ version: 1, files: [], summary: { files: 0, errors: 0, warnings: 0 } });
    for (const format of ["github", "rdjsonl"]) {
      const result = runCli(["check", "flows", "--format", format], { cwd });
      expect([result.status, result.stdout]).toEqual([0, ""]);
    }
  });
});

describe("messages", () => {
  it("an unknown command gets a did-you-mean", () => {
    expect(runCli(["chek"]).stderr).toBe("wfkit: unknown command `chek`; did you mean `check`? (see `wfkit --help`)\n");
    expect(runCli(["help", "depoly"]).stderr).toBe("wfkit: unknown command `depoly`; did you mean `deploy`? (see `wfkit --help`)\n");
    const far = runCli(["zzzzzz"]);
    expect(far.status).toBe(2);
    expect(far.stderr).toMatch(/^wfkit: unknown command `zzzzzz` \(commands: [a-z, ]*\bcheck, fmt\b[a-z, ]*\) \(see `wfkit --help`\)\n$/);
  });

  it("a subcommand without what it needs names what is missing", () => {
    const show = runCli(["runs", "show"]);
    expect(show.status).toBe(2);
    expect(show.stderr).toBe("wfkit runs: `runs show` needs the id of a run, as in `wfkit runs show run_0123` (`wfkit runs list` shows them) (see `wfkit runs --help`)\n");
    expect(runCli(["runs", "watch"]).stderr).toContain("`runs watch` needs the id of a run");
    expect(runCli(["runs", "shw", "run_1"]).stderr).toContain("unknown action `shw`; did you mean `show`?");
    expect(runCli(["runs", "show", "a", "b"]).stderr).toContain("`runs show` takes one RUN (got 2: a b)");
    const del = runCli(["views", "delete"]);
    expect(del.status).toBe(2);
    expect(del.stderr).toBe("wfkit views: `views delete` needs the id of the saved view to delete, as in `wfkit views delete view_123` (`wfkit views list` shows them) (see `wfkit views --help`)\n");
    expect(runCli(["runs"]).stderr).toContain("say what to do:");
    expect(runCli(["runs", "remove", "run_1"]).stderr).toBe(
      "wfkit runs: say what to do: `runs list`, `runs show RUN`, `runs watch RUN`, `runs deliver RUN` or `runs cancel RUN` (`remove` is none of them) (see `wfkit runs --help`)\n",
    );
  });

  it("a config with three mistakes reports all three, one line each, and never lists every code", () => {
    const cwd = tempTree({
      "wfkit.config.json": '{\n  "ignor": ["x"],\n  "severity": {"dead-end": "of", "no-such-code": "off"}\n}\n',
      "a.wf": GROCERS,
    });
    const result = runCli(["check"], { cwd });
    expect(result.status).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toEqual([
      "wfkit: wfkit.config.json:2:3: unknown key `ignor`; did you mean `ignore`? (a config may have: catalogue, severity, ignore, baseUrl)",
      'wfkit: wfkit.config.json:3:28: `severity.dead-end` must be "off", "warning" or "error"',
      expect.stringMatching(/^wfkit: wfkit\.config\.json:3:34: `severity` names `no-such-code`, which is not a wfkit fault code \(a config sets warnings, such as [\w-]+, [\w-]+, [\w-]+, [\w-]+ and \d+ more; docs\/rules\.md lists every code\)$/),
    ]);
  });

  it("a config with many mistakes prints twenty and says how many more", () => {
    const keys = Array.from({ length: 30 }, (_, i) => `"k${i}": 1`).join(", ");
    const result = runCli(["check"], { cwd: tempTree({ "wfkit.config.json": `{${keys}}`, "a.wf": GROCERS }) });
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(22);
    expect(lines[21]).toBe("wfkit: ... and 9 more problems like these");
  });

  it(".wf: a part without a version is told `pack@1`; `gate floor = hold` and a chain ending in `->` are told the fix", () => {
    const cwd = tempTree({
      "noversion.wf": GROCERS.replace("part report = pack@1", "part report = pack"),
      "equals.wf": GROCERS.replace("gate floor hold", "gate floor = hold"),
      "arrow.wf": GROCERS.replace("start -> compare -> report -> floor -> inbox", "start -> compare -> report ->\n  floor -> inbox"),
    });
    const noVersion = runCli(["check", "noversion.wf"], { cwd });
    expect(noVersion.stdout).toContain("node `report` is missing the required field `partVersion`. The service cannot read it without one; give the part's version: `\"partVersion\": \"1\"` in JSON, `pack@1` in .wf.");
    const equals = runCli(["check", "equals.wf"], { cwd });
    expect(equals.stdout).toContain("error[syntax]: expected a name or a new line after `floor`, found `=`; a `gate` takes no `=`: write `gate floor hold`");
    const arrow = runCli(["check", "arrow.wf"], { cwd });
    expect(arrow.stdout).toContain(
      "error[syntax]: expected a name after `->`, found the end of the line; a line cannot end with `->`: name the next node on this line, or move the `->` to the start of the next line (a line that starts with `->` continues the chain)",
    );
    // Which is so: the chain written that way checks clean.
    const moved = tempTree({ "moved.wf": GROCERS.replace("start -> compare -> report -> floor -> inbox", "start -> compare -> report\n  -> floor -> inbox") });
    expect(runCli(["check", "moved.wf"], { cwd: moved }).status).toBe(0);
  });
});

describe("sizes and names that broke helpers", () => {
  it("the terminal charts draw 300,000 points (no spread into Math.max)", () => {
    const values = Array.from({ length: 300_000 }, (_, i) => Math.sin(i / 1000) * 50 + 50);
    const chart = blockChart(values, { width: 60, height: 4, unicode: false, format: (value) => value.toFixed(0) });
    expect(chart).toHaveLength(4);
    expect(chart[0]).toMatch(/^100 \+/);
    expect(chart[3]).toMatch(/^  0 \+/);
    expect(sparkline(values, false, 40)).toHaveLength(40);
  });

  it("an unresolved reason named like an Object member is shown as sent", () => {
    for (const reason of ["constructor", "toString", "__proto__", "hasOwnProperty"]) expect(unresolvedReasonText(reason)).toBe(reason);
    expect(unresolvedReasonText("not_found")).toBe("not_found: no company matches");
  });
});
