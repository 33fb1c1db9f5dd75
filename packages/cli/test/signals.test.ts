/**
 * The built CLI on Consumer Signals alert and saved-view bodies: recognised by name
 * (`*.alert.json`, `*.view.json`) or by a `$schema` naming the published schema, judged by
 * core's body rules, placed on the JSON text in every format.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sarifValidator } from "../../../test/support/sarif-schema.js";
import { ensureBuilt, fixtures, runCli } from "../../../test/support/built-cli.js";

beforeAll(() => ensureBuilt());

/** The 1-based line and column of the `occurrence`-th `needle` in a fixture, as the CLI reports places. */
function placeOf(file: string, needle: string): { line: number; column: number } {
  const text = readFileSync(path.join(fixtures, file), "utf8");
  const offset = text.indexOf(needle);
  expect(offset).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

describe("wfkit check on alert and view bodies", () => {
  it("walks a directory taking *.alert.json, *.view.json and JSON naming their schema, and no other JSON", () => {
    const result = runCli(["check", "signals", "--format", "json"]);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.files.map((file: { path: string }) => file.path)).toEqual([
      "signals/cpix-above-60.alert.json",
      "signals/energy.view.json",
      "signals/grocery.alert.json",
      "signals/housing.json",
    ]);
  });

  it("reports every fault of a body with its code, place and suggestion (json)", () => {
    const result = runCli(["check", "signals/grocery.alert.json", "signals/energy.view.json", "signals/housing.json", "--format", "json"]);
    expect(result.status).toBe(1);
    const [grocery, energy, housing] = JSON.parse(result.stdout).files;
    const summary = (file: { faults: { code: string; severity: string; suggestion?: string; range: { start: { line: number; column: number } } }[] }) =>
      file.faults.map(({ code, severity, suggestion, range }) => ({ code, severity, suggestion, at: range.start }));
    expect(summary(grocery)).toEqual([
      { code: "alert-type-unknown", severity: "error", suggestion: "sector_pressure", at: placeOf("signals/grocery.alert.json", '"sector_presure"') },
      { code: "alert-geography", severity: "error", suggestion: "UK", at: placeOf("signals/grocery.alert.json", '"uk"') },
      { code: "alert-email", severity: "error", suggestion: undefined, at: placeOf("signals/grocery.alert.json", '"analyst@example"') },
      { code: "alert-whatsapp-number", severity: "error", suggestion: "+447700900123", at: placeOf("signals/grocery.alert.json", '"+44 7700 900123"') },
      { code: "alert-unknown-field", severity: "warning", suggestion: "threshold", at: placeOf("signals/grocery.alert.json", '"treshold"') },
    ]);
    expect(summary(energy)).toEqual([{ code: "view-field-type", severity: "error", suggestion: undefined, at: placeOf("signals/energy.view.json", "7]") }]);
    expect(summary(housing).map((fault) => fault.code)).toEqual(["view-field-missing"]);
    expect(housing.faults[0].message).toContain("`question`");
  });

  it("passes a valid alert, with no estimate (alerts cost nothing to run)", () => {
    const result = runCli(["check", "signals/cpix-above-60.alert.json", "--format", "json"]);
    expect(result.status).toBe(0);
    const [file] = JSON.parse(result.stdout).files;
    expect(file).toMatchObject({ ok: true, faults: [] });
    expect(file.estimate).toBeUndefined();
  });

  it("gives valid SARIF naming the body rules, with their regions", () => {
    const result = runCli(["check", "signals", "--format", "sarif"]);
    const log = JSON.parse(result.stdout);
    const { validate, errors } = sarifValidator();
    expect(validate(log), errors()).toBe(true);
    const [run] = log.runs;
    const ruleIds = run.tool.driver.rules.map((rule: { id: string }) => rule.id);
    expect(ruleIds).toEqual(expect.arrayContaining(["alert-type-unknown", "view-field-missing", "alert-unknown-field"]));
    const typeFault = run.results.find((entry: { ruleId: string }) => entry.ruleId === "alert-type-unknown");
    const at = placeOf("signals/grocery.alert.json", '"sector_presure"');
    expect(typeFault.locations[0].physicalLocation.region).toMatchObject({ startLine: at.line, startColumn: at.column });
    expect(typeFault.locations[0].physicalLocation.artifactLocation.uri).toContain("grocery.alert.json");
  });

  it("the text format names the code and the line", () => {
    const result = runCli(["check", "signals/energy.view.json"]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("view-field-type");
    expect(result.stdout).toContain(`energy.view.json:${placeOf("signals/energy.view.json", "7]").line}`);
  });

  it("commands that read definitions refuse a body with one line and exit 2", () => {
    for (const args of [["compile", "signals/cpix-above-60.alert.json"], ["graph", "signals/energy.view.json"]]) {
      const result = runCli(args);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain("not a workflow definition");
    }
  });
});
