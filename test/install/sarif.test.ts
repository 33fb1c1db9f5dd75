/**
 * `wfkit check --format sarif` as a CI job runs it, from a subdirectory of a repository: the
 * log validates against the full SARIF 2.1.0 schema (test/schemas), and every location is
 * relative to the repository's root (`uriBaseId` `%SRCROOT%`), which `originalUriBaseIds`
 * gives as an absolute `file:` URI, so code scanning finds the file in its checkout.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, ensureBuilt, fixtures } from "../support/built-cli.js";
import { sarifValidator } from "../support/sarif-schema.js";

let work: string;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(path.join(tmpdir(), "wfkit-sarif-"));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const brief = () => readFileSync(path.join(fixtures, "wf/brief.wf"), "utf8");

function sarifFrom(cwd: string, ...paths: string[]) {
  const result = spawnSync(process.execPath, [bin, "check", ...paths, "--format", "sarif"], { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(1);
  return JSON.parse(result.stdout);
}

interface SarifLocation {
  physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } };
}

describe("SARIF from a subdirectory", () => {
  it("names files relative to the repository root, and validates against the full schema", () => {
    const repo = path.join(work, "repo with space");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    mkdirSync(path.join(repo, "flows", "team"), { recursive: true });
    mkdirSync(path.join(repo, "tools"), { recursive: true });
    writeFileSync(path.join(repo, "flows", "team", "bad flow.wf"), brief().replace("= pack@1", "= pakc@1"));
    writeFileSync(path.join(repo, "flows", "dup.wf"), brief() + "start -> compare\n");

    const log = sarifFrom(path.join(repo, "tools"), "../flows");
    const { validate, errors } = sarifValidator();
    expect(validate(log), errors()).toBe(true);

    const run = log.runs[0];
    expect(run.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: `${pathToFileURL(repo).href}/` } });
    expect(run.originalUriBaseIds["%SRCROOT%"].uri).toContain("repo%20with%20space/");
    const places = run.results.flatMap((result: { ruleId: string; locations: SarifLocation[]; relatedLocations?: SarifLocation[] }) =>
      [...result.locations, ...(result.relatedLocations ?? [])].map((location) => [result.ruleId, location.physicalLocation.artifactLocation]),
    );
    expect(places).toEqual([
      ["edge-duplicate", { uri: "flows/dup.wf", uriBaseId: "%SRCROOT%" }],
      ["edge-duplicate", { uri: "flows/dup.wf", uriBaseId: "%SRCROOT%" }],
      ["part-unknown", { uri: "flows/team/bad%20flow.wf", uriBaseId: "%SRCROOT%" }],
    ]);
  });

  it("outside a repository, the working directory is the root; a file above it gets an absolute URI", () => {
    const project = path.join(work, "plain", "project");
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, "in.wf"), brief().replace("= pack@1", "= pakc@1"));
    writeFileSync(path.join(work, "plain", "above.wf"), brief().replace("= pack@1", "= pakc@1"));

    const log = sarifFrom(project, "in.wf", "../above.wf");
    const { validate, errors } = sarifValidator();
    expect(validate(log), errors()).toBe(true);
    const run = log.runs[0];
    expect(run.originalUriBaseIds["%SRCROOT%"].uri).toBe(`${pathToFileURL(project).href}/`);
    expect(run.results.map((result: { locations: SarifLocation[] }) => result.locations[0]!.physicalLocation.artifactLocation)).toEqual([
      { uri: "in.wf", uriBaseId: "%SRCROOT%" },
      { uri: pathToFileURL(path.join(work, "plain", "above.wf")).href },
    ]);
  });
});
