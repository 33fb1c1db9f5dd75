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
  /** Scheduling order: of timers due at the same time, the one scheduled first fires first. */
  order: number;
  fire: () => void;
}

export class Clock {
  private offset = 0;
  /** The timers as a binary heap, earliest first: a start and a fired step each cost O(log n). */
  private timers = new TimerHeap();
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
    this.timers.add({ due: this.now() + Math.max(0, delayMs), order: this.order++, fire });
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
    return this.timers.size;
  }

  /** Drops every timer (reset and shutdown). */
  clear(): void {
    this.timers = new TimerHeap();
    if (this.armed) clearTimeout(this.armed);
    this.armed = undefined;
  }

  private fireDue(): void {
    if (this.firing) return; // a timer that schedules another is picked up by this loop
    this.firing = true;
    try {
      while ((this.timers.peek()?.due ?? Infinity) <= this.now()) {
        const timer = this.timers.takeFirst();
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
    const next = this.timers.peek();
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

/**
 * Timers ordered by when they are due, then by when they were scheduled (timers due at the
 * same time fire in the order they were scheduled): a binary min-heap in an array, so that
 * thousands of runs waiting on their parts' delays cost a start or a step O(log n), not a
 * shift of the whole list.
 */
class TimerHeap {
  private readonly items: Timer[] = [];

  get size(): number {
    return this.items.length;
  }

  /** The earliest timer, if any. */
  peek(): Timer | undefined {
    return this.items[0];
  }

  add(timer: Timer): void {
    const items = this.items;
    let index = items.push(timer) - 1;
    while (index > 0) {
      const parent = (index - 1) >>> 1;
      if (!earlier(timer, items[parent]!)) break;
      items[index] = items[parent]!;
      index = parent;
    }
    items[index] = timer;
  }

  /** Removes and returns the earliest timer (the heap must not be empty). */
  takeFirst(): Timer {
    const items = this.items;
    const first = items[0]!;
    const last = items.pop()!;
    if (items.length === 0) return first;
    const length = items.length;
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= length) break;
      if (child + 1 < length && earlier(items[child + 1]!, items[child]!)) child++;
      if (!earlier(items[child]!, last)) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = last;
    return first;
  }
}

function earlier(a: Timer, b: Timer): boolean {
  return a.due < b.due || (a.due === b.due && a.order < b.order);
}
