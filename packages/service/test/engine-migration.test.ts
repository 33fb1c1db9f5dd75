/**
 * A database written by wfkit before migration 5 (each run's nodes a JSON array in
 * `runs.nodes`) opens, keeps its runs and carries them on: fixtures/schema-4-runs.json holds its
 * rows as that wfkit wrote them, and what that wfkit answered for its runs before and after
 * carrying on (fixtures/make-schema-4-runs.mjs made it with that build). The current service,
 * opened on the same rows at the same moment, must answer the same.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import initSqlJs from "sql.js/dist/sql-wasm-inline.js";
import type { SqlValue } from "sql.js";
import { Clock, WorkflowsService, type MockFile, type Seed } from "../src/index.js";
import { MIGRATIONS } from "../src/migrations.js";

interface RunRef {
  workflowId: string;
  runId: string;
}
interface Fixture {
  schemaVersion: number;
  seed: Seed;
  mocks: MockFile;
  now: number;
  runs: Record<string, RunRef>;
  rows: Record<string, Record<string, SqlValue>[]>;
  before: unknown;
  after: unknown;
}

const fixture = JSON.parse(readFileSync(new URL("./fixtures/schema-4-runs.json", import.meta.url), "utf8")) as Fixture;
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** The database as the earlier wfkit left it: its schema (migrations 1 to 4, unchanged since) and its rows. */
async function writtenBefore(): Promise<string> {
  const directory = mkdtempSync(path.join(tmpdir(), "wfkit-engine-migration-"));
  directories.push(directory);
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  for (const migration of MIGRATIONS.slice(0, fixture.schemaVersion)) for (const sql of migration) db.run(sql);
  for (const [table, rows] of Object.entries(fixture.rows))
    for (const row of rows) {
      const columns = Object.keys(row);
      db.run(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, columns.map((c) => row[c]!));
    }
  const file = path.join(directory, "service.db");
  writeFileSync(file, db.export());
  db.close();
  return file;
}

const open = (db: string, clock: Clock) => WorkflowsService.create({ db, seed: fixture.seed, mocks: fixture.mocks, clock });

/** What the fixture recorded, asked of `service` (the generator's `answers`). */
function answers(service: WorkflowsService) {
  return {
    runs: Object.fromEntries(Object.entries(fixture.runs).map(([name, { workflowId, runId }]) => [name, service.run("owner", workflowId, runId)])),
    list: service.ownedRuns("owner", "all"),
    accounts: service.accounts(),
  };
}

describe("a database from before run_nodes (schema version 4)", () => {
  it("is the fixture's: one run in each state, at schema version 4", () => {
    expect(fixture.schemaVersion).toBe(4);
    expect(fixture.rows.runs!.every((row) => typeof row.nodes === "string")).toBe(true);
    expect(Object.fromEntries(Object.entries((fixture.before as { runs: Record<string, { state: string }> }).runs).map(([name, run]) => [name, run.state]))).toEqual({
      succeeded: "succeeded",
      held: "held",
      failed: "failed",
      cancelled: "cancelled",
      running: "running",
      queued: "queued",
    });
  });

  it("opens with its runs answered as before, each node a row once it left pending, and runs.nodes gone", async () => {
    const db = await writtenBefore();
    const service = await open(db, new Clock("manual", fixture.now));
    try {
      expect(service.store.schemaVersion).toBe(MIGRATIONS.length);
      expect(answers(service)).toEqual(fixture.before);
      const columns = service.store.all("SELECT name FROM pragma_table_info('runs')").map((row) => row.name);
      expect(columns).not.toContain("nodes");
      const before = fixture.before as { runs: Record<string, { nodes: { state: string }[] }> };
      const started = Object.values(before.runs).reduce((sum, run) => sum + run.nodes.filter((node) => node.state !== "pending").length, 0);
      expect(service.store.get("SELECT count(*) AS n FROM run_nodes")!.n).toBe(started);
    } finally {
      service.close();
    }
  });

  it("carries its open runs on as the earlier wfkit did (a delivery, parts finishing), and keeps them across a restart", async () => {
    const db = await writtenBefore();
    const clock = new Clock("manual", fixture.now);
    const service = await open(db, clock);
    const held = fixture.runs.held!;
    service.deliver("owner", held.workflowId, held.runId);
    for (let i = 0; i < 10; i++) clock.advance(100);
    expect(answers(service)).toEqual(fixture.after);
    service.close();
    const reopened = await open(db, new Clock("manual", clock.now()));
    try {
      expect(answers(reopened)).toEqual(fixture.after);
    } finally {
      reopened.close();
    }
  });
});
