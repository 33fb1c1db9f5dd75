/**
 * The bundles that start often leave out jsonc-parser's formatter, whose module builds about
 * 1,200 whitespace strings as it is evaluated (scripts/jsonc-parser-pure.mjs). What wfkit does
 * import, the parser, must still work in such a bundle.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { jsoncParserPure } from "../scripts/jsonc-parser-pure.mjs";

const entry = fileURLToPath(new URL("../src/index.ts", import.meta.url));
const stringIntern = /jsonc-parser[\\/]lib[\\/]esm[\\/]impl[\\/]string-intern\.js$/;

async function bundle(plugins: Plugin[]) {
  return build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: "cjs", platform: "node", mainFields: ["module", "main"], logLevel: "silent", plugins });
}

/** The source files that put code into the bundle (esbuild reads more than it keeps). */
function kept(result: Awaited<ReturnType<typeof bundle>>): string[] {
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
}

describe("a bundle with jsonc-parser marked free of side effects", () => {
  it("leaves out the formatter's string caches, which it would otherwise evaluate", async () => {
    expect(kept(await bundle([])).some((input) => stringIntern.test(input))).toBe(true);

    const pure = kept(await bundle([jsoncParserPure]));
    expect(pure.some((input) => stringIntern.test(input))).toBe(false);
    expect(pure.some((input) => /jsonc-parser[\\/]lib[\\/]esm[\\/]impl[\\/]parser\.js$/.test(input))).toBe(true);
  });

  it("still reads JSON with comments through jsonc-parser's tree, and explains its syntax errors", async () => {
    const pure = await bundle([jsoncParserPure]);
    const bundled = { exports: {} as typeof import("@wfkit/dsl") };
    new Function("module", "exports", "require", pure.outputFiles[0]!.text)(bundled, bundled.exports, createRequire(import.meta.url));

    const text = '{\n  // a note\n  "schemaVersion": 1,\n  "nodes": [],\n  "edges": []\n}\n';
    const commented = bundled.exports.parseJsonSource(text);
    expect(commented.complete).toBe(true);
    expect(commented.value).toEqual({ schemaVersion: 1, nodes: [], edges: [] });
    const one = text.indexOf("1,");
    expect(commented.sourceMap.spanOf("/schemaVersion")).toEqual({ start: one, end: one + 1 });

    const broken = bundled.exports.parseJsonSource('{"nodes": [1,, 2]}');
    expect(broken.complete).toBe(false);
    expect(broken.faults.map((fault) => fault.code)).toContain("json-syntax");
  });
});
