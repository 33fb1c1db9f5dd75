/** The test tiers: every test file in exactly one, decided by what it starts. */
import { describe, expect, it } from "vitest";
import { SLOW, tiers } from "./tiers.mjs";

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
    // Reaches child_process only through its helper (support/lsp-client.ts).
    expect(byTier.built).toContain("packages/language-server/test/lsp/features.test.ts");
    // Launches Chromium.
    expect(byTier.browser).toContain("packages/playground/test/playground.test.ts");
    // Imports package sources that may spawn, but only what tests start counts.
    expect(byTier.unit).toContain("packages/core/test/rules.test.ts");
    expect(byTier.unit).toContain("packages/service/test/workflows.test.ts");
  });
});
