/**
 * The service clock's timers on real time: a timer fires when its time comes, however the
 * timers before it were scheduled and however far `advance` moved the clock; the manual
 * clock fires only on `advance`, in due order, ties in the order scheduled.
 */
import { describe, expect, it, vi } from "vitest";
import { Clock } from "../src/index.js";

describe("the real clock", () => {
  it("fires a near timer scheduled after a far one when its time comes", async () => {
    const clock = new Clock("real");
    const fired: string[] = [];
    clock.schedule(3_600_000, () => fired.push("far"));
    clock.schedule(20, () => fired.push("near"));
    await vi.waitFor(() => expect(fired).toEqual(["near"]), { timeout: 5_000, interval: 10 });
    expect(clock.pending).toBe(1);
    clock.clear();
  });

  it("fires a far timer at once when advance brings its time, and one still ahead when its time comes", async () => {
    const clock = new Clock("real");
    const fired: string[] = [];
    clock.schedule(3_600_000, () => fired.push("an hour"));
    clock.schedule(3_600_050, () => fired.push("an hour and 50 ms"));
    clock.advance(3_600_000);
    expect(fired).toEqual(["an hour"]);
    // 50 ms ahead now: the armed timeout must count from the new offset, not the hour before it.
    await vi.waitFor(() => expect(fired).toEqual(["an hour", "an hour and 50 ms"]), { timeout: 5_000, interval: 10 });
    expect(clock.pending).toBe(0);
  });

  it("fires a timer that advance brought near but not yet due when its time comes, not when it was first due", async () => {
    const clock = new Clock("real");
    const fired: string[] = [];
    clock.schedule(3_600_050, () => fired.push("an hour and 50 ms"));
    clock.advance(3_600_000);
    expect(fired).toEqual([]);
    await vi.waitFor(() => expect(fired).toEqual(["an hour and 50 ms"]), { timeout: 5_000, interval: 10 });
  });

  it("fires each of many timers once, in due order", async () => {
    const clock = new Clock("real");
    const fired: number[] = [];
    const delays = [40, 5, 30, 5, 0, 20, 3_600_000];
    delays.forEach((delay, i) => clock.schedule(delay, () => fired.push(i)));
    await vi.waitFor(() => expect(fired).toHaveLength(delays.length - 1), { timeout: 5_000, interval: 10 });
    expect(fired).toEqual([4, 1, 3, 5, 2, 0]);
    clock.clear();
  });
});

describe("the manual clock", () => {
  it("fires nothing until advanced, then every timer due, in due order and ties in scheduling order", () => {
    const clock = new Clock("manual");
    const fired: string[] = [];
    clock.schedule(10, () => fired.push("b"));
    clock.schedule(5, () => fired.push("a"));
    clock.schedule(10, () => fired.push("c"));
    clock.schedule(11, () => fired.push("d"));
    expect(fired).toEqual([]);
    clock.advance(10);
    expect(fired).toEqual(["a", "b", "c"]);
    clock.advance(1);
    expect(fired).toEqual(["a", "b", "c", "d"]);
  });
});
