/// <reference path="./sql-js.d.ts" />
/**
 * The service's database: SQLite (sql.js, in WebAssembly) with numbered migrations, in memory
 * or backed by a file.
 *
 * sql.js keeps the whole database in memory and can only save it whole (`export()`), which
 * grows with the database. So with a file, every transaction is made durable by appending
 * its statements to a journal (`FILE.journal`, one JSON line per transaction). Lines are
 * written and fdatasynced in groups (group commit: every transaction committed since the last
 * flush shares one sync), and a response is sent only once `durable()` says that everything
 * it could have seen is on disk. The journal is folded into a
 * snapshot (`FILE`, written to a temporary name, fsynced and renamed over the old one) at
 * start and whenever it grows past a threshold. Each transaction bumps a sequence number
 * stored in the database itself, so a journal entry already in the snapshot is never applied
 * twice, whenever a crash falls between the rename and the truncation of the journal.
 *
 * A crash at any moment leaves the old snapshot or the new one (never a torn file) and a
 * journal whose last line may be torn: a line without its newline, or that does not parse,
 * was never acknowledged and is dropped.
 */
import { closeSync, existsSync, fdatasyncSync, fsyncSync, openSync, readFileSync, renameSync, statSync, truncateSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import initSqlJs from "sql.js/dist/sql-wasm-inline.js";
import type { Database, SqlValue } from "sql.js";
import { MIGRATIONS } from "./migrations.js";

export type Row = Record<string, SqlValue>;
type Statement = [sql: string, params: SqlValue[]];

/** A database file this wfkit cannot use (written by a newer wfkit, or not a database). */
export class StoreError extends Error {}

/** When the journal is folded into the snapshot. */
export interface CompactionPolicy {
  maxJournalBytes: number;
  maxJournalEntries: number;
}

export const DEFAULT_COMPACTION: CompactionPolicy = { maxJournalBytes: 8 * 1024 * 1024, maxJournalEntries: 5000 };

let sqlJs: Promise<Awaited<ReturnType<typeof initSqlJs>>> | undefined;

export class Store {
  private statements: Statement[] | undefined;
  private journalFd: number | undefined;
  /** Journal lines of committed transactions not yet on disk, and who waits for them. */
  private unflushed: string[] = [];
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private flushScheduled = false;
  /** Set when a flush failed: memory is ahead of the disk, so nothing more may be acknowledged. */
  private failure: Error | undefined;
  private journalBytes = 0;
  private journalEntries = 0;
  private sequence: number;

  private constructor(
    private readonly db: Database,
    /** The snapshot file, or undefined in memory. */
    readonly file: string | undefined,
    private readonly compaction: CompactionPolicy,
  ) {
    this.sequence = Number(this.metaValue("sequence") ?? 0);
  }

  static async open(file?: string, compaction: CompactionPolicy = DEFAULT_COMPACTION): Promise<Store> {
    sqlJs ??= initSqlJs();
    const SQL = await sqlJs;
    let db: Database;
    if (file && existsSync(file)) {
      const bytes = fileSystem(file, () => readFileSync(file));
      try {
        db = new SQL.Database(bytes);
        db.exec("SELECT count(*) FROM sqlite_master");
      } catch (error) {
        throw new StoreError(`${file} is not a wfkit service database (${error instanceof Error ? error.message : String(error)}); give another --db file`);
      }
    } else {
      db = new SQL.Database();
    }
    // Durability is the journal's job: SQLite's own rollback journal would be a file in
    // sql.js's in-memory file system, created and deleted on every transaction.
    db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY");
    const store = new Store(db, file, compaction);
    store.refuseNewerSchema();
    if (file) {
      store.replayJournal();
      store.migrate();
      fileSystem(file, () => store.compact());
    } else {
      store.migrate();
    }
    return store;
  }

  get schemaVersion(): number {
    return Number(this.metaValue("schema_version") ?? 0);
  }

  /**
   * Runs `body` as one transaction. With a file, it is on disk once `durable()` resolves;
   * acknowledge it only then.
   */
  transaction<T>(body: () => T): T {
    if (this.failure) throw this.failure;
    if (this.statements) return body(); // nested: part of the enclosing transaction
    this.statements = [];
    this.db.exec("BEGIN");
    try {
      const result = body();
      if (this.statements.length > 0) {
        this.sequence++;
        this.setMeta("sequence", String(this.sequence));
        this.appendJournal(this.statements);
      }
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      this.db.exec("ROLLBACK");
      this.sequence = Number(this.metaValue("sequence") ?? 0);
      throw error;
    } finally {
      this.statements = undefined;
      this.maybeCompact();
    }
  }

  /** A statement that changes data; must run inside `transaction`. */
  run(sql: string, params: SqlValue[] = []): void {
    if (!this.statements) throw new Error("Store.run outside a transaction");
    this.db.run(sql, params);
    this.statements.push([sql, params]);
  }

  all(sql: string, params: SqlValue[] = []): Row[] {
    const statement = this.db.prepare(sql);
    try {
      statement.bind(params);
      const rows: Row[] = [];
      while (statement.step()) rows.push(statement.getAsObject());
      return rows;
    } finally {
      statement.free();
    }
  }

  get(sql: string, params: SqlValue[] = []): Row | undefined {
    return this.all(sql, params)[0];
  }

  /** Resolves once every transaction committed so far is on disk (at once in memory). */
  durable(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.unflushed.length) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Writes the unflushed journal lines with one fdatasync, then releases their waiters. */
  flush(): void {
    this.flushScheduled = false;
    if (!this.unflushed.length || this.journalFd === undefined) return;
    const waiters = this.waiters;
    this.waiters = [];
    try {
      const bytes = Buffer.from(this.unflushed.join(""), "utf8");
      this.unflushed = [];
      writeSync(this.journalFd, bytes);
      fdatasyncSync(this.journalFd);
      this.journalBytes += bytes.byteLength;
    } catch (error) {
      this.failure = new StoreError(`the journal of ${this.file} could not be written (${error instanceof Error ? error.message : String(error)}); the service stops acknowledging changes`);
      for (const waiter of waiters) waiter.reject(this.failure);
      return;
    }
    for (const waiter of waiters) waiter.resolve();
  }

  /** Folds the journal into the snapshot now (also done at start and past the threshold). */
  compact(): void {
    if (!this.file) return;
    this.flush();
    if (this.failure) throw this.failure;
    this.closeJournal();
    writeFileDurably(this.file, this.db.export());
    // The snapshot holds every journal entry (their sequence numbers are at most its own),
    // so the journal can start again empty.
    const journal = journalPath(this.file);
    if (existsSync(journal)) {
      truncateSync(journal, 0);
      fsyncPath(journal);
    }
    this.openJournal();
  }

  close(): void {
    if (this.file && !this.failure) this.compact();
    this.closeJournal();
    this.db.close();
  }

  /** Bytes the snapshot would take now (for the bench and `GET /__admin/state`). */
  sizeBytes(): number {
    return this.file && existsSync(this.file) ? statSync(this.file).size : this.db.export().byteLength;
  }

  private metaValue(key: string): string | undefined {
    const table = this.db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
    if (!table.length) return undefined;
    const row = this.get("SELECT value FROM meta WHERE key = ?", [key]);
    return row ? String(row.value) : undefined;
  }

  private setMeta(key: string, value: string): void {
    this.run("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]);
  }

  private refuseNewerSchema(): void {
    const version = this.schemaVersion;
    if (version > MIGRATIONS.length)
      throw new StoreError(
        `${this.file ?? "the database"} has schema version ${version}, written by a newer wfkit; this wfkit knows versions up to ${MIGRATIONS.length}. Upgrade wfkit, or give another --db file.`,
      );
  }

  private migrate(): void {
    const from = this.schemaVersion;
    for (let version = from + 1; version <= MIGRATIONS.length; version++) {
      this.transaction(() => {
        for (const sql of MIGRATIONS[version - 1]!) this.run(sql);
        this.setMeta("schema_version", String(version));
      });
    }
  }

  private replayJournal(): void {
    const journal = journalPath(this.file!);
    if (!existsSync(journal)) return;
    const text = readFileSync(journal, "utf8");
    let start = 0;
    for (;;) {
      const end = text.indexOf("\n", start);
      if (end < 0) break; // a torn last line: never acknowledged
      let entry: { sequence: number; statements: Statement[] };
      try {
        entry = JSON.parse(text.slice(start, end)) as typeof entry;
      } catch {
        break;
      }
      start = end + 1;
      if (entry.sequence <= this.sequence) continue;
      this.db.exec("BEGIN");
      try {
        for (const [sql, params] of entry.statements) this.db.run(sql, params);
        this.db.exec("COMMIT");
      } catch (error) {
        this.db.exec("ROLLBACK");
        throw new StoreError(`${journal} could not be applied to ${this.file} (${error instanceof Error ? error.message : String(error)}); the files do not belong together`);
      }
      this.sequence = entry.sequence;
    }
  }

  private appendJournal(statements: Statement[]): void {
    if (this.journalFd === undefined) return;
    this.unflushed.push(JSON.stringify({ sequence: this.sequence, statements }) + "\n");
    this.journalEntries++;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private maybeCompact(): void {
    if (this.journalFd === undefined) return;
    if (this.failure) return;
    if (this.journalBytes > this.compaction.maxJournalBytes || this.journalEntries > this.compaction.maxJournalEntries) this.compact();
  }

  private openJournal(): void {
    const journal = journalPath(this.file!);
    this.journalFd = openSync(journal, "a");
    this.journalBytes = statSync(journal).size;
    this.journalEntries = 0;
    fsyncPath(path.dirname(journal));
  }

  private closeJournal(): void {
    if (this.journalFd !== undefined) closeSync(this.journalFd);
    this.journalFd = undefined;
  }
}

/** Runs a file operation; a failure of the file system (missing directory, permissions) is a StoreError naming the file. */
function fileSystem<T>(file: string, operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw error;
    const reason = code === "ENOENT" ? "its directory does not exist" : code === "EACCES" || code === "EPERM" ? "permission denied" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
    throw new StoreError(`cannot use ${file} as the database: ${reason}`);
  }
}

export function journalPath(file: string): string {
  return `${file}.journal`;
}

/** Temporary file in the same directory, fsync, rename over the target, fsync the directory. */
function writeFileDurably(target: string, bytes: Uint8Array): void {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temporary, "wx", 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, target);
  fsyncPath(path.dirname(target));
}

function fsyncPath(target: string): void {
  const fd = openSync(target, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
