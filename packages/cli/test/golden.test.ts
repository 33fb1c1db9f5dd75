/**
 * Golden files: the built CLI's exact output (exit status, stdout, stderr) for fixed
 * inputs, in every format. Each case is one file under test/golden/, readable on its own.
 * Regenerate with `UPDATE_GOLDEN=1 npx vitest run packages/cli/test/golden.test.ts`, then
 * READ the diff before committing: a golden is a reviewed statement of what users see.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { cliRoot, ensureBuilt, fixtures, repoRoot, runCli, type RunOptions } from "../../../test/support/built-cli.js";

const goldenDir = path.join(cliRoot, "test", "golden");
const update = process.env.UPDATE_GOLDEN === "1";

interface Case extends RunOptions {
  name: string;
  args: string[];
}

const FORMATS = ["pretty", "json", "sarif", "github", "rdjsonl"];

const fixtureCases: Case[] = [
  ...FORMATS.map((format) => ({ name: `check-fixtures.${format}`, args: ["check", "wf", "defs", "--format", format] })),
  { name: "check-valid-quiet", args: ["check", "wf/brief.wf", "defs/brief.workflow.json"] },
  { name: "check-warnings-max-warnings-0", args: ["check", "defs/warnings.json", "--max-warnings", "0"] },
  { name: "check-quiet-warnings-over-limit", args: ["check", "defs/warnings.json", "--quiet", "--max-warnings", "1"] },
  { name: "check-config-project", args: ["check", "project"] },
  { name: "check-stdin-wf", args: ["check", "-", "--stdin-filename", "wf/from-editor.wf"], stdin: "trigger start on_demand\npart p = pack@1\ndestination out standalone\nstart -> p -> out\n" },
  { name: "check-force-color", args: ["check", "defs/warnings.json"], env: { FORCE_COLOR: "1" } },
  { name: "check-no-color-wins", args: ["check", "defs/warnings.json"], env: { FORCE_COLOR: "1", NO_COLOR: "1" } },
  { name: "check-missing-file", args: ["check", "wf/nope.wf"] },
  { name: "check-bad-catalogue", args: ["check", "wf/brief.wf", "--catalogue", "defs/broken.json"] },
  { name: "check-bad-config", args: ["check", "bad-config/flow.wf"] },
  { name: "check-unknown-option", args: ["check", "--colour"] },
  { name: "fmt-check", args: ["fmt", "--check", "wf"] },
  { name: "fmt-print", args: ["fmt", "wf/unformatted.wf"] },
  { name: "compile-valid", args: ["compile", "wf/brief.wf"] },
  { name: "compile-broken", args: ["compile", "wf/broken.wf"] },
  { name: "decompile-valid", args: ["decompile", "defs/brief.workflow.json"] },
  { name: "decompile-syntax-error", args: ["decompile", "defs/syntax-error.json"] },
  { name: "estimate-table", args: ["estimate", "wf/brief.wf"] },
  { name: "estimate-json", args: ["estimate", "defs/brief.workflow.json", "--format", "json"] },
  { name: "estimate-directory", args: ["estimate", "wf", "--ignore", "wf/{broken,syntax,wide}.wf"] },
  { name: "estimate-broken", args: ["estimate", "defs/broken.json"] },
  { name: "graph-mermaid", args: ["graph", "wf/broken.wf"] },
  { name: "graph-dot", args: ["graph", "wf/brief.wf", "--format", "dot"] },
  { name: "graph-svg", args: ["graph", "wf/broken.wf", "--format", "svg"] },
  { name: "help", args: ["--help"] },
  ...["check", "fmt", "compile", "decompile", "estimate", "graph", "lsp", "serve", "playground"].map((command) => ({ name: `help-${command}`, args: [command, "--help"] })),
];

/**
 * The repository's examples (written with the DSL), in every output format; the broken ones
 * too, which examples/wfkit.config.json leaves out of a plain `wfkit check examples`.
 */
const exampleCases: Case[] = FORMATS.map((format) => ({ name: `examples.${format}`, args: ["check", "examples", "--config", "examples/show-broken.config.json", "--format", format], cwd: repoRoot }));

/** SARIF names the source root (this checkout) by its absolute URI, which differs per machine. */
const checkoutUri = pathToFileURL(repoRoot).href + "/";

function render(testCase: Case, result: { status: number | null; stdout: string; stderr: string }): string {
  const stdout = result.stdout.replaceAll(checkoutUri, "file:///CHECKOUT/");
  const stdin = testCase.stdin === undefined ? "" : `--- stdin\n${testCase.stdin}`;
  const env = testCase.env ? `--- env ${Object.entries(testCase.env).map(([k, v]) => `${k}=${v}`).join(" ")}\n` : "";
  return `$ wfkit ${testCase.args.join(" ")}\n${env}${stdin}--- exit ${result.status}\n--- stdout\n${stdout}--- stderr\n${result.stderr}`;
}

beforeAll(() => {
  ensureBuilt();
  mkdirSync(goldenDir, { recursive: true });
});

describe.each([
  ["fixtures", fixtureCases],
  ["examples", exampleCases],
] as const)("golden: %s", (_label, cases) => {
  it.each(cases)("$name", (testCase) => {
    const actual = render(testCase, runCli(testCase.args, { cwd: testCase.cwd ?? fixtures, ...(testCase.stdin !== undefined ? { stdin: testCase.stdin } : {}), ...(testCase.env ? { env: testCase.env } : {}) }));
    const file = path.join(goldenDir, `${testCase.name}.txt`);
    if (update) writeFileSync(file, actual);
    expect(existsSync(file), `missing golden ${path.relative(cliRoot, file)}; run with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(actual).toBe(readFileSync(file, "utf8"));
  });
});
