/**
 * When to re-check a document after it changes.
 *
 * The wait adapts to what a check costs: a document whose last check took less than a frame
 * is checked on the next turn of the event loop (no debounce at all), and a slower one waits
 * about as long as its check takes, capped by the `debounceMs` setting. Typing in a small
 * file thus gets instant diagnostics, and a burst of edits to a huge one costs one check.
 *
 * A check runs on whatever version is current when its timer fires, so a newer edit simply
 * replaces a pending check and results of an older version are never published.
 */
export const FRAME_MS = 16;

export class DiagnosticsScheduler {
  private readonly pending = new Map<string, { cancel(): void }>();
  private readonly lastCost = new Map<string, number>();

  constructor(
    private readonly check: (uri: string) => void,
    private readonly maxDebounceMs: () => number,
  ) {}

  /** The wait before re-checking `uri`, from what its last check cost. */
  delayFor(uri: string): number {
    const cost = this.lastCost.get(uri);
    if (cost === undefined || cost < FRAME_MS) return 0;
    return Math.min(this.maxDebounceMs(), Math.ceil(cost));
  }

  schedule(uri: string): void {
    this.pending.get(uri)?.cancel();
    const delay = this.delayFor(uri);
    const fire = () => {
      this.pending.delete(uri);
      const started = performance.now();
      this.check(uri);
      this.lastCost.set(uri, performance.now() - started);
    };
    if (delay === 0) {
      // setImmediate still lets messages already read from the wire go first.
      const handle = setImmediate(fire);
      this.pending.set(uri, { cancel: () => clearImmediate(handle) });
    } else {
      const handle = setTimeout(fire, delay);
      this.pending.set(uri, { cancel: () => clearTimeout(handle) });
    }
  }

  forget(uri: string): void {
    this.pending.get(uri)?.cancel();
    this.pending.delete(uri);
    this.lastCost.delete(uri);
  }

  dispose(): void {
    for (const entry of this.pending.values()) entry.cancel();
    this.pending.clear();
  }
}
