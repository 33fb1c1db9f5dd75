/** The adaptive debounce, with fake timers and a scripted clock (no wall-clock assertions). */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DiagnosticsScheduler } from "../src/server/diagnostics-scheduler.js";

let clock = 0;
beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
  vi.spyOn(performance, "now").mockImplementation(() => clock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A scheduler whose checks "take" `cost` ms of the scripted clock, and report it as a checker does. */
function scheduler(cost: number, cap = 150) {
  const checks: string[] = [];
  const instance: DiagnosticsScheduler = new DiagnosticsScheduler((uri) => {
    checks.push(uri);
    clock += cost;
    instance.recordCost(uri, cost);
  }, () => cap);
  return { instance, checks };
}

describe("DiagnosticsScheduler", () => {
  it("checks a fast document on the next turn, without a timer", () => {
    const { instance, checks } = scheduler(2);
    instance.schedule("a");
    expect(instance.delayFor("a", clock)).toBe(0);
    vi.runAllTimers();
    expect(checks).toEqual(["a"]);
  });

  it("coalesces edits that arrive before the check runs", () => {
    const { instance, checks } = scheduler(2);
    instance.schedule("a");
    instance.schedule("a");
    instance.schedule("a");
    vi.runAllTimers();
    expect(checks).toEqual(["a"]);
  });

  it("debounces a slow document only while edits come faster than its checks", () => {
    const { instance, checks } = scheduler(60);
    instance.schedule("big");
    vi.runAllTimers();
    expect(checks).toHaveLength(1);
    // An edit 5 ms after the last: a burst, so wait about one check's cost.
    clock += 5;
    instance.schedule("big");
    clock += 5;
    expect(instance.delayFor("big", clock)).toBe(60);
    // After a pause longer than a check, the next edit is checked at once.
    clock += 500;
    expect(instance.delayFor("big", clock)).toBe(0);
  });

  it("never waits longer than the configured cap", () => {
    const { instance } = scheduler(1_000, 150);
    instance.schedule("huge");
    vi.runAllTimers();
    clock += 1;
    instance.schedule("huge");
    expect(instance.delayFor("huge", clock)).toBe(150);
  });

  it("drops a pending check when the document closes", () => {
    const { instance, checks } = scheduler(2);
    instance.schedule("a");
    instance.forget("a");
    vi.runAllTimers();
    expect(checks).toEqual([]);
  });
});
