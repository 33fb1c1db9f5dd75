/**
 * The examples/ directory: each valid `.wf` has its compiled `.json` beside it, checks with no
 * errors against the default catalogue, is in canonical layout, and comes back unchanged from
 * its JSON; each broken source has its expected diagnostics in `<name>.diagnostics.json`.
 * `UPDATE_GOLDEN=1 npx vitest run packages/dsl/test/examples.test.ts` rewrites the `.json`
 * and `.diagnostics.json` files (review the diff before committing).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { analyzeSource, compile, decompile, format, jsonEqual } from "@wfkit/dsl";

const examples = fileURLToPath(new URL("../../../examples/", import.meta.url));
const broken = examples + "broken/";
const update = process.env["UPDATE_GOLDEN"] === "1";

function golden(path: string, actual: string): void {
  if (update) writeFileSync(path, actual);
  expect(existsSync(path), `${path} is missing: run with UPDATE_GOLDEN=1`).toBe(true);
  expect(actual, `${path} is out of date: run with UPDATE_GOLDEN=1 and review the diff`).toBe(readFileSync(path, "utf8"));
}

const validNames = readdirSync(examples).filter((name) => name.endsWith(".wf"));

describe("valid examples", () => {
  it("there are at least eight", () => {
    expect(validNames.length).toBeGreaterThanOrEqual(8);
  });

  for (const name of validNames) {
    describe(name, () => {
      const text = readFileSync(examples + name, "utf8");
      const jsonPath = examples + name.replace(/\.wf$/, ".json");

      it("has its compiled JSON beside it, up to date", () => {
        const { definition, faults } = compile(text);
        expect(faults).toEqual([]);
        golden(jsonPath, JSON.stringify(definition, null, 2) + "\n");
      });

      it("checks with no errors against the default catalogue, as .wf and as .json", () => {
        const wf = analyzeSource(text, "wf");
        expect(wf.faults.filter((fault) => fault.severity === "error")).toEqual([]);
        expect(wf.ok).toBe(true);
        const json = analyzeSource(readFileSync(jsonPath, "utf8"), "json");
        expect(json.ok).toBe(true);
        expect(json.estimate).toEqual(wf.estimate);
      });

      it("is in canonical layout", () => {
        expect(format(text).text).toBe(text);
      });

      it("comes back from its JSON", () => {
        const definition = JSON.parse(readFileSync(jsonPath, "utf8"));
        const back = compile(decompile(definition));
        expect(back.faults).toEqual([]);
        expect(jsonEqual(back.definition, definition)).toBe(true);
      });
    });
  }
});

describe("broken examples", () => {
  const names = readdirSync(broken).filter((name) => name.endsWith(".wf") || (name.endsWith(".json") && !name.endsWith(".diagnostics.json")));

  it("there are some, each with a golden file", () => {
    expect(names.length).toBeGreaterThanOrEqual(3);
  });

  for (const name of names) {
    it(`${name} reports the expected diagnostics`, () => {
      const text = readFileSync(broken + name, "utf8");
      const analysis = analyzeSource(text, name.endsWith(".json") ? "json" : "wf");
      expect(analysis.ok).toBe(false);
      const summary = analysis.faults.map((fault) => ({
        code: fault.code,
        severity: fault.severity,
        range: fault.range,
        text: text.slice(fault.span.start, fault.span.end),
        message: fault.message,
      }));
      golden(broken + name.replace(/\.(wf|json)$/, ".diagnostics.json"), JSON.stringify(summary, null, 2) + "\n");
    });
  }
});
