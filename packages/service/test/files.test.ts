/** The seed and mock files: shape, cross-references, and outputs that must satisfy `produces`. */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defaultCatalogue } from "@wfkit/core";
import { ConfigFileError, DEFAULT_SEED, loadMocks, loadSeed } from "../src/index.js";

describe("seed file", () => {
  it("accepts the default seed", () => {
    expect(loadSeed(structuredClone(DEFAULT_SEED), "seed.json")).toEqual(DEFAULT_SEED);
  });

  it("names the place of every mistake", () => {
    const bad = (value: unknown) => () => loadSeed(value, "seed.json");
    expect(bad({ accounts: [{ id: "a", plan: "gold" }], users: [{ id: "u", account: "a" }] })).toThrow(/seed.json is not valid: \/accounts\/0\/plan: must be equal to one of the allowed values \(starter, browser, professional, enterprise\)/);
    expect(bad({ accounts: [{ id: "a", plan: "browser" }], users: [{ id: "u", account: "b" }] })).toThrow(/\/users\/0\/account: no account `b`/);
    expect(bad({ accounts: [{ id: "a", plan: "browser" }], users: [{ id: "u", account: "a" }], apiKeys: [{ id: "k", user: "v", scopes: [] }] })).toThrow(/\/apiKeys\/0\/user: no user `v`/);
    expect(bad({ accounts: [{ id: "a", plan: "browser" }], users: [{ id: "u", account: "a" }], apiKeys: [{ id: "k", user: "u", scopes: [], expiresAt: "soon" }] })).toThrow(/expiresAt: `soon` is not a date/);
    expect(bad({ accounts: [], users: [] })).toThrow(ConfigFileError);
    const withTokens = (alertTokens: unknown) => bad({ accounts: [{ id: "a", plan: "starter" }], users: [{ id: "u", account: "a" }], alertTokens });
    expect(withTokens([{ user: "v" }])).toThrow(/\/alertTokens\/0\/user: no user `v`/);
    expect(withTokens([{ user: "u", token: "wfat_0123456789abcdef" }, { user: "u", token: "wfat_0123456789abcdef" }])).toThrow(/\/alertTokens\/1\/token: this token is declared twice/);
    expect(withTokens([{ user: "u", token: "secret" }])).toThrow(/\/alertTokens\/0\/token: must match pattern/);
  });

  it("is described by its published schema", () => {
    const schema = JSON.parse(readFileSync(new URL("../src/schema/seed.schema.json", import.meta.url), "utf8")) as { required: string[] };
    expect(schema.required).toEqual(["accounts", "users"]);
  });
});

describe("templates", () => {
  it("are embedded from the current examples (npm run generate -w packages/service)", () => {
    const script = fileURLToPath(new URL("../scripts/embed-templates.mjs", import.meta.url));
    const result = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

describe("mock file", () => {
  it("accepts values that have a member per produced type, and per-node entries", () => {
    const mocks = { delayMs: 5, cases: { a: { parts: { pack: { "1": { value: { "pack.report": {} } }, "2": { failure: { code: "x" } } } }, nodes: { cmp: { partId: "terminal.compare", responses: { "1": { belowFloor: { "terminal.result": 1 } } } } } } } };
    expect(loadMocks(mocks, "mocks.json", defaultCatalogue)).toEqual(mocks);
  });

  it("rejects at load an output that does not satisfy the part's produces", () => {
    expect(() => loadMocks({ cases: { a: { parts: { "terminal.screen": { "1": { value: { "terminal.result": {} } } } } } } }, "mocks.json", defaultCatalogue)).toThrow(
      /\/cases\/a\/parts\/terminal.screen\/1: part `terminal.screen` produces `terminal.result`, `terminal.flags`, but this output has no member `terminal.flags`/,
    );
    expect(() => loadMocks({ cases: { a: { nodes: { n: { partId: "pack", responses: { "1": { belowFloor: {} } } } } } } }, "mocks.json", defaultCatalogue)).toThrow(/no member `pack.report`/);
  });

  it("rejects unknown parts, unnumbered responses and responses of two kinds", () => {
    expect(() => loadMocks({ cases: { a: { parts: { nope: { "1": { failure: { code: "x" } } } } } } }, "m", defaultCatalogue)).toThrow(/the catalogue has no part `nope`/);
    expect(() => loadMocks({ cases: { a: { parts: { pack: { first: { failure: { code: "x" } } } } } } }, "m", defaultCatalogue)).toThrow(/property name must be valid|must match pattern/);
    expect(() => loadMocks({ cases: { a: { parts: { pack: { "1": { failure: { code: "x" }, value: {} } } } } } }, "m", defaultCatalogue)).toThrow(/must NOT have more than 1 properties/);
  });
});
