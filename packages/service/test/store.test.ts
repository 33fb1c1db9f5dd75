/**
 * Durability: restart, torn journal tails, compaction, and a database from a newer wfkit.
 * A store holds its file's lock while open, so "what a crash leaves" is a copy of the files
 * (`crashImage`) opened while the original is still open, as a kill -9 would leave them.
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { journalPath, Store, StoreError } from "../src/index.js";
import { crc32, encodeEntry, readJournal, tableCrc32 } from "../src/store.js";
import { MIGRATIONS } from "../src/migrations.js";
import initSqlJs from "sql.js/dist/sql-wasm-inline.js";

const directories: string[] = [];
function databaseFile(): string {
  const directory = mkdtempSync(path.join(tmpdir(), "wfkit-store-"));
  directories.push(directory);
  return path.join(directory, "service.db");
}
/** A copy of the snapshot and journal as they are on disk now, under a new name (what a kill -9 would leave). */
let images = 0;
function crashImage(file: string): string {
  const copy = path.join(path.dirname(file), `image-${++images}`, path.basename(file));
  mkdirSync(path.dirname(copy));
  if (existsSync(file)) copyFileSync(file, copy);
  if (existsSync(journalPath(file))) copyFileSync(journalPath(file), journalPath(copy));
  return copy;
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
    const reopened = await Store.open(crashImage(file));
    expect(accountIds(reopened)).toEqual(["a", "b"]);
    reopened.close();
    store.close();
  });

  it("syncs transactions committed together in one group, and acknowledges none before it", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    for (const id of ["a", "b", "c"]) store.transaction(() => store.run("INSERT INTO accounts (id, plan, region, allowance_minor_units) VALUES (?, 'professional', 'eu', 1)", [id]));
    expect(readFileSync(journalPath(file), "utf8")).toBe(""); // committed in memory, not yet acknowledgeable
    await store.durable();
    expect(readFileSync(journalPath(file), "utf8").trim().split("\n")).toHaveLength(3);
    const reopened = await Store.open(crashImage(file));
    expect(accountIds(reopened)).toEqual(["a", "b", "c"]);
    reopened.close();
    store.close();
  });

  it("drops a torn last journal line (never acknowledged), says so, and keeps the rest", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    await insertAccount(store, "a");
    const torn = encodeEntry({ sequence: 99, statements: [["INSERT INTO accounts (id, plan, region, allowance_minor_units) VALUES ('t', 'professional', 'eu', 1)", []]] });
    appendFileSync(journalPath(file), torn.subarray(0, 40));
    const image = crashImage(file);
    store.close();
    const reopened = await Store.open(image);
    expect(accountIds(reopened)).toEqual(["a"]);
    expect(reopened.notices).toEqual([expect.stringMatching(/^dropped the torn last entry of .*service\.db\.journal \(line 2: no newline at its end, 40 bytes\)/)]);
    // The torn tail is gone, so later writes replay too.
    await insertAccount(reopened, "c");
    const again = await Store.open(crashImage(image));
    expect(accountIds(again)).toEqual(["a", "c"]);
    expect(again.notices).toEqual([]);
    again.close();
    reopened.close();
  });

  it("never applies a journal entry twice when a crash falls between the snapshot and the journal's truncation", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    await insertAccount(store, "a");
    const journal = readFileSync(journalPath(file));
    store.compact(); // snapshot now holds "a"
    writeFileSync(journalPath(file), journal); // as if the truncation never happened
    const reopened = await Store.open(crashImage(file));
    expect(accountIds(reopened)).toEqual(["a"]);
    reopened.close();
    store.close();
  });

  it("folds the journal into the snapshot past its threshold", async () => {
    const file = databaseFile();
    const store = await Store.open(file, { maxJournalBytes: 1 << 20, maxJournalEntries: 3 });
    for (const id of ["a", "b", "c", "d"]) await insertAccount(store, id);
    expect(statSync(journalPath(file)).size).toBe(0);
    await insertAccount(store, "e");
    expect(statSync(journalPath(file)).size).toBeGreaterThan(0);
    const reopened = await Store.open(crashImage(file));
    expect(accountIds(reopened)).toEqual(["a", "b", "c", "d", "e"]);
    reopened.close();
    store.close();
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
    const reopened = await Store.open(crashImage(file));
    expect(accountIds(reopened)).toEqual(["y"]);
    reopened.close();
    store.close();
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

  it("refuses a second open of one file in one process, and opens it again once closed", async () => {
    const file = databaseFile();
    const store = await Store.open(file);
    await expect(Store.open(file)).rejects.toThrow(new StoreError(`${file} is already open in this process (pid ${process.pid}); close it first`));
    // Another spelling of the same path is the same lock.
    await expect(Store.open(path.join(path.dirname(file), ".", "..", path.basename(path.dirname(file)), "service.db"))).rejects.toThrow(/already open in this process/);
    expect(existsSync(`${file}.lock`)).toBe(true);
    store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
    const again = await Store.open(file);
    again.close();
  });
});

