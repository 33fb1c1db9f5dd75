/** The test tiers: every test file in exactly one, decided by what it starts. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SLOW, tiers } from "./tiers.mjs";

const root = path.dirname(import.meta.dirname);

describe("test file names", () => {
  // A file runs a property when it calls fast-check's runner (fc.assert, fc.check) or runs the
  // root's registry of properties (test/fuzz/properties.ts).
  const runsProperties = (text: string) => /\bfc\.(assert|check)\(|from "\.\/properties\.js"/.test(text);

  it("name every test file that runs a fast-check property *.property.test.ts, and no other", () => {
    const files = Object.values(tiers()).flat();
    const misnamed = files.filter((file) => runsProperties(readFileSync(path.join(root, file), "utf8")) !== file.endsWith(".property.test.ts"));
    expect(misnamed).toEqual([]);
  });

  it("see a property where there is one", () => {
    // Spelt in pieces, so that this file does not read as one that runs a property.
    const runner = ["fc", "assert"].join(".");
    expect(runsProperties(`await ${runner}(fc.asyncProperty(fc.nat(), async () => {}));`)).toBe(true);
    expect(runsProperties(`import { propertyNamed } from "./${"properties"}.js";`)).toBe(true);
    expect(runsProperties('import fc from "fast-check"; const arbitrary = fc.nat();')).toBe(false);
  });
});

describe("test tiers", () => {
  const byTier = tiers();
  const all = Object.values(byTier).flat();

  it("put every test file in exactly one tier, this one included", () => {
    expect(new Set(all).size).toBe(all.length);
    expect(byTier.unit).toContain("test/tiers.test.ts");
    for (const file of SLOW) expect(all, `${file} is listed as slow but is not a test file`).toContain(file);
  });

  it("keep what starts a process or a browser out of the unit tier, following test helpers", () => {
    // Spawns the built CLI directly.
    expect(byTier.built).toContain("packages/cli/test/cli.test.ts");
    // Reaches child_process only through its helper (test/support/lsp-client.ts).
    expect(byTier.built).toContain("packages/language-server/test/lsp/features.test.ts");
    // Launches Chromium.
    expect(byTier.browser).toContain("packages/playground/test/playground.test.ts");
    // Imports package sources that may spawn, but only what tests start counts.
    expect(byTier.unit).toContain("packages/core/test/rules.test.ts");
    expect(byTier.unit).toContain("packages/service/test/workflows.test.ts");
  });
});
