import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { escapeData, escapeProperty, formatGithub } from "../src/formats/github.js";
import { formatJson } from "../src/formats/json.js";
import { formatRdjsonl, utf8Column } from "../src/formats/rdjsonl.js";
import { artifactLocation, formatSarif, relativeUri, sourceRoot } from "../src/formats/sarif.js";
import { nameOfTitle } from "../src/rule-info.js";
import { sarifValidator } from "../../../test/support/sarif-schema.js";
import { painter } from "../src/colors.js";
import { summarize, type CheckReport, type FileReport } from "../src/report.js";

const source = 'node "café" = part terminal.compar @1\nnode b = part pack @1 # x\n';
const file: FileReport = {
  path: "flows/my flow.wf",
  ok: false,
  source,
  faults: [
    {
      code: "part-unknown",
      severity: "error",
      message: "`terminal.compar` is not a part [see catalogue]",
      nodeId: "café",
      pointer: "/nodes/0/partId",
      suggestion: "terminal.compare",
      range: { start: { line: 0, character: 19 }, end: { line: 0, character: 34 } },
      related: [{ nodeId: "b", pointer: "/nodes/1", message: "b, 50% sure: here", range: { start: { line: 1, character: 5 }, end: { line: 1, character: 6 } } }],
    },
    { code: "dead-end", severity: "warning", message: "line one\nline two", nodeId: "b", pointer: "/nodes/1", range: { start: { line: 1, character: 5 }, end: { line: 1, character: 6 } } },
  ],
};
const okFile: FileReport = { path: "flows/ok.json", ok: true, faults: [], estimate: { costMinorUnits: 80, parts: [{ nodeId: "p", partId: "pack", costMinorUnits: 80 }] } };
const report: CheckReport = { files: [file, okFile], summary: summarize([file, okFile]) };
// A directory with no .git above it (the filesystem root's), so it is its own source root.
const context = { paint: painter(false), quiet: false, cwd: path.parse(process.cwd()).root };

describe("github", () => {
  it("escapes data and properties exactly as @actions/core does", () => {
    expect(escapeData("100%\r\nnext: a,b")).toBe("100%25%0D%0Anext: a,b");
    expect(escapeProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
  });

  it("writes one annotation per fault, nothing else", () => {
    expect(formatGithub(report, context)).toBe(
      [
        "::error file=flows/my flow.wf,line=1,col=20,endLine=1,endColumn=35,title=wfkit part-unknown::`terminal.compar` is not a part [see catalogue]%0ASuggestion: terminal.compare",
        "::warning file=flows/my flow.wf,line=2,col=6,endLine=2,endColumn=7,title=wfkit dead-end::line one\\nline two",
        "",
      ].join("\n"),
    );
  });
});

describe("json", () => {
  it("gives 1-based ranges, related ranges, estimates for ok files, and a summary", () => {
    const document = JSON.parse(formatJson(report, context));
    expect(document.version).toBe(1);
    expect(document.summary).toEqual({ files: 2, errors: 1, warnings: 1 });
    expect(document.files[0].faults[0].range).toEqual({ start: { line: 1, column: 20 }, end: { line: 1, column: 35 } });
    expect(document.files[0].faults[0].related[0].range).toEqual({ start: { line: 2, column: 6 }, end: { line: 2, column: 7 } });
    expect(document.files[0]).not.toHaveProperty("estimate");
    expect(document.files[0]).not.toHaveProperty("source");
    expect(document.files[1].estimate.costMinorUnits).toBe(80);
  });
});

describe("rdjsonl", () => {
  it("counts columns in UTF-8 bytes, as reviewdog does", () => {
    expect(utf8Column('node "café" = x', 12)).toBe(13);
    expect(utf8Column("😀x", 2)).toBe(4);
  });

  it("writes one diagnostic per line with code, url and certain suggestions", () => {
    const lines = formatRdjsonl(report, context).trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      severity: "ERROR",
      location: { path: "flows/my flow.wf", range: { start: { line: 1, column: 21 }, end: { line: 1, column: 36 } } },
      code: { value: "part-unknown", url: expect.stringContaining("docs/rules/part-unknown.md") },
      suggestions: [{ range: { start: { line: 1, column: 21 } }, text: "terminal.compare" }],
      related_locations: [{ message: "b, 50% sure: here" }],
    });
    expect(lines[1]).not.toHaveProperty("suggestions");
  });
});

