/**
 * Start-up: building chevrotain's lexer and parser costs about 90 ms (pattern analysis and
 * `performSelfAnalysis`), so neither may be built when the package is imported, nor while
 * valid text is read (the fast path reads it). The first text the fast path declines builds
 * them, once (with the probe parser that explains some errors). In the bundles that opt in
 * (scripts/lazy-chevrotain.mjs), chevrotain is not even evaluated until then.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it, vi } from "vitest";
import { lazyChevrotainPath } from "../scripts/lazy-chevrotain.mjs";

const built = vi.hoisted(() => ({ lexers: 0, parsers: 0 }));

// The package's own chevrotain, with its lexer and parser counting how often they are built.
vi.mock("chevrotain", async (importOriginal) => {
  const chevrotain = await importOriginal<typeof import("chevrotain")>();
  class Lexer extends chevrotain.Lexer {
    constructor(...args: ConstructorParameters<typeof chevrotain.Lexer>) {
      super(...args);
      built.lexers++;
    }
  }
  class EmbeddedActionsParser extends chevrotain.EmbeddedActionsParser {
    override performSelfAnalysis(): void {
      built.parsers++;
      super.performSelfAnalysis();
    }
  }
  return { ...chevrotain, Lexer, EmbeddedActionsParser };
});

const examplesDir = fileURLToPath(new URL("../../../examples/", import.meta.url));

describe("chevrotain is built lazily", () => {
  it("not on import, not for valid text; once, on the first text the fast path declines", async () => {
    const dsl = await import("@wfkit/dsl");
    expect(built).toEqual({ lexers: 0, parsers: 0 });

    for (const name of readdirSync(examplesDir).filter((file) => file.endsWith(".wf"))) {
      const text = readFileSync(examplesDir + name, "utf8");
      expect(dsl.compile(text).faults, name).toEqual([]);
      expect(dsl.format(text).faults, name).toEqual([]);
      expect(dsl.analyzeSource(text, "wf").faults.filter((fault) => fault.code === "syntax"), name).toEqual([]);
    }
    expect(built).toEqual({ lexers: 0, parsers: 0 });

    expect(dsl.parse("part p = pack@1 extra\n").faults).toHaveLength(1);
    // The shared parser, and the probe parser that explains this error (parser.ts).
    expect(built).toEqual({ lexers: 1, parsers: 2 });
    expect(dsl.parse("part = \n").faults.length).toBeGreaterThan(0);
    expect(dsl.parse("part p = pack@1 extra\n").faults).toHaveLength(1);
    expect(dsl.railroadHtml()).toContain("chainStatement");
    expect(built).toEqual({ lexers: 1, parsers: 2 });
  });
});

describe("a bundle with the lazy chevrotain path", () => {
  it("evaluates chevrotain only for the first text the fast path declines", async () => {
    const require = createRequire(import.meta.url);
    const chevrotain = require.resolve("chevrotain");
    // chevrotain, marking the moment its module is evaluated.
    const marked = {
      name: "marked-chevrotain",
      setup(bundle: import("esbuild").PluginBuild) {
        bundle.onResolve({ filter: /^chevrotain$/ }, (args) => (args.namespace === "marked" ? undefined : { path: "chevrotain", namespace: "marked" }));
        bundle.onLoad({ filter: /.*/, namespace: "marked" }, () => ({
          contents: `globalThis.wfkitChevrotainEvaluated = true;\nexport * from ${JSON.stringify(chevrotain)};`,
          resolveDir: dirname(chevrotain),
        }));
      },
    };
    const entry = fileURLToPath(new URL("../src/index.ts", import.meta.url));
    const result = await build({ entryPoints: [entry], bundle: true, write: false, format: "cjs", platform: "node", mainFields: ["module", "main"], logLevel: "silent", plugins: [lazyChevrotainPath, marked] });
    const flag = globalThis as { wfkitChevrotainEvaluated?: boolean };
    delete flag.wfkitChevrotainEvaluated;
    const bundled = { exports: {} as typeof import("@wfkit/dsl") };
    new Function("module", "exports", "require", result.outputFiles[0]!.text)(bundled, bundled.exports, require);

    expect(bundled.exports.compile("trigger t on_demand\npart p = pack@1\nt -> p\n").faults).toEqual([]);
    expect(flag.wfkitChevrotainEvaluated).toBeUndefined();
    expect(bundled.exports.parse("part p = pack@1 extra\n").faults).toHaveLength(1);
    expect(flag.wfkitChevrotainEvaluated).toBe(true);
  });
});