describe("the lock", () => {
  it("takes over a lock naming this very process that this process does not hold (a pid reused after a reboot or in a container)", async () => {
    const file = databaseFile();
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: "2020-01-01T00:00:00.000Z" }));
    const store = await Store.open(file);
    expect(store.notices).toEqual([`took over ${file}.lock: the service that held it (pid ${process.pid}, since 2020-01-01T00:00:00.000Z) no longer runs`]);
    expect(JSON.parse(readFileSync(`${file}.lock`, "utf8"))).toMatchObject({ pid: process.pid, hostname: hostname() });
    store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("releases the lock when the open is refused, and does not remove a lock it does not hold", async () => {
    const file = databaseFile();
    writeFileSync(file, "this is not sqlite, just text that is long enough to have a header ".repeat(10));
    await expect(Store.open(file)).rejects.toThrow(/is not a wfkit service database/);
    expect(existsSync(`${file}.lock`)).toBe(false);
    const other = JSON.stringify({ pid: 1, hostname: "elsewhere.example", startedAt: "2020-01-01T00:00:00.000Z" });
    writeFileSync(`${file}.lock`, other);
    await expect(Store.open(file)).rejects.toThrow(/on another host \(pid 1 on elsewhere\.example/);
    expect(readFileSync(`${file}.lock`, "utf8")).toBe(other);
  });
});

describe("journal entries", () => {
  it("computes zlib's CRC-32, natively or by its table (for a Node without zlib.crc32)", () => {
    for (const sum of [crc32, tableCrc32]) {
      expect(sum(Buffer.from("123456789"), 0, 9).toString(16)).toBe("cbf43926");
      expect(sum(Buffer.alloc(0), 0, 0)).toBe(0);
      expect(sum(Buffer.from("The quick brown fox jumps over the lazy dog"), 0, 43).toString(16)).toBe("414fa339");
      expect(sum(Buffer.from("xx123456789yy"), 2, 11).toString(16)).toBe("cbf43926");
    }
    for (let size = 0; size < 2000; size += 97) {
      const bytes = randomBytes(size);
      expect(tableCrc32(bytes, 0, size)).toBe(crc32(bytes));
    }
  });

  it("frames each entry with its byte length and checksum, multi-byte text included", () => {
    const entry = { sequence: 7, statements: [["INSERT INTO t VALUES (?)", ["naïve — ☃ \n line"]]] as [string, string[]][] };
    const bytes = encodeEntry(entry);
    const text = bytes.toString("utf8");
    const json = JSON.stringify(entry);
    expect(text).toBe(`${Buffer.byteLength(json)} ${crc32(Buffer.from(json)).toString(16).padStart(8, "0")} ${json}\n`);
    expect(readJournal(Buffer.concat([bytes, bytes]))).toEqual([
      { number: 1, entry, final: false },
      { number: 2, entry, final: true },
    ]);
  });

  it("reads the previous format (a bare JSON object a line), and tells a torn last line from damage before it", () => {
    const line = (sequence: number) => JSON.stringify({ sequence, statements: [] }) + "\n";
    expect(readJournal(Buffer.from(line(1) + line(2))).map((l) => [l.entry?.sequence, l.problem])).toEqual([
      [1, undefined],
      [2, undefined],
    ]);
    expect(readJournal(Buffer.from(line(1) + line(2).slice(0, 9)))[1]).toMatchObject({ problem: "no newline at its end, 9 bytes", final: true });
    expect(readJournal(Buffer.from(line(1).replace("1", "x") + line(2)))[0]).toMatchObject({ problem: "it is not JSON", final: false });
  });

  it("calls an intact entry that runs into the next one (a lost newline) damage even on the last line", () => {
    const one = encodeEntry({ sequence: 1, statements: [] });
    const two = encodeEntry({ sequence: 2, statements: [] });
    const joined = Buffer.concat([one.subarray(0, one.length - 1), Buffer.from("x"), two]);
    const lines = readJournal(joined);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ final: false, problem: expect.stringMatching(/a lost newline/) });
  });
});