describe("sarif", () => {
  const { validate, errors } = sarifValidator();

  it("validates against the SARIF 2.1.0 schema", () => {
    const log = JSON.parse(formatSarif(report, context));
    expect(validate(log), errors()).toBe(true);
  });

  it("the schema catches what GitHub would refuse", () => {
    const log = JSON.parse(formatSarif(report, context));
    log.runs[0].results[0].level = "fatal";
    expect(validate(log)).toBe(false);
    delete log.runs[0].results[0].level;
    log.runs[0].results[0].region = {};
    expect(validate(log)).toBe(false);
  });

  it("links results to rules by index, with help from rule meta", () => {
    const run = JSON.parse(formatSarif(report, context)).runs[0];
    const result = run.results[0];
    expect(run.tool.driver.rules[result.ruleIndex].id).toBe("part-unknown");
    expect(run.tool.driver.rules[result.ruleIndex].help.text).toContain("How to fix:");
    expect(result.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "flows/my%20flow.wf", uriBaseId: "%SRCROOT%" },
      region: { startLine: 1, startColumn: 20, endLine: 1, endColumn: 35 },
    });
    expect(result.message.text).toBe("`terminal.compar` is not a part \\[see catalogue\\] Suggestion: terminal.compare See [b, 50% sure: here](1).");
    expect(result.relatedLocations[0]).toMatchObject({ id: 1, message: { text: "b, 50% sure: here" } });
    expect(run.columnKind).toBe("utf16CodeUnits");
  });

  it("percent-encodes path segments of the relative URI", () => {
    expect(relativeUri("a b/c#d.wf")).toBe("a%20b/c%23d.wf");
  });

  it("gives the source root as a file URI ending with a slash", () => {
    const run = JSON.parse(formatSarif(report, context)).runs[0];
    expect(run.originalUriBaseIds).toEqual({ "%SRCROOT%": { uri: "file:///" } });
  });

  it("finds the source root at the nearest .git, a directory or a file", () => {
    const top = mkdtempSync(path.join(tmpdir(), "wfkit-srcroot-"));
    try {
      mkdirSync(path.join(top, "repo", ".git"), { recursive: true });
      mkdirSync(path.join(top, "repo", "sub", "worktree", "deep"), { recursive: true });
      writeFileSync(path.join(top, "repo", "sub", "worktree", ".git"), "gitdir: ../../.git/worktrees/w\n");
      expect(sourceRoot(path.join(top, "repo", "sub"))).toBe(path.join(top, "repo"));
      expect(sourceRoot(path.join(top, "repo", "sub", "worktree", "deep"))).toBe(path.join(top, "repo", "sub", "worktree"));
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });

  it("names a file outside the source root by its absolute file URI", () => {
    const root = path.resolve("/repo");
    expect(artifactLocation(path.resolve("/repo/a/b c.wf"), root)).toEqual({ uri: "a/b%20c.wf", uriBaseId: "%SRCROOT%" });
    expect(artifactLocation(path.resolve("/elsewhere/x.wf"), root)).toEqual({ uri: "file:///elsewhere/x.wf" });
    expect(artifactLocation(path.resolve("/repo/..x/y.wf"), root)).toEqual({ uri: "..x/y.wf", uriBaseId: "%SRCROOT%" });
  });

  it("names every rule descriptively, never its id in another case", () => {
    const rules: { id: string; name: string }[] = JSON.parse(formatSarif(report, context)).runs[0].tool.driver.rules;
    const squash = (text: string) => text.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
    for (const rule of rules) {
      expect(rule.name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      expect(squash(rule.name), rule.id).not.toBe(squash(rule.id));
    }
    expect(new Set(rules.map((rule) => rule.name)).size).toBe(rules.length);
    expect(nameOfTitle("A trigger's kind is `on_demand` or `scheduled`")).toBe("ATriggersKindIsOnDemandOrScheduled");
  });
});
