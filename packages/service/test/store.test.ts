/** Durability: restart, torn journal tails, compaction, and a database from a newer wfkit. */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { journalPath, Store, StoreError } from "../src/index.js";
import { MIGRATIONS } from "../src/migrations.js";
import initSqlJs from "sql.js/dist/sql-wasm-inline.js";

const directories: string[] = [];
function databaseFile(): string {
  const directory = mkdtempSync(path.join(tmpdir(), "wfkit-store-"));
  directories.push(directory);
  return path.join(directory, "service.db");
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** One acknowledged write: committed and on disk. */
async function insertAccount(store: Store, id: string): Promise<void> {
  store.transaction(() => store.run("INSERT INTO accounts (id, plan, region, allowance_minor_units) VALUES (?, 'professional', 'eu', 10)", [id]));
  await store.durable();
}
const accountIds = (store: Store) => store.all("SELECT id FROM accounts ORDER BY id").map((row) => row.id);

describe("store", () => {
  it("applies the migrations to a new database", async () => {
    const store = await Store.open();
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    store.close();
  });

  it("keeps every committed transaction across a restart, from the journal alone (no clean close)", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    await insertAccount(store, "a");
    await insertAccount(store, "b");
    // Not closed: what a kill -9 leaves. The journal holds both transactions.
    expect(readFileSync(journalPath(file), "utf8").trim().split("\n")).toHaveLength(2);
    const reopened = await Store.open(file);
    expect(accountIds(reopened)).toEqual(["a", "b"]);
    reopened.close();
  });

  it("syncs transactions committed together in one group, and acknowledges none before it", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    for (const id of ["a", "b", "c"]) store.transaction(() => store.run("INSERT INTO accounts (id, plan, region, allowance_minor_units) VALUES (?, 'professional', 'eu', 1)", [id]));
    expect(readFileSync(journalPath(file), "utf8")).toBe(""); // committed in memory, not yet acknowledgeable
    await store.durable();
    expect(readFileSync(journalPath(file), "utf8").trim().split("\n")).toHaveLength(3);
    expect(accountIds(await Store.open(file))).toEqual(["a", "b", "c"]);
  });

  it("drops a torn last journal line (never acknowledged) and keeps the rest", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    await insertAccount(store, "a");
    appendFileSync(journalPath(file), '{"sequence":99,"statements":[["INSERT INTO accounts (id, plan, region, allowance_minor_u');
    const reopened = await Store.open(file);
    expect(accountIds(reopened)).toEqual(["a"]);
    // The torn tail is gone, so later writes replay too.
    await insertAccount(reopened, "c");
    const again = await Store.open(file);
    expect(accountIds(again)).toEqual(["a", "c"]);
    again.close();
  });

  it("never applies a journal entry twice when a crash falls between the snapshot and the journal's truncation", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    await insertAccount(store, "a");
    const journal = readFileSync(journalPath(file));
    store.compact(); // snapshot now holds "a"
    writeFileSync(journalPath(file), journal); // as if the truncation never happened
    const reopened = await Store.open(file);
    expect(accountIds(reopened)).toEqual(["a"]);
    reopened.close();
  });

  it("folds the journal into the snapshot past its threshold", async () => {
    const file = databaseFile();
    const store = await Store.open(file, { maxJournalBytes: 1 << 20, maxJournalEntries: 3 });
    for (const id of ["a", "b", "c", "d"]) await insertAccount(store, id);
    expect(statSync(journalPath(file)).size).toBe(0);
    await insertAccount(store, "e");
    expect(statSync(journalPath(file)).size).toBeGreaterThan(0);
    const reopened = await Store.open(file);
    expect(accountIds(reopened)).toEqual(["a", "b", "c", "d", "e"]);
    reopened.close();
  });

  it("rolls back a transaction that throws, in memory and on disk", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    expect(() =>
      store.transaction(() => {
        store.run("INSERT INTO accounts (id, plan, region, allowance_minor_units) VALUES ('x', 'professional', 'eu', 1)");
        throw new Error("no");
      }),
    ).toThrow("no");
    await insertAccount(store, "y");
    expect(accountIds(store)).toEqual(["y"]);
    expect(accountIds(await Store.open(file))).toEqual(["y"]);
  });

  it("refuses a database written by a newer wfkit, saying what to do, and leaves it untouched", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    store.transaction(() => store.run("UPDATE meta SET value = ? WHERE key = 'schema_version'", [String(MIGRATIONS.length + 1)]));
    store.close();
    const before = readFileSync(file);
    await expect(Store.open(file)).rejects.toThrow(StoreError);
    await expect(Store.open(file)).rejects.toThrow(new RegExp(`schema version ${MIGRATIONS.length + 1}, written by a newer wfkit.*Upgrade wfkit`));
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("brings a database of an older schema up to date, keeping its data (version 1, before the Consumer Signals tables)", async () => {
    const file = databaseFile();
    const SQL = await initSqlJs();
    const old = new SQL.Database();
    for (const sql of MIGRATIONS[0]!) old.run(sql);
    old.run("INSERT INTO meta (key, value) VALUES ('schema_version', '1')");
    old.run("INSERT INTO accounts (id, plan, region, allowance_minor_units) VALUES ('kept', 'professional', 'eu', 10)");
    writeFileSync(file, old.export());
    old.close();
    const store = await Store.open(file);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    expect(accountIds(store)).toEqual(["kept"]);
    for (const table of ["alert_tokens", "alerts", "saved_views"]) expect(store.all(`SELECT count(*) AS n FROM ${table}`)).toEqual([{ n: 0 }]);
    store.close();
    // The migration was made durable with the rest: a second start finds nothing to do.
    const again = await Store.open(file);
    expect(again.schemaVersion).toBe(MIGRATIONS.length);
    again.close();
  });

  it("refuses a file that is not a database", async () => {
    const file = databaseFile();
    writeFileSync(file, "this is not sqlite, just text that is long enough to have a header ".repeat(10));
    await expect(Store.open(file)).rejects.toThrow(/is not a wfkit service database/);
  });
});
