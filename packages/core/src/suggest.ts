import { distance } from "fastest-levenshtein";

/**
 * The candidate closest to `word`, if it is close enough to be a likely typo.
 * `budget` caps the work across many calls (a hostile file can have a million misspelt
 * names): once spent, no more suggestions are made rather than going quadratic.
 */
export class Suggester {
  private remainingComparisons: number;
  /** Answers per candidate list (by identity), so repeated misspellings cost one search. */
  private readonly cache = new WeakMap<readonly string[], Map<string, string | undefined>>();

  constructor(budget = 2_000_000) {
    this.remainingComparisons = budget;
  }

  closest(word: string, candidates: readonly string[]): string | undefined {
    let answers = this.cache.get(candidates);
    if (!answers) this.cache.set(candidates, (answers = new Map()));
    if (answers.has(word)) return answers.get(word);
    let best: string | undefined;
    if (this.remainingComparisons >= candidates.length && word.length <= 200) {
      this.remainingComparisons -= candidates.length;
      // Short words allow fewer edits: `ui` is not a typo of `id`, but `pak` is of `pack`.
      const limit = word.length <= 3 ? 1 : word.length <= 6 ? 2 : 3;
      let bestDistance = limit + 1;
      const lower = word.toLowerCase();
      for (const candidate of candidates) {
        if (candidate === word || Math.abs(candidate.length - word.length) > limit) continue;
        const longer = Math.max(word.length, candidate.length);
        // A comparison of words longer than 32 characters costs more: charged by its size.
        if (longer > 32) {
          this.remainingComparisons -= Math.ceil(longer / 32) * Math.ceil(longer / 4);
          if (this.remainingComparisons < 0) {
            // Budget spent mid-search: no suggestion rather than the best of a partial search.
            this.remainingComparisons = 0;
            best = undefined;
            break;
          }
        }
        const d = candidate.length === word.length && candidate.toLowerCase() === lower ? 0 : distance(word, candidate);
        if (d < bestDistance) {
          bestDistance = d;
          best = candidate;
        }
      }
    }
    answers.set(word, best);
    return best;
  }
}
