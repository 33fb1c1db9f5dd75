/**
 * When to re-check a document after it changes.
 *
 * The wait adapts to what a check costs and to how fast edits arrive: a document whose last
 * check took less than a frame, or an edit that comes after a pause at least as long as a
 * check, is checked on the next turn of the event loop (no debounce at all); an edit in a
 * burst faster than the checks waits about as long as a check takes, capped by the
 * `debounceMs` setting. Typing in a small file thus gets instant diagnostics, a single
 * keystroke in a huge one too, and a burst of edits to a huge one costs one check.
 *
 * A check runs on whatever version is current when its timer fires, so a newer edit simply
 * replaces a pending check and results of an older version are never published.
 */
export const FRAME_MS = 16;

export class DiagnosticsScheduler {
  private readonly pending = new Map<string, { cancel(): void }>();
  private readonly lastCost = new Map<string, number>();
  private readonly lastChange = new Map<string, number>();

  constructor(
    private readonly check: (uri: string) => void,
    private readonly maxDebounceMs: () => number,
  ) {}

  /** The wait before re-checking `uri`, from what its last check cost and when it last changed. */
  delayFor(uri: string, now: number): number {
    const cost = this.lastCost.get(uri);
    const previousChange = this.lastChange.get(uri);
    if (cost === undefined || cost < FRAME_MS) return 0;
    if (previousChange === undefined || now - previousChange >= cost) return 0;
    return Math.min(this.maxDebounceMs(), Math.ceil(cost));
  }

  schedule(uri: string): void {
    this.pending.get(uri)?.cancel();
    const now = performance.now();
    const delay = this.delayFor(uri, now);
    this.lastChange.set(uri, now);
    const fire = () => {
      this.pending.delete(uri);
      this.check(uri);
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

  /** What a check of `uri` cost (checks may run elsewhere, so the checker reports it). */
  recordCost(uri: string, milliseconds: number): void {
    this.lastCost.set(uri, milliseconds);
  }

  forget(uri: string): void {
    this.pending.get(uri)?.cancel();
    this.pending.delete(uri);
    this.lastCost.delete(uri);
    this.lastChange.delete(uri);
  }

  dispose(): void {
    for (const entry of this.pending.values()) entry.cancel();
    this.pending.clear();
  }
}
