import path from "node:path";
import { describe, expect, it } from "vitest";
import { CliError } from "../src/errors.js";
import { collectFiles, languageOf, looksLikeDefinition } from "../src/files.js";
import { tempTree } from "../../../test/support/temp-tree.js";

const definition = '{"schemaVersion": 1, "nodes": [], "edges": []}';

describe("collectFiles", () => {
  const tree = () =>
    tempTree({
      "flows/a.wf": "",
      "flows/b.workflow.json": "{}",
      "flows/c.json": definition,
      "flows/broken.json": '{"schemaVersion": 1, "nodes": [ oops',
      "flows/save-body.json": '{"scope": {"graph": {}}}',
      "flows/package.json": '{"name": "x", "nodes": 1}',
      "flows/catalogue.json": '{"catalogueVersion": 1, "parts": []}',
      "flows/notes.txt": "",
      "flows/node_modules/dep/d.wf": "",
      "flows/.git/e.wf": "",
      "flows/deep/er/f.wf": "",
      "empty/readme.md": "",
    });

  it("walks a directory for .wf, .workflow.json and definition-like .json, sorted", async () => {
    const root = tree();
    const { files } = await collectFiles(["flows"], { cwd: root, kind: "definitions" });
    expect(files.map((file) => file.displayPath)).toEqual([
      "flows/a.wf",
      "flows/b.workflow.json",
      "flows/broken.json",
      "flows/c.json",
      "flows/deep/er/f.wf",
      "flows/save-body.json",
    ]);
  });

  it("walks for .wf only for fmt", async () => {
    const root = tree();
    const { files } = await collectFiles(["flows"], { cwd: root, kind: "wf-sources" });
    expect(files.map((file) => file.displayPath)).toEqual(["flows/a.wf", "flows/deep/er/f.wf"]);
  });

  it("always takes a file named explicitly, once", async () => {
    const root = tree();
    const { files } = await collectFiles(["flows/notes.txt", "flows/package.json", "flows/notes.txt"], { cwd: root, kind: "definitions" });
    expect(files.map((file) => file.displayPath)).toEqual(["flows/notes.txt", "flows/package.json"]);
  });

  it("matches globs relative to the working directory", async () => {
    const root = tree();
    const { files } = await collectFiles(["flows/**/*.wf"], { cwd: root, kind: "definitions" });
    expect(files.map((file) => file.displayPath)).toEqual(["flows/a.wf", "flows/deep/er/f.wf"]);
  });

  it("leaves out ignored files and counts them", async () => {
    const root = tree();
    const collected = await collectFiles(["flows"], { cwd: root, kind: "wf-sources", ignores: { isIgnored: (file) => file.endsWith(`${path.sep}a.wf`), isIgnoredDirectory: () => false } });
    expect(collected.files.map((file) => file.displayPath)).toEqual(["flows/deep/er/f.wf"]);
    expect(collected.ignored).toBe(1);
  });

  it("fails with one clear message for a missing path, an empty directory, a glob matching nothing", async () => {
    const root = tree();
    const failure = (pattern: string) => collectFiles([pattern], { cwd: root, kind: "definitions" });
    await expect(failure("missing.wf")).rejects.toThrow(new CliError("missing.wf: no such file or directory"));
    await expect(failure("empty")).rejects.toThrow("empty: no workflow definitions found (looked for *.wf, *.workflow.json, *.alert.json, *.view.json and .json definitions)");
    await expect(failure("flows/*.nothing")).rejects.toThrow("flows/*.nothing: no workflow definitions match this pattern");
  });
});

describe("looksLikeDefinition", () => {
  it("reads top-level keys only, leniently", () => {
    expect(looksLikeDefinition(definition)).toBe(true);
    expect(looksLikeDefinition('{"scope": {}}')).toBe(true);
    expect(looksLikeDefinition('{"nodes": [], "edges": []}')).toBe(true);
    expect(looksLikeDefinition('{"nodes": []}')).toBe(false);
    expect(looksLikeDefinition('{"config": {"schemaVersion": 1}}')).toBe(false);
    expect(looksLikeDefinition('// comment\n{"schemaVersion": 1,, oops')).toBe(true);
    expect(looksLikeDefinition("[1, 2]")).toBe(false);
    expect(looksLikeDefinition("")).toBe(false);
  });

  it("takes a top-level `$schema` naming the alert or view schema, and no other", () => {
    expect(looksLikeDefinition('{"$schema": "https://wfkit.dev/schema/alert.schema.json", "name": "a"}')).toBe(true);
    expect(looksLikeDefinition('{"name": "v", "$schema": "../schema/view.schema.json"}')).toBe(true);
    expect(looksLikeDefinition('{"$schema": "https://json.schemastore.org/package.json"}')).toBe(false);
    expect(looksLikeDefinition('{"inner": {"$schema": "alert.schema.json"}}')).toBe(false);
    expect(looksLikeDefinition('{"$schema": ["alert.schema.json"]}')).toBe(false);
    expect(looksLikeDefinition('{"$schema": {"x": "alert.schema.json"}}')).toBe(false);
  });
});

describe("languageOf", () => {
  it("goes by the extension, else by the first character", () => {
    expect(languageOf("a.wf", "{")).toBe("wf");
    expect(languageOf("a.JSON", "x")).toBe("json");
    expect(languageOf("<stdin>", "  {")).toBe("json");
    expect(languageOf("<stdin>", "\ufeff[")).toBe("json");
    expect(languageOf("<stdin>", "workflow x")).toBe("wf");
  });
});
