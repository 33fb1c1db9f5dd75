/**
 * The GitHub Actions job of docs/install.md, the one snippet (README.md and docs/cli.md link to
 * it): parsed with `yaml`, its step conditions checked, and its `wfkit` steps run as a job
 * runs them (`bash -e`, a step skipped after a failure unless `if: always()`), with the BUILT
 * CLI as `wfkit`, on a repository with faults: the annotations fail the job, the SARIF is still
 * written, valid, with the faults, and the upload step still runs.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { sarifValidator } from "../../../test/support/sarif-schema.js";
import { bin, ensureBuilt, repoRoot } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

beforeAll(() => ensureBuilt());

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}

const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");

/** The yaml blocks of a Markdown section (from its `## title` to the next `## `). */
function yamlBlocks(markdown: string, title: string): string[] {
  const start = markdown.indexOf(`\n## ${title}\n`);
  expect(start, `## ${title}`).toBeGreaterThanOrEqual(0);
  const end = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

function jobSteps(): Step[] {
  const blocks = yamlBlocks(read("docs/install.md"), "GitHub Actions");
  expect(blocks).toHaveLength(1);
  const document = parseYaml(blocks[0]!) as { jobs: Record<string, { steps: Step[]; permissions: Record<string, string> }> };
  const jobs = Object.values(document.jobs);
  expect(jobs).toHaveLength(1);
  expect(jobs[0]!.permissions["security-events"]).toBe("write");
  return jobs[0]!.steps;
}

describe("the GitHub Actions job", () => {
  it("is written once: README.md and docs/cli.md link to docs/install.md's", () => {
    for (const doc of ["README.md", "docs/cli.md"]) {
      const text = read(doc);
      const snippets = [...text.matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((match) => match[1]!);
      expect(snippets.filter((snippet) => /upload-sarif|--format (sarif|github)/.test(snippet)), doc).toEqual([]);
      expect(text, doc).toMatch(/install\.md#github-actions/);
    }
  });

  it("uploads the SARIF after writing it, even when an earlier step failed", () => {
    const steps = jobSteps();
    const sarif = steps.findIndex((step) => step.run?.includes("--format sarif"));
    const upload = steps.findIndex((step) => step.uses?.startsWith("github/codeql-action/upload-sarif@"));
    const annotate = steps.findIndex((step) => step.run?.includes("--format github"));
    expect(sarif).toBeGreaterThan(annotate);
    expect(upload).toBeGreaterThan(sarif);
    // Every step after the first that can fail on faults must run anyway.
    for (const step of steps.slice(annotate + 1)) expect(step.if, JSON.stringify(step)).toBe("always()");
    const written = / > (\S+) /.exec(steps[sarif]!.run!)?.[1];
    expect(steps[upload]!.with?.sarif_file).toBe(written);
  });

  it("runs as a job would on faults: the annotations fail it, the SARIF is written and valid, the upload runs", () => {
    const steps = jobSteps();
    const brief = readFileSync(path.join(repoRoot, "packages/cli/test/fixtures/wf/brief.wf"), "utf8");
    const repo = tempTree({ "flows/bad.wf": brief.replace("= pack@1", "= pakc@1"), "flows/ok.wf": brief });
    mkdirSync(path.join(repo, ".git"));
    // The install step's result: `wfkit` on the PATH (the built CLI).
    const shim = path.join(repo, ".bin");
    mkdirSync(shim);
    writeFileSync(path.join(shim, "wfkit"), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
    chmodSync(path.join(shim, "wfkit"), 0o755);

    let failed = false;
    const outcomes: string[] = [];
    for (const step of steps) {
      const runs = step.if === "always()" || (step.if === undefined && !failed);
      expect(step.if === undefined || step.if === "always()", `a condition this test does not know: ${step.if}`).toBe(true);
      if (!runs) {
        outcomes.push(`skipped ${step.run ?? step.uses}`);
        continue;
      }
      if (step.uses || !step.run!.startsWith("wfkit ")) {
        // checkout, setup-node, the install (done above) and the upload (judged below).
        outcomes.push(`ran ${step.run ?? step.uses}`);
        continue;
      }
      // GitHub runs `run:` with `bash -e {0}`.
      const result = spawnSync("bash", ["-e", "-c", step.run!], { cwd: repo, encoding: "utf8", env: { PATH: `${shim}${path.delimiter}${process.env.PATH}`, HOME: process.env.HOME ?? "" } });
      if (result.status !== 0) failed = true;
      outcomes.push(`${result.status === 0 ? "passed" : `failed (${result.status})`} ${step.run}`);
    }
    expect(outcomes).toEqual([
      "ran actions/checkout@v4",
      "ran actions/setup-node@v4",
      "ran npm install -g ./tools/wfkit-0.1.0.tgz",
      "failed (1) wfkit check --format github --max-warnings 0",
      "passed wfkit fmt --check",
      "passed wfkit check --format sarif > wfkit.sarif || test $? -eq 1",
      "ran github/codeql-action/upload-sarif@v3",
    ]);
    expect(failed).toBe(true);
    const file = path.join(repo, "wfkit.sarif");
    expect(existsSync(file)).toBe(true);
    const log = JSON.parse(readFileSync(file, "utf8"));
    const { validate, errors } = sarifValidator();
    expect(validate(log), errors()).toBe(true);
    expect(log.runs[0].results.map((result: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => [result.ruleId, result.locations[0]!.physicalLocation.artifactLocation.uri])).toEqual([
      ["part-unknown", "flows/bad.wf"],
    ]);
  });
});
