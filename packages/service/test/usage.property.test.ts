/**
 * The usage ledger under any interleaving of run starts (with and without repeated
 * Idempotency-Keys), time passing, cancels, deliveries and outages: the account never goes
 * over its allowance, what it has used is exactly what runs drew plus what open runs still
 * reserve, and a finished run has drawn or released all of its reservation.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultCatalogue } from "@wfkit/core";
import { loadMocks, statesIn } from "../src/index.js";
import { example, harness } from "./helpers.js";
import { numRuns } from "../../../test/support/num-runs.js";

const mocks = loadMocks(
  {
    delayMs: 10,
    cases: {
      weak: { parts: { "terminal.compare": { "1": { belowFloor: { "terminal.result": {} } } } } },
      broken: { parts: { pack: { "1": { failure: { code: "broken" } } } } },
    },
  },
  "mocks",
  defaultCatalogue,
);

const command = fc.oneof(
  fc.record({ kind: fc.constant("start" as const), mockCase: fc.constantFrom("default", "weak", "broken"), key: fc.option(fc.constantFrom("k1", "k2", "k3"), { nil: undefined }) }),
  fc.record({ kind: fc.constant("advance" as const), ms: fc.constantFrom(0, 5, 10, 30) }),
  fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("deliver" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("outage" as const), on: fc.boolean() }),
);

describe("usage ledger", () => {
  it("never overdraws and always balances", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2000 }), fc.array(command, { maxLength: 25 }), async (allowance, commands) => {
        const { call, admin, published, service } = await harness({ mocks });
        const wf = await published();
        await admin("/accounts/acct_default", { allowanceMinorUnits: allowance });
        const runIds: string[] = [];
        for (const step of commands) {
          if (step.kind === "start") {
            const headers: Record<string, string> = { "Wfkit-Mock-Case": step.mockCase, ...(step.key ? { "Idempotency-Key": `${step.key}-${step.mockCase}` } : {}) };
            const reply = await call("POST", `/api/v1/workflows/${wf}/run`, { body: {}, headers });
            expect([200, 402, 503]).toContain(reply.status);
            if (reply.status === 200 && !runIds.includes(reply.body.runId)) runIds.push(reply.body.runId);
          } else if (step.kind === "advance") {
            await admin("/clock/advance", { ms: step.ms });
          } else if (step.kind === "outage") {
            await admin("/faults", { usage: step.on ? "platform_unavailable" : "up" });
          } else if (runIds.length) {
            const runId = runIds[step.pick % runIds.length]!;
            const reply = await call("POST", `/api/v1/workflows/${wf}/runs/${runId}/${step.kind}`);
            expect([200, 409]).toContain(reply.status);
          }
          const account = service.account("acct_default")!;
          expect(account.usedMinorUnits).toBeLessThanOrEqual(allowance);
          const runs = service.store.all("SELECT state, reserved_minor_units AS reserved, drawn_minor_units AS drawn, released_minor_units AS released FROM runs");
          const open = statesIn("open") as string[];
          const owed = runs.reduce((sum, run) => sum + Number(run.drawn) + (open.includes(String(run.state)) ? Number(run.reserved) - Number(run.drawn) : 0), 0);
          expect(account.usedMinorUnits).toBe(owed);
          for (const run of runs) if (!open.includes(String(run.state))) expect(Number(run.drawn) + Number(run.released)).toBe(Number(run.reserved));
        }
        service.close();
      }),
      { numRuns: numRuns(25) },
    );
  });
});
