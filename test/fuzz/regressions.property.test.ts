// Replays every counterexample fuzzing ever saved (test/fuzz/regressions/*.json), so a bug
// found once stays fixed; and checks that the store itself round-trips what fast-check makes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertyNamed } from "./properties.js";
import { decode, encode, loadRegressions, savingReporter, type RunInfo } from "./regressions.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const saved = loadRegressions();

describe("saved fuzz regressions", () => {
  for (const { file, regression } of saved) {
    it(`${path.basename(file)} no longer fails (${regression.property})`, () => {
      if (regression.kind === "registry" && regression.replayable) {
        const property = propertyNamed(regression.property);
        expect(property, `no property named ${regression.property} in test/fuzz/properties.ts`).toBeDefined();
        const [value] = decode(regression.counterexample) as [unknown];
        property!.check(value);
        return;
      }
      // A property inline in a package's test file: re-run that test with the seed and path
      // that found the failure.
      const run = spawnSync(process.execPath, [path.join(repoRoot, "scripts", "fuzz.mjs"), "--replay", file], { cwd: repoRoot, encoding: "utf8", timeout: 300_000 });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    });
  }
});

describe("the regression store", () => {
  it("encodes what JSON cannot say and decodes it back exactly", () => {
    const sparse: unknown[] = [1];
    sparse[3] = 2;
    const bare = Object.create(null) as Record<string, unknown>;
    bare["__proto__"] = { polluted: true };
    const tricky = [undefined, -0, Number.NaN, Number.POSITIVE_INFINITY, 10n, new String("s"), sparse, bare, { $wf: "not a tag" }, JSON.parse('{"__proto__": 1}')];
    const { json, replayable } = encode(tricky);
    expect(replayable).toBe(true);
    const back = decode(JSON.parse(JSON.stringify(json))) as unknown[];
    expect(back).toHaveLength(tricky.length);
    expect(back[0]).toBeUndefined();
    expect(Object.is(back[1], -0)).toBe(true);
    expect(back[2]).toBeNaN();
    expect(back[3]).toBe(Number.POSITIVE_INFINITY);
    expect(back[4]).toBe(10n);
    expect(back[5]).toBeInstanceOf(String);
    expect(1 in (back[6] as unknown[])).toBe(false);
    expect((back[6] as unknown[])[3]).toBe(2);
    expect(Object.getPrototypeOf(back[7])).toBeNull();
    expect(Object.keys(back[7] as object)).toEqual(["__proto__"]);
    expect(back[8]).toEqual({ $wf: "not a tag" });
    expect(Object.keys(back[9] as object)).toEqual(["__proto__"]);
  });

  it("marks a function or symbol as not replayable by value", () => {
    expect(encode([() => 1]).replayable).toBe(false);
    expect(encode(Symbol("s")).replayable).toBe(false);
  });

  it("a failing property saves its shrunk counterexample and still fails", () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "wfkit-regressions-"));
    try {
      const details = fc.check(fc.property(fc.integer(), (n) => n < 10), { seed: 42 });
      expect(details.failed).toBe(true);
      expect(() => savingReporterIn(directory)(details)).toThrow(/Counterexample saved as a regression/);
      const files = readdirSync(directory);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^store-self-test-numbers-below-10-[0-9a-f]{12}\.json$/);
      expect(loadRegressions(directory)[0]!.regression.counterexample).toEqual([10]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

/** savingReporter, writing into `directory` instead of the repository's store. */
function savingReporterIn(directory: string): (details: RunInfo) => void {
  return savingReporter(() => ({ property: "store self-test: numbers below 10", kind: "registry" }), undefined, directory);
}
