// Catastrophic backtracking in the `.wf` lexer: a fast-check property with a TIME bound, so it
// belongs to the benchmark, not the unit suite (a loaded CI machine would make a timing assert
// flaky). It runs against the built sources (`npm run build` first).
//
//   node test/fuzz/redos.mjs                      print the worst cases; exit 1 on a failure
//   import { checkLexerBacktracking } from "../test/fuzz/redos.mjs"   (from bench/run.mjs)
//
// Pathological strings are a prefix, one fragment repeated thousands of times, and a suffix
// that makes the match fail late (the shape that makes a backtracking regex go exponential or
// quadratic), from the characters the token patterns care about. Each token's pattern is run
// alone (sticky, at offset 0, as chevrotain runs it), and the whole text through the lexer
// and parser (`analyzeSource`), each against a budget proportional to the text's length.
import fc from "fast-check";
import { fileURLToPath } from "node:url";
import { analyzeSource } from "@wfkit/dsl";

const lexerModule = new URL("../../packages/dsl/dist/lexer.js", import.meta.url);

const piece = fc.constantFrom("a", "_", ".", "-", "a.", "a-", "-a", "\\", '\\"', '"', "@", "@a.", "0", "1", "1e", "1.", "-0", "e+", "#", " ", "\t", "\r", "\n", "é", "\u00a0", "\ufeff", "{", "[", ",", "->", "\\u", "u");
const pathological = fc.record({ prefix: fc.array(piece, { maxLength: 3 }).map((p) => p.join("")), fragment: fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join("")), suffix: fc.array(piece, { maxLength: 3 }).map((p) => p.join("")) });

function timed(action) {
  const start = performance.now();
  action();
  return performance.now() - start;
}

/** The fastest of `times` runs: the least noisy figure on a busy machine. */
function fastest(action, times = 3) {
  let best = Infinity;
  for (let i = 0; i < times; i++) best = Math.min(best, timed(action));
  return best;
}

/**
 * Runs the property; resolves with the figures (`ok` false and `failures` when a bound was
 * exceeded). Bounds: a token pattern may take `regexMicrosPerChar` per character; the whole
 * analysis `analyzeMicrosPerChar` per character (text where every line is a syntax error
 * costs up to about 30 µs a character, error recovery rather than backtracking, until the
 * parser stops at 1,000 errors), and 4 times the text may
 * take at most `maxGrowth` times as long (linear is 4, quadratic 16). Each bound has `slackMs`
 * added for GC pauses.
 */
export async function checkLexerBacktracking({ numRuns = 100, length = 5_000, regexMicrosPerChar = 0.5, analyzeMicrosPerChar = 100, maxGrowth = 8, slackMs = 50 } = {}) {
  const { allTokens } = await import(lexerModule.href);
  const patterns = allTokens.filter((token) => token.PATTERN instanceof RegExp).map((token) => ({ name: token.name, regex: new RegExp(token.PATTERN.source, `${token.PATTERN.flags.replace("g", "")}y`) }));
  let worstRegex = { ms: 0 };
  let worstAnalyze = { microsPerChar: 0 };
  let worstGrowth = { growth: 0 };
  const failures = [];
  const details = fc.check(
    fc.property(pathological, ({ prefix, fragment, suffix }) => {
      const textOf = (size) => prefix + fragment.repeat(Math.ceil(size / fragment.length)) + suffix;
      const small = textOf(length);
      const large = textOf(length * 4);
      for (const { name, regex } of patterns) {
        const ms = timed(() => {
          regex.lastIndex = 0;
          regex.exec(large);
        });
        const budget = (large.length * regexMicrosPerChar) / 1000 + slackMs;
        if (ms > worstRegex.ms) worstRegex = { ms, token: name, fragment, length: large.length };
        if (ms > budget) failures.push({ kind: "token pattern", token: name, ms, budgetMs: budget, prefix, fragment, suffix });
      }
      const smallMs = fastest(() => analyzeSource(small, "wf"));
      const largeMs = fastest(() => analyzeSource(large, "wf"));
      const microsPerChar = (largeMs * 1000) / large.length;
      const growth = (largeMs + 1) / (smallMs + 1);
      if (microsPerChar > worstAnalyze.microsPerChar) worstAnalyze = { microsPerChar, ms: largeMs, fragment, length: large.length };
      if (growth > worstGrowth.growth) worstGrowth = { growth, smallMs, largeMs, fragment };
      if (largeMs > (large.length * analyzeMicrosPerChar) / 1000 + slackMs) failures.push({ kind: "analyzeSource time", ms: largeMs, length: large.length, prefix, fragment, suffix });
      if (largeMs > smallMs * maxGrowth + slackMs) failures.push({ kind: "analyzeSource growth (4x the text)", smallMs, largeMs, prefix, fragment, suffix });
      return failures.length === 0;
    }),
    { numRuns, endOnFailure: true },
  );
  return { ok: failures.length === 0 && !details.failed, runs: details.numRuns, patterns: patterns.length, worstRegex, worstAnalyze, worstGrowth, failures };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await checkLexerBacktracking({ numRuns: Number(process.env.FUZZ_RUNS ?? 100) });
  console.log(JSON.stringify(result, (key, value) => (typeof value === "number" && !Number.isInteger(value) ? Number(value.toFixed(2)) : value), 2));
  process.exit(result.ok ? 0 : 1);
}
