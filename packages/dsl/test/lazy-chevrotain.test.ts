/**
 * Start-up: building chevrotain's lexer and parser costs about 90 ms (pattern analysis and
 * `performSelfAnalysis`), so neither may be built when the package is imported, nor while
 * valid text is read (the fast path reads it). The first text the fast path declines builds
 * them, once (with the probe parser that explains some errors).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";

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
