/**
 * The run engine's inside: what each operation reads and writes (a run start writes no node, a
 * finishing part writes its own row and the nodes the walk reaches, a run list reads no node),
 * the typed row mappers, the time formatter, and reset's table list read from the schema.
 */
import { describe, expect, it } from "vitest";
import { Clock, type WorkflowsService } from "../src/index.js";
import { accountOf, isoTime, RowShapeError, text } from "../src/rows.js";
import { example, harness } from "./helpers.js";

/** Every statement `service` runs (reads and writes) while `body` runs. */
function statements(service: WorkflowsService, body: () => void): { sql: string; params: unknown[] }[] {
  const store = service.store as unknown as Record<"run" | "get" | "all", (sql: string, params?: unknown[]) => unknown>;
  const seen: { sql: string; params: unknown[] }[] = [];
  const originals = { run: store.run, get: store.get, all: store.all };
  for (const name of ["run", "get", "all"] as const)
    store[name] = function (this: unknown, sql: string, params: unknown[] = []) {
      seen.push({ sql, params });
      return originals[name].call(service.store, sql, params);
    };
  try {
    body();
  } finally {
    Object.assign(store, originals);
  }
  return seen;
}

describe("what the run engine reads and writes", () => {
  it("starts a run without writing a node; its walk writes a row for each node it reaches, and a finishing part its own", async () => {
    const { service, clock, published } = await harness({ mocks: { delayMs: 100 } });
    const workflowId = await published(example("grocer-compare"));
    const start = statements(service, () => service.startRun("usr_owner", workflowId, { mockCase: "default" }));
    expect(start.filter(({ sql }) => /run_nodes/.test(sql))).toEqual([]);
    const runId = service.ownedRuns("usr_owner", "all").runs[0]!.runId;
    const nodeRows = () => Number(service.store.get("SELECT count(*) AS n FROM run_nodes WHERE run_id = ?", [runId])!.n);
    expect(nodeRows()).toBe(0);
    // The first step: the trigger passes on, the first part starts; two rows, nothing else of the run's nodes.
    const first = statements(service, () => clock.advance(0));
    expect(first.filter(({ sql }) => /^(INSERT|UPDATE) /.test(sql) && /run_nodes/.test(sql)).map(({ sql, params }) => [sql.split(" ")[0], params[1]])).toEqual([
      ["INSERT", 0],
      ["INSERT", 1],
    ]);
    expect(nodeRows()).toBe(2);
    // A part finishing: its own row is updated, the next node's inserted; no other node row is written.
    const step = statements(service, () => clock.advance(100));
    const written = step.filter(({ sql }) => /^(INSERT|UPDATE) /.test(sql) && /run_nodes/.test(sql));
    expect(written.map(({ sql }) => sql.split(" ")[0])).toEqual(["UPDATE", "INSERT"]);
    expect(written[0]!.params.slice(-1)).toEqual([1]);
    // No read of the run's nodes selects outputs but a pass-through node's read of its inputs'.
    expect(step.filter(({ sql }) => /SELECT[^]*output[^]*FROM run_nodes/.test(sql) && !/position = \?$/.test(sql))).toEqual([]);
    service.close();
  });

  it("lists runs from the runs table alone, selecting only the columns a list answers with", async () => {
    const { service, clock, published } = await harness({ mocks: { delayMs: 10 } });
    const workflowId = await published(example("grocer-compare"));
    for (let i = 0; i < 3; i++) service.startRun("usr_owner", workflowId, { mockCase: "default" });
    for (let i = 0; i < 20; i++) clock.advance(10);
    for (const list of [() => service.workflowRuns("usr_owner", workflowId), () => service.ownedRuns("usr_owner", "all")]) {
      const seen = statements(service, () => list());
      const listing = seen.filter(({ sql }) => /FROM runs/.test(sql));
      expect(listing).toHaveLength(1);
      expect(listing[0]!.sql).not.toMatch(/\*|run_nodes|reserved|mock_case/);
      expect(seen.some(({ sql }) => /run_nodes/.test(sql))).toBe(false);
    }
    expect(service.workflowRuns("usr_owner", workflowId).runs.map((run) => run.state)).toEqual(["succeeded", "succeeded", "succeeded"]);
    service.close();
  });

  it("resets every table the schema holds, run_nodes among them, and keeps the schema's own", async () => {
    const { service, clock, published } = await harness({ mocks: { delayMs: 10 } });
    const workflowId = await published(example("grocer-compare"));
    service.startRun("usr_owner", workflowId, { mockCase: "default" });
    for (let i = 0; i < 20; i++) clock.advance(10);
    expect(Number(service.store.get("SELECT count(*) AS n FROM run_nodes")!.n)).toBeGreaterThan(0);
    const seen = statements(service, () => service.reset());
    const emptied = seen.filter(({ sql }) => sql.startsWith("DELETE FROM")).map(({ sql }) => sql.slice('DELETE FROM "'.length, -1));
    const tables = service.store.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map((row) => text(row, "name"));
    expect([...emptied].sort()).toEqual(tables.filter((name) => name !== "meta").sort());
    // Children before the tables they name: run_nodes before runs, runs before workflows, users before accounts.
    for (const [child, parent] of [["run_nodes", "runs"], ["runs", "versions"], ["versions", "workflows"], ["alert_notifications", "alerts"], ["users", "accounts"]])
      expect(emptied.indexOf(child!)).toBeLessThan(emptied.indexOf(parent!));
    expect(Number(service.store.get("SELECT count(*) AS n FROM run_nodes")!.n)).toBe(0);
    expect(service.store.schemaVersion).toBeGreaterThan(0);
    expect(service.accounts().map((account) => account.id)).toEqual(["acct_default"]);
    service.close();
  });
});

describe("typed rows", () => {
  it("maps an accounts row, and names the column that does not hold what the schema says", () => {
    const row = { id: "a", plan: "professional", region: "eu", acceptance_outstanding: 0, allowance_minor_units: 5, used_minor_units: 1, entitlements: '["anya"]' };
    expect(accountOf(row)).toEqual({ id: "a", plan: "professional", region: "eu", acceptanceOutstanding: false, allowanceMinorUnits: 5, usedMinorUnits: 1, entitlements: ["anya"] });
    expect(() => accountOf({ ...row, plan: null })).toThrow(RowShapeError);
    expect(() => accountOf({ ...row, used_minor_units: "1" })).toThrow(/column used_minor_units holds string where a number was expected/);
  });

  it("formats times as Date's toISOString does", () => {
    const clock = new Clock("manual");
    const times = [0, 1, 999, 86_399_999, 86_400_000, clock.now(), 253_402_300_799_999, 253_402_300_800_000, -1, 1.5, Number.MAX_SAFE_INTEGER / 2048];
    for (let i = 0; i < 2000; i++) times.push(Math.floor(Math.random() * 253_402_300_800_000));
    for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
