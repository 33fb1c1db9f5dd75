/**
 * Text with a syntax error on every line (pasted junk, a generator gone wrong) must cost
 * about what valid text does per line. Chevrotain works out a decision's lookahead paths again
 * for each error it reports there, which made such text about 170 µs a character; the parser
 * keeps the paths per decision instead (`raiseNoAltException` in parser.ts). Time is the
 * benchmark's business (test/fuzz/redos.mjs); here the work is counted.
 */
import { describe, expect, it, vi } from "vitest";

const computed = vi.hoisted(() => ({ paths: 0 }));

vi.mock("chevrotain", async (importOriginal) => {
  const chevrotain = await importOriginal<typeof import("chevrotain")>();
  const getLookaheadPaths: typeof chevrotain.getLookaheadPaths = (options) => {
    computed.paths++;
    return chevrotain.getLookaheadPaths(options);
  };
  return { ...chevrotain, getLookaheadPaths };
});

const { parse } = await import("@wfkit/dsl");

describe("error-dense text", () => {
  it("computes each decision's lookahead paths once, however many errors are reported there", () => {
    const text = "a{\n".repeat(400) + "b{{\n".repeat(400);
    const { faults } = parse(text);
    expect(faults.length).toBeGreaterThanOrEqual(800);
    // The parser's own override ran (chevrotain's would not call the public function at all)...
    expect(computed.paths).toBeGreaterThan(0);
    // ...and did not recompute per error.
    expect(computed.paths).toBeLessThan(20);
  });

  it("reports the same errors for a line whether it is the first broken one or the hundredth", () => {
    const once = parse("a{\n").faults.map((d) => d.message);
    const many = parse("a{\n".repeat(100)).faults;
    expect(once.length).toBeGreaterThan(0);
    for (const message of once) expect(many.filter((d) => d.message === message).length).toBeGreaterThanOrEqual(100);
  });
});
