/**
 * The manual clock fires timers in due order, ties in the order they were scheduled, whatever
 * the order they were scheduled in, however `advance` steps through them, and with timers
 * scheduled by a timer as it fires: the timer list is a heap (clock.ts), and this holds it to
 * what a stable sort of the same timers gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Clock } from "../src/index.js";

interface Planned {
  delay: number;
  /** A delay for a timer this one schedules as it fires, if any. */
  then: number | undefined;
}

const plan = fc.array(fc.record({ delay: fc.integer({ min: 0, max: 50 }), then: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }) }), { maxLength: 60 });
const steps = fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 10 });

describe("the manual clock's order", () => {
  it("is a stable sort by due time, for any timers and any steps of advance", () => {
    fc.assert(
      fc.property(plan, steps, (planned: Planned[], advances: number[]) => {
        const clock = new Clock("manual", 0);
        const fired: string[] = [];
        // What should fire: every timer with its due time and its place in scheduling order.
        const expected: { due: number; order: number; name: string }[] = [];
        let order = 0;
        const add = (name: string, due: number, then: number | undefined) => {
          expected.push({ due, order: order++, name });
          clock.schedule(due - clock.now(), () => {
            fired.push(name);
            if (then !== undefined) add(`${name}+`, clock.now() + then, undefined);
          });
        };
        planned.forEach((timer, i) => add(`t${i}`, timer.delay, timer.then));
        for (const ms of advances) clock.advance(ms);
        // Then on until nothing is left: a timer scheduled as another fires is due after the
        // clock's time then, which may be past the last step.
        for (let i = 0; i < 10 && clock.pending > 0; i++) clock.advance(1_000);
        const byDue = [...expected].sort((a, b) => a.due - b.due || a.order - b.order).map((timer) => timer.name);
        // A timer scheduled while another fires is due no earlier than now, so the whole
        // sequence is in due order; each `t` fires once, and each `+` once after its parent.
        expect(fired).toEqual(byDue);
        expect(clock.pending).toBe(0);
      }),
    );
  });
});
