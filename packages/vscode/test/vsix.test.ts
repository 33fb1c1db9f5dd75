/**
 * The .vsix that `npm run build` packages (the vscode package's `bundle` script runs
 * `vsce package`): it must hold the extension, the server beside it, the grammar, the
 * schema and the language configuration, and its manifest must point at files it holds.
 */
import { readFileSync, existsSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const VSIX = fileURLToPath(new URL("../dist/wfkit-vscode.vsix", import.meta.url));

/** Reads a zip's entries from its central directory (enough for a .vsix; no dependency). */
function readZip(path: string): Map<string, () => Buffer> {
  const zip = readFileSync(path);
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error("not a zip file");
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries = new Map<string, () => Buffer>();
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localHeader = zip.readUInt32LE(offset + 42);
    const name = zip.toString("utf8", offset + 46, offset + 46 + nameLength);
    entries.set(name, () => {
      const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const data = zip.subarray(dataStart, dataStart + compressedSize);
      return method === 8 ? inflateRawSync(data) : Buffer.from(data);
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

describe("the packaged .vsix", () => {
  if (!existsSync(VSIX)) throw new Error(`${VSIX} is missing: run \`npm run build\` first (it packages the extension)`);
  const entries = readZip(VSIX);

  it("holds the extension, its server, the graph preview's page, grammar, schema and language configuration", () => {
    for (const file of [
      "extension/package.json",
      "extension/dist/extension.cjs",
      "extension/dist/server.cjs",
      "extension/dist/preview.js",
      "extension/dist/preview.css",
      "extension/dist/syntaxes/wf.tmLanguage.json",
      "extension/dist/schemas/definition.schema.json",
      "extension/language-configuration.json",
      "extension/readme.md",
      "extension/LICENSE.txt",
    ])
      expect([...entries.keys()], file).toContain(file);
  });

  it("ships no sources, tests or node_modules", () => {
    const unwanted = [...entries.keys()].filter((name) => /^extension\/(src|test|scripts|node_modules)\//.test(name) || name.endsWith(".map"));
    expect(unwanted).toEqual([]);
  });

  it("has a manifest whose every contributed file is in the package", () => {
    const manifest = JSON.parse(entries.get("extension/package.json")!().toString("utf8"));
    const paths = [
      manifest.main,
      ...manifest.contributes.grammars.map((g: { path: string }) => g.path),
      ...manifest.contributes.languages.map((l: { configuration: string }) => l.configuration),
      ...manifest.contributes.jsonValidation.map((j: { url: string }) => j.url),
    ];
    for (const path of paths) expect([...entries.keys()], path).toContain(`extension/${path.replace(/^\.\//, "")}`);
  });

  it("keeps `vscode` out of the bundle (the host provides it)", () => {
    const extension = entries.get("extension/dist/extension.cjs")!().toString("utf8");
    expect(extension).toMatch(/require\("vscode"\)/);
  });
});
