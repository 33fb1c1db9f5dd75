/** When the connection's thread may read a document, from the checker thread's measures (no clocks: costs are given). */
import { describe, expect, it } from "vitest";
import { CancellationTokenSource } from "vscode-languageserver/node";
import { LARGE_EDIT_CHARS, READ_BUDGET_MS, ReadGate } from "../src/server/read-gate.js";

const never = new CancellationTokenSource().token;

describe("ReadGate", () => {
  it("makes requests about an unmeasured document wait for the measure, then says cheap or costly", async () => {
    const gate = new ReadGate();
    gate.opened("a");
    gate.opened("b");
    const order: string[] = [];
    const a = gate.verdict("a", never).then((verdict) => order.push(`a ${verdict}`));
    const b = gate.verdict("b", never).then((verdict) => order.push(`b ${verdict}`));
    gate.measured("b", READ_BUDGET_MS + 1, false);
    gate.measured("a", READ_BUDGET_MS, false);
    await Promise.all([a, b]);
    expect(order).toEqual(["b costly", "a cheap"]);
  });

  it("keeps a costly verdict against cheap incremental reads, and drops it for a cheap full read", async () => {
    const gate = new ReadGate();
    gate.opened("a");
    gate.measured("a", 10 * READ_BUDGET_MS, false);
    gate.measured("a", 1, true);
    expect(await gate.verdict("a", never)).toBe("costly");
    gate.measured("a", 1, false);
    expect(await gate.verdict("a", never)).toBe("cheap");
  });

  it("measures again after a large insertion, not after a small one", async () => {
    const gate = new ReadGate();
    gate.opened("a");
    gate.measured("a", 1, false);
    gate.edited("a", LARGE_EDIT_CHARS);
    expect(await gate.verdict("a", never)).toBe("cheap");
    gate.edited("a", LARGE_EDIT_CHARS + 1);
    const waiting = gate.verdict("a", never);
    gate.measured("a", READ_BUDGET_MS + 1, true);
    expect(await waiting).toBe("costly");
  });

  it("stops waiting when the document closes or the request is cancelled; in-process, everything is cheap at once", async () => {
    const gate = new ReadGate();
    gate.opened("a");
    const closed = gate.verdict("a", never);
    gate.closed("a");
    expect(await closed).toBeUndefined();
    gate.opened("b");
    const source = new CancellationTokenSource();
    const cancelled = gate.verdict("b", source.token);
    source.cancel();
    expect(await cancelled).toBeUndefined();
    const waiting = gate.verdict("b", never);
    gate.setMeasuring(false);
    expect(await waiting).toBe("cheap");
    gate.measured("b", 10 * READ_BUDGET_MS, false);
    expect(await gate.verdict("b", never)).toBe("cheap");
  });
});
