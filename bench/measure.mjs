// Timing helpers: medians of repeated runs, interleaved so that two things compared are
// measured under the same machine load (the figures that matter are ratios).
import { performance } from "node:perf_hooks";

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function time(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/**
 * Runs each named function `rounds` times, round-robin, after at least `warmup` rounds and
 * `warmupMs` of warming (small inputs need many rounds before V8 has optimised the code, and
 * the figures are about steady state); returns medians in ms.
 *
 * Each round starts one function later than the last: a function that allocates a lot leaves
 * garbage that the next one pays to collect, and in a fixed order one function would always
 * pay for the same neighbour (which moved a ratio by up to a third).
 */
export function compare(fns, { rounds = 15, warmup = 3, warmupMs = 300 } = {}) {
  const entries = Object.entries(fns);
  const samples = Object.fromEntries(entries.map(([k]) => [k, []]));
  const warmUntil = performance.now() + warmupMs;
  for (let r = 0; r < warmup || performance.now() < warmUntil; r++) for (const [, fn] of entries) fn();
  for (let r = 0; r < rounds; r++)
    for (let k = 0; k < entries.length; k++) {
      const [name, fn] = entries[(r + k) % entries.length];
      samples[name].push(time(fn));
    }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

// Multiples of 3, so that each of the three functions a section compares starts as many rounds.
export const roundsFor = (nodes) => (nodes >= 1_000_000 ? 3 : nodes >= 100_000 ? 9 : nodes >= 10_000 ? 30 : 42);
