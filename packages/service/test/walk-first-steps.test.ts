/**
 * A run's walk takes its first step once the request that started it is answered. Runs started
 * together take their first steps in one transaction; should that fail, each run is stepped on
 * its own, so one run's failure stops only that run (and is logged by the clock).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WorkflowsService } from "../src/index.js";
import { example, harness } from "./helpers.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const nodeRows = (service: WorkflowsService, runId: string) => Number(service.store.get("SELECT count(*) AS n FROM run_nodes WHERE run_id = ?", [runId])!.n);
const stateOf = (service: WorkflowsService, runId: string) => String(service.store.get("SELECT state FROM runs WHERE id = ?", [runId])!.state);

async function threeStarted() {
  const { service, clock, published } = await harness({ mocks: { delayMs: 100 } });
  const workflowId = await published(example("grocer-compare"));
  const runIds = [0, 1, 2].map((i) => (service.startRun("usr_owner", workflowId, { mockCase: "default", question: `run ${i}` }).body as { runId: string }).runId);
  return { service, clock, runIds };
}

describe("the first steps of runs started together", () => {
  it("are one transaction, and leave each run running with its trigger and first part", async () => {
    const { service, clock, runIds } = await threeStarted();
    const transaction = vi.spyOn(service.store, "transaction");
    clock.advance(0);
    expect(transaction).toHaveBeenCalledTimes(1);
    for (const runId of runIds) {
      expect(nodeRows(service, runId)).toBe(2);
      expect(stateOf(service, runId)).toBe("running");
    }
    service.close();
  });

  it("skip a run cancelled before them", async () => {
    const { service, clock, runIds } = await threeStarted();
    const workflowId = String(service.store.get("SELECT workflow_id FROM runs WHERE id = ?", [runIds[1]!])!.workflow_id);
    service.cancel("usr_owner", workflowId, runIds[1]!);
    const cancelledRows = nodeRows(service, runIds[1]!);
    clock.advance(0);
    expect(stateOf(service, runIds[1]!)).toBe("cancelled");
    expect(nodeRows(service, runIds[1]!)).toBe(cancelledRows);
    expect([runIds[0], runIds[2]].map((runId) => stateOf(service, runId!))).toEqual(["running", "running"]);
    service.close();
  });

  it("stop only the run whose step fails: the others take theirs, and the failure is logged", async () => {
    const { service, clock, runIds } = await threeStarted();
    const failing = runIds[1]!;
    const run = service.store.run.bind(service.store);
    vi.spyOn(service.store, "run").mockImplementation((sql, params = []) => {
      if (sql.startsWith("INSERT INTO run_nodes") && params[0] === failing) throw new Error(`no room for ${failing}`);
      run(sql, params);
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    clock.advance(0);
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toContain(`no room for ${failing}`);
    expect(nodeRows(service, failing)).toBe(0);
    expect(stateOf(service, failing)).toBe("queued");
    for (const runId of [runIds[0]!, runIds[2]!]) {
      expect(nodeRows(service, runId)).toBe(2);
      expect(stateOf(service, runId)).toBe("running");
    }
    service.close();
  });
});
