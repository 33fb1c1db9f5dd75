// RuleTester-style: every rule has fixtures/<rule-id>/valid.json and invalid.json.
// A valid fixture must produce no fault at all; an invalid one must produce exactly the
// faults it lists (code, severity, node) — so a fixture also catches cascading faults.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bodyRules, rules, validateAlertBody, validateDefinition, validateViewBody, type Catalogue } from "@wfkit/core";

const fixturesDir = fileURLToPath(new URL("./fixtures/", import.meta.url));
const readFixture = (rule: string, kind: "valid" | "invalid") =>
  JSON.parse(readFileSync(`${fixturesDir}${rule}/${kind}.json`, "utf8")) as {
    description: string;
    input: unknown;
    /** A catalogue to check against instead of the embedded one. */
    catalogue?: Catalogue;
    expect?: { code: string; severity: string; nodeId: string | null }[];
  };

describe("rule fixtures", () => {
  it("every rule has a fixture folder, and every folder names a rule", () => {
    const folders = readdirSync(fixturesDir).sort();
    expect(folders).toEqual([...rules, ...bodyRules].map((rule) => rule.meta.id).sort());
  });

  // Body rules judge alert and view bodies, each through its own entry point.
  const judges = new Map<string, (input: unknown, catalogue?: Catalogue) => { ok: boolean; faults: { code: string; severity: string; nodeId: string | null; message: string; pointer: string }[] }>([
    ...rules.map((rule) => [rule.meta.id, (input: unknown, catalogue?: Catalogue) => validateDefinition(input, { catalogue })] as const),
    ...bodyRules.map((rule) => [rule.meta.id, rule.body === "alert" ? validateAlertBody : validateViewBody] as const),
  ]);
  for (const rule of [...rules, ...bodyRules]) {
    const id = rule.meta.id;
    const judge = judges.get(id)!;
    describe(id, () => {
      it("has valid and invalid fixtures", () => {
        expect(existsSync(`${fixturesDir}${id}/valid.json`)).toBe(true);
        expect(existsSync(`${fixturesDir}${id}/invalid.json`)).toBe(true);
      });

      it(`valid: ${readFixture(id, "valid").description}`, () => {
        const fixture = readFixture(id, "valid");
        const result = judge(fixture.input, fixture.catalogue);
        expect(result.faults).toEqual([]);
        expect(result.ok).toBe(true);
      });

      it(`invalid: ${readFixture(id, "invalid").description}`, () => {
        const fixture = readFixture(id, "invalid");
        expect(fixture.expect?.some((fault) => fault.code === id)).toBe(true);
        const result = judge(fixture.input, fixture.catalogue);
        const seen = result.faults.map(({ code, severity, nodeId }) => ({ code, severity, nodeId }));
        expect(seen).toEqual(fixture.expect);
        expect(result.ok).toBe(!fixture.expect!.some((fault) => fault.severity === "error"));
        for (const fault of result.faults.filter((f) => f.code === id)) {
          expect(fault.severity).toBe(rule.meta.severity);
          expect(fault.message.length).toBeGreaterThan(20);
          expect(fault.pointer === "" || fault.pointer.startsWith("/")).toBe(true);
        }
      });
    });
  }
});
