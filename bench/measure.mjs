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

/** Runs each named function `rounds` times, round-robin, after `warmup` rounds; returns medians in ms. */
export function compare(fns, { rounds = 15, warmup = 3 } = {}) {
  const samples = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let r = 0; r < warmup + rounds; r++)
    for (const [name, fn] of Object.entries(fns)) {
      const ms = time(fn);
      if (r >= warmup) samples[name].push(ms);
    }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

export const roundsFor = (nodes) => (nodes >= 1_000_000 ? 3 : nodes >= 100_000 ? 5 : nodes >= 10_000 ? 11 : 21);
