/**
 * The service's time and timers. Everything that depends on time (credential cache, key
 * expiry, idempotency retention, a part's delay) reads this clock, so tests and the admin
 * surface can move time forward.
 *
 * "real" follows the wall clock plus an offset (advanced by `advance`) and fires timers with
 * setTimeout; "manual" stands still until `advance` is called and fires due timers then,
 * which makes in-process tests deterministic.
 */
interface Timer {
  due: number;
  /** Scheduling order, for reading a timer list while debugging. */
  order: number;
  fire: () => void;
}

export class Clock {
  private offset = 0;
  private timers: Timer[] = [];
  private order = 0;
  private armed: NodeJS.Timeout | undefined;
  /** When the armed timeout is due (it stays armed while the earliest timer is the same). */
  private armedDue = 0;
  private firing = false;

  constructor(
    readonly mode: "real" | "manual" = "real",
    private readonly manualStart = Date.UTC(2026, 0, 1),
  ) {}

  now(): number {
    return (this.mode === "manual" ? this.manualStart : Date.now()) + this.offset;
  }

  /** Calls `fire` once `delayMs` have passed on this clock. */
  schedule(delayMs: number, fire: () => void): void {
    const timer = { due: this.now() + Math.max(0, delayMs), order: this.order++, fire };
    // Binary search for the first timer due later: timers due at the same time fire in the
    // order they were scheduled.
    let low = 0;
    let high = this.timers.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.timers[middle]!.due <= timer.due) low = middle + 1;
      else high = middle;
    }
    this.timers.splice(low, 0, timer);
    this.arm();
  }

  /** Moves time forward and fires every timer that falls due, in order. */
  advance(ms: number): void {
    this.offset += Math.max(0, ms);
    // The armed timeout counted real time to the old offset: arm again from the new one.
    if (this.armed) clearTimeout(this.armed);
    this.armed = undefined;
    this.fireDue();
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.timers.length;
  }

  /** Drops every timer (reset and shutdown). */
  clear(): void {
    this.timers = [];
    if (this.armed) clearTimeout(this.armed);
    this.armed = undefined;
  }

  private fireDue(): void {
    if (this.firing) return; // a timer that schedules another is picked up by this loop
    this.firing = true;
    try {
      while (this.timers.length && this.timers[0]!.due <= this.now()) {
        const timer = this.timers.shift()!;
        // A failing step of one run must not stop the others, nor the process.
        try {
          timer.fire();
        } catch (error) {
          console.error(`wfkit serve: a scheduled step failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        }
      }
    } finally {
      this.firing = false;
      this.arm();
    }
  }

  private arm(): void {
    if (this.mode !== "real" || this.firing) return;
    const next = this.timers[0];
    // A run start schedules a timer due long after the earliest: nothing to re-arm then.
    if (this.armed && next?.due === this.armedDue) return;
    if (this.armed) clearTimeout(this.armed);
    this.armed = undefined;
    if (!next) return;
    this.armedDue = next.due;
    this.armed = setTimeout(() => {
      this.armed = undefined;
      this.fireDue();
    }, Math.max(0, next.due - this.now()));
  }
}
