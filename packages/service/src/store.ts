/// <reference path="./sql-js.d.ts" />
/**
 * The service's database: SQLite (sql.js, in WebAssembly) with numbered migrations, in memory
 * or backed by a file.
 *
 * sql.js keeps the whole database in memory and can only save it whole (`export()`), which
 * grows with the database. So with a file, every transaction is made durable by appending
 * its statements to a journal (`FILE.journal`, one line per transaction). Lines are
 * written and fdatasynced in groups (group commit: every transaction committed since the last
 * flush shares one sync), and a response is sent only once `durable()` says that everything
 * it could have seen is on disk. The journal is folded into a
 * snapshot (`FILE`, written to a temporary name, fsynced and renamed over the old one) at
 * start and whenever it grows past a threshold. Each transaction bumps a sequence number
 * stored in the database itself, so a journal entry already in the snapshot is never applied
 * twice, whenever a crash falls between the rename and the truncation of the journal.
 *
 * Each journal line is `<length> <crc32> <json>`: the byte length of the JSON and its CRC-32
 * (8 hex digits), so every entry can be checked on its own. A crash at any moment leaves the
 * old snapshot or the new one (never a torn file) and a journal whose last entry may be torn
 * (no newline, or failing its check): that entry was never acknowledged and is dropped, with
 * a notice. An entry that fails its check anywhere else is damage, not a crash: the store
 * refuses to open and changes nothing, unless opened with `recover`, which keeps every intact
 * entry, moves the damaged journal aside and says what was lost. Journals of the previous
 * format (one bare JSON object a line) are still read.
 *
 * Every file written here (snapshot, journal, temporaries, the lock) is created with mode
 * 0600, and an existing snapshot or journal with wider permissions is narrowed at open: they
 * hold the service's data, credentials' hashes among it. A file store holds `FILE.lock` for
 * its life (see lock.ts): a second service on the same file is refused.
 */
import { chmodSync, closeSync, existsSync, fdatasyncSync, fsyncSync, openSync, readFileSync, renameSync, statSync, truncateSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import initSqlJs from "sql.js/dist/sql-wasm-inline.js";
import type { Database, SqlValue, Statement as Prepared } from "sql.js";
import { acquireLock, LockRefused, type HeldLock } from "./lock.js";
import { MIGRATIONS, VACUUM_AFTER } from "./migrations.js";
import { text } from "./rows.js";

export type Row = Record<string, SqlValue>;
type Statement = [sql: string, params: SqlValue[]];
interface JournalEntry {
  sequence: number;
  statements: Statement[];
}

/** A database file this wfkit cannot use (written by a newer wfkit, not a database, damaged, in use). */
export class StoreError extends Error {}

/** When the journal is folded into the snapshot. */
export interface CompactionPolicy {
  maxJournalBytes: number;
  maxJournalEntries: number;
}

export const DEFAULT_COMPACTION: CompactionPolicy = { maxJournalBytes: 8 * 1024 * 1024, maxJournalEntries: 5000 };

export interface OpenOptions {
  /**
   * Open a file whose journal is damaged: keep every intact entry, move the journal aside to
   * `FILE.journal.damaged-<time>`, and say in `notices` which entries were lost.
   */
  recover?: boolean;
}

let sqlJs: Promise<Awaited<ReturnType<typeof initSqlJs>>> | undefined;

const NEWLINE = Buffer.from("\n");
/** Prepared statements kept per store: every SQL text the service runs, with room for the few made per table (reset). */
const MAX_PREPARED = 256;
/** Remembered answers kept per store (all dropped at once past this: they are cheap to work out again). */
const MAX_ANSWERS = 1024;

export class Store {
  /** What the operator should hear about this open: a torn entry dropped, a stale lock taken over, a recovery. One sentence each. */
  readonly notices: string[] = [];
  private statements: Statement[] | undefined;
  private journalFd: number | undefined;
  /** Journal bytes of committed transactions not yet on disk, and who waits for them. */
  private unflushed: Buffer[] = [];
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private flushScheduled = false;
  /** Set when a flush failed: memory is ahead of the disk, so nothing more may be acknowledged. */
  private failure: Error | undefined;
  private journalBytes = 0;
  private journalEntries = 0;
  private sequence: number;
  /**
   * Statements prepared once and kept by their SQL text: compiling SQL costs more than running
   * most of these statements (a 30-node run's step, an account read), so a request pays it once
   * per text for the life of the store (sql.js's `export()` copies the database through
   * SQLite's backup API and leaves them be).
   */
  private readonly prepared = new Map<string, { statement: Prepared; names: string[] | undefined; writes?: string }>();
  /**
   * How many committed transactions changed each table, and (`everything`) how many changed
   * what a statement's text does not name (a migration, a rollback): an answer worked out
   * from some tables is stale once one of these moves.
   */
  private readonly tableChanges = new Map<string, number>();
  private everything = 0;
  /** The tables the open transaction's statements write (`*`: unknown). */
  private written = new Set<string>();
  /** Answers worked out from the database, each kept until a table it read changes (`remembered`). */
  private readonly answers = new Map<string, { stamp: string; value: unknown }>();

  private constructor(
    private readonly db: Database,
    /** The snapshot file, or undefined in memory. */
    readonly file: string | undefined,
    private readonly compaction: CompactionPolicy,
    private readonly lock: HeldLock | undefined,
  ) {
    this.sequence = Number(this.metaValue("sequence") ?? 0);
  }

  static async open(file?: string, compaction: CompactionPolicy = DEFAULT_COMPACTION, options: OpenOptions = {}): Promise<Store> {
    sqlJs ??= initSqlJs();
    const SQL = await sqlJs;
    if (!file) {
      const store = new Store(configure(new SQL.Database()), undefined, compaction, undefined);
      store.migrate();
      return store;
    }
    let lock: HeldLock;
    try {
      lock = fileSystem(file, () => acquireLock(file));
    } catch (error) {
      if (error instanceof LockRefused) throw new StoreError(error.message);
      throw error;
    }
    let db: Database | undefined;
    try {
      // Narrow what an earlier wfkit (or a copy) left readable to others, before reading it.
      fileSystem(file, () => {
        narrowPermissions(file);
        narrowPermissions(journalPath(file));
      });
      if (existsSync(file)) {
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
      const store = new Store(configure(db), file, compaction, lock);
      if (lock.notice) store.notices.push(lock.notice);
      store.refuseNewerSchema();
      fileSystem(file, () => store.replayJournal(options.recover === true));
      store.migrate();
      fileSystem(file, () => store.compact());
      return store;
    } catch (error) {
      db?.close();
      lock.release();
      throw error;
    }
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
    this.step("BEGIN");
    try {
      const result = body();
      // Numbered for the journal's replay; a store in memory has no journal.
      if (this.statements.length > 0 && this.file !== undefined) {
        this.sequence++;
        this.setMeta("sequence", String(this.sequence));
        this.appendJournal(this.statements);
      }
      this.step("COMMIT");
      for (const table of this.written) {
        if (table === "*") this.everything++;
        else this.tableChanges.set(table, (this.tableChanges.get(table) ?? 0) + 1);
      }
      return result;
    } catch (error) {
      this.step("ROLLBACK");
      this.everything++;
      this.sequence = Number(this.metaValue("sequence") ?? 0);
      throw error;
    } finally {
      this.statements = undefined;
      this.written.clear();
      this.maybeCompact();
    }
  }

  /** Runs a statement without parameters or rows (BEGIN, COMMIT), prepared once. */
  private step(sql: string): void {
    const { statement } = this.statement(sql);
    try {
      statement.step();
    } finally {
      statement.reset();
    }
  }

  /** A statement that changes data; must run inside `transaction`. */
  run(sql: string, params: SqlValue[] = []): void {
    if (!this.statements) throw new Error("Store.run outside a transaction");
    const prepared = this.statement(sql);
    const { statement } = prepared;
    try {
      statement.bind(params);
      statement.step();
    } finally {
      statement.reset();
    }
    this.statements.push([sql, params]);
    this.written.add((prepared.writes ??= tableWritten(sql)));
  }

  all(sql: string, params: SqlValue[] = []): Row[] {
    const prepared = this.statement(sql);
    const { statement } = prepared;
    try {
      statement.bind(params);
      const rows: Row[] = [];
      // The column names once a statement, not once a row as `getAsObject` reads them.
      while (statement.step()) rows.push(asRow((prepared.names ??= statement.getColumnNames()), statement.get()));
      return rows;
    } finally {
      statement.reset();
    }
  }

  get(sql: string, params: SqlValue[] = []): Row | undefined {
    const prepared = this.statement(sql);
    const { statement } = prepared;
    try {
      statement.bind(params);
      return statement.step() ? asRow((prepared.names ??= statement.getColumnNames()), statement.get()) : undefined;
    } finally {
      statement.reset();
    }
  }

  /**
   * `compute()`, or what it gave last time for `key` if none of `tables` has changed since.
   * For a read that many callers repeat between changes (a run list polled by a dashboard or
   * `wfkit runs watch`, the workflow row every run start reads): `compute` must read those
   * tables and no others, depend on them and `key` alone (not on the clock), and its value must
   * not be changed by whoever receives it. A thrown refusal is not kept.
   */
  remembered<T>(key: string, tables: readonly string[], compute: () => T): T {
    // Inside a transaction that has written one of the tables, what is kept is older than what
    // the transaction sees, and what it sees may yet be rolled back: read afresh, keep nothing.
    if (this.written.size && (this.written.has("*") || tables.some((table) => this.written.has(table)))) return compute();
    let stamp = String(this.everything);
    for (const table of tables) stamp += ` ${this.tableChanges.get(table) ?? 0}`;
    const kept = this.answers.get(key);
    if (kept && kept.stamp === stamp) return kept.value as T;
    const value = compute();
    if (this.answers.size >= MAX_ANSWERS) this.answers.clear();
    this.answers.set(key, { stamp, value });
    return value;
  }

  /** Forgets every remembered answer, so the next read works each out again. */
  forgetAnswers(): void {
    this.answers.clear();
  }

  /**
   * The prepared statement for `sql` and its result's column names (known once it has given a
   * row), made on first use; the least recently made is freed past MAX_PREPARED. The schema
   * changes only in `migrate`, which forgets them all, so the names stay right.
   */
  private statement(sql: string): { statement: Prepared; names: string[] | undefined; writes?: string } {
    let prepared = this.prepared.get(sql);
    if (!prepared) {
      prepared = { statement: this.db.prepare(sql), names: undefined };
      if (this.prepared.size >= MAX_PREPARED) {
        const [oldest, kept] = this.prepared.entries().next().value as [string, { statement: Prepared }];
        kept.statement.free();
        this.prepared.delete(oldest);
      }
      this.prepared.set(sql, prepared);
    }
    return prepared;
  }

  private forgetStatements(): void {
    for (const { statement } of this.prepared.values()) statement.free();
    this.prepared.clear();
  }


  /** Whether every transaction committed so far is on disk (always, in memory), so `durable()` need not be awaited. */
  get isDurable(): boolean {
    return this.failure === undefined && this.unflushed.length === 0;
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
      const bytes = this.unflushed.length === 1 ? this.unflushed[0]! : Buffer.concat(this.unflushed);
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
    try {
      if (this.file && !this.failure) this.compact();
    } finally {
      this.closeJournal();
      this.db.close();
      this.lock?.release();
    }
  }

  /** Bytes the snapshot would take now (for the bench and `GET /__admin/state`). */
  sizeBytes(): number {
    return this.file && existsSync(this.file) ? statSync(this.file).size : this.db.export().byteLength;
  }

  private metaValue(key: string): string | undefined {
    const table = this.db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
    if (!table.length) return undefined;
    const row = this.get("SELECT value FROM meta WHERE key = ?", [key]);
    return row ? text(row, "value") : undefined;
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
    // Statements prepared before a migration may name columns it changed.
    if (from < MIGRATIONS.length) this.forgetStatements();
    // A migration that deletes a secret leaves its bytes in freed pages until the database
    // is rebuilt; the snapshot written next is the rebuilt one.
    let vacuum = false;
    for (let version = from + 1; version <= MIGRATIONS.length; version++) if (from > 0 && VACUUM_AFTER.has(version)) vacuum = true;
    if (vacuum) this.db.exec("VACUUM");
  }

  /**
   * Applies the journal's entries newer than the snapshot. A torn last entry is dropped with
   * a notice; any other entry that fails its check, or a gap in the sequence, refuses the
   * open before anything on disk is changed (or, with `recover`, is skipped and reported,
   * and the journal moved aside once the snapshot holds everything kept).
   */
  private replayJournal(recover: boolean): void {
    const file = this.file!;
    const journal = journalPath(file);
    if (!existsSync(journal)) {
      if (recover) this.notices.push(`--recover: ${journal} does not exist; nothing to recover`);
      return;
    }
    const lines = readJournal(readFileSync(journal));
    const total = lines.length;
    const recoverHint = `nothing was changed; run \`wfkit serve --db ${shellWord(file)} --recover\` to keep every intact entry and move the damaged journal aside, or restore ${file} and its journal from a backup`;
    const snapshotSequence = this.sequence;
    const lost: { line: JournalLine; why: string }[] = [];
    const missing: number[] = [];
    let kept = 0;
    for (const line of lines) {
      if (line.problem !== undefined) {
        if (line.final) {
          this.notices.push(`dropped the torn last entry of ${journal} (line ${line.number}: ${line.problem}); an entry cut short by a crash was never acknowledged`);
          continue;
        }
        if (!recover) throw new StoreError(`${journal} is damaged at line ${line.number} of ${total} (${line.problem}); that is not a torn last entry, the only kind that can be dropped safely. ${capitalise(recoverHint)}`);
        lost.push({ line, why: line.problem });
        continue;
      }
      const entry = line.entry!;
      if (entry.sequence <= this.sequence) continue;
      if (entry.sequence !== this.sequence + 1) {
        if (!recover)
          throw new StoreError(
            `${journal} does not follow on from ${file}: line ${line.number} holds transaction ${entry.sequence}, but the database ends at ${this.sequence}, so transactions are missing; ${recoverHint}`,
          );
        for (let s = this.sequence + 1; s < entry.sequence; s++) missing.push(s);
      }
      this.db.exec("BEGIN");
      try {
        for (const [sql, params] of entry.statements) this.db.run(sql, params);
        this.db.exec("COMMIT");
      } catch (error) {
        this.db.exec("ROLLBACK");
        const why = error instanceof Error ? error.message : String(error);
        if (!recover) throw new StoreError(`${journal} could not be applied to ${file} at line ${line.number} (${why}); the files do not belong together; ${recoverHint}`);
        lost.push({ line, why: `transaction ${entry.sequence} could not be applied: ${why}` });
        continue;
      }
      this.sequence = entry.sequence;
      kept++;
    }
    if (!recover) return;
    if (!lost.length && !missing.length) {
      this.notices.push(`--recover: ${journal} has no damaged entry; nothing to recover`);
      return;
    }
    // The snapshot first, then the journal aside: a crash between the two leaves the damaged
    // journal beside a snapshot that already holds every entry kept, and a second --recover
    // finds the same damage and loses nothing more.
    writeFileDurably(file, this.db.export());
    const aside = `${journal}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(journal, aside);
    fsyncPath(path.dirname(journal));
    // A damaged line followed by an intact entry the snapshot already held was folded in
    // before: nothing of it is lost. One after the last intact entry hid an unknown number.
    const nextSequence = new Map<JournalLine, number>();
    let next: number | undefined;
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]!;
      if (line.entry) next = line.entry.sequence;
      else if (next !== undefined) nextSequence.set(line, next);
    }
    const described = lost.map(({ line, why }) => {
      const following = nextSequence.get(line);
      const whose = line.entry ? "" : following !== undefined && following <= snapshotSequence ? ", already in the snapshot" : following === undefined ? `, after transaction ${this.sequence}` : "";
      return `line ${line.number} (${why}${whose})`;
    });
    const skipped = described.length ? `; skipped ${described.join(", ")}` : "";
    const transactions = missing.length ? `; missing transactions: ${compactRanges(missing)}` : "";
    this.notices.push(`recovered ${file}: kept ${kept} journal ${kept === 1 ? "entry" : "entries"} after the snapshot's transaction ${snapshotSequence}${skipped}${transactions}; the damaged journal was moved to ${aside}`);
  }

  private appendJournal(statements: Statement[]): void {
    if (this.journalFd === undefined) return;
    this.unflushed.push(encodeEntry({ sequence: this.sequence, statements }));
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
    this.journalFd = openSync(journal, "a", 0o600);
    this.journalBytes = statSync(journal).size;
    this.journalEntries = 0;
    fsyncPath(path.dirname(journal));
  }

  private closeJournal(): void {
    if (this.journalFd !== undefined) closeSync(this.journalFd);
    this.journalFd = undefined;
  }
}

function asRow(names: readonly string[], values: readonly SqlValue[]): Row {
  const row: Row = {};
  for (let i = 0; i < names.length; i++) row[names[i]!] = values[i]!;
  return row;
}

/** The table a data-changing statement writes, or `*` when its text does not say plainly (a migration's CREATE or ALTER, a trigger). */
export function tableWritten(sql: string): string {
  const match = /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+"?(\w+)"?(?:[\s(]|$)/i.exec(sql);
  return match ? match[1]!.toLowerCase() : "*";
}

function configure(db: Database): Database {
  // Durability is the journal's job: SQLite's own rollback journal would be a file in
  // sql.js's in-memory file system, created and deleted on every transaction.
  db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY");
  return db;
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

/** Makes an existing file readable and writable by its owner only (0600) if others had any access. */
function narrowPermissions(file: string): void {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (mode & 0o077) chmodSync(file, 0o600);
}

// ---- journal entries ------------------------------------------------------------------------

/** CRC-32 (IEEE 802.3, as zlib's) of `bytes[start, end)`: zlib's own (Node 20.15 and later), else a table. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return nativeCrc32 ? nativeCrc32(bytes.subarray(start, end)) : tableCrc32(bytes, start, end);
}

const nativeCrc32 = typeof zlib.crc32 === "function" ? zlib.crc32 : undefined;
let crcTable: Int32Array | undefined;

export function tableCrc32(bytes: Uint8Array, start: number, end: number): number {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let c = -1;
  for (let i = start; i < end; i++) c = crcTable[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function hex8(value: number): string {
  return value.toString(16).padStart(8, "0");
}

/** One journal line: `<byte length of the JSON> <its CRC-32, 8 hex digits> <JSON>\n`. */
export function encodeEntry(entry: JournalEntry): Buffer {
  const body = JSON.stringify(entry);
  const length = Buffer.byteLength(body, "utf8");
  const head = `${length} `;
  // One buffer: the header's width is known once the length is, and the checksum fills 8 bytes.
  const bytes = Buffer.allocUnsafe(head.length + 9 + length + 1);
  bytes.write(head, 0, "latin1");
  const bodyStart = head.length + 9;
  bytes.write(body, bodyStart, "utf8");
  bytes.write(`${hex8(crc32(bytes, bodyStart, bodyStart + length))} `, head.length, "latin1");
  bytes[bytes.length - 1] = 0x0a;
  return bytes;
}

interface JournalLine {
  /** 1-based. */
  number: number;
  entry?: JournalEntry;
  /** Why the line is not an intact entry, in words. */
  problem?: string;
  /** The last thing in the file: a problem here is a torn write, not damage. */
  final: boolean;
}

/** Splits a journal into lines and checks each; never throws. Old-format journals (a bare JSON object a line) are checked by parsing alone. */
export function readJournal(bytes: Buffer): JournalLine[] {
  const lines: JournalLine[] = [];
  let start = 0;
  let number = 0;
  while (start < bytes.length) {
    number++;
    const end = bytes.indexOf(0x0a, start);
    if (end < 0) {
      lines.push({ number, problem: `no newline at its end, ${bytes.length - start} bytes`, final: true });
      break;
    }
    // "{": a line written before entries carried a length and a checksum.
    const checked = bytes[start] === 0x7b ? parseEntry(bytes.toString("utf8", start, end)) : checkLine(bytes, start, end);
    lines.push({ number, ...checked, final: end === bytes.length - 1 });
    start = end + 1;
  }
  // A final line whose declared entry is intact but runs on past it lost its newline to
  // damage (two entries ran together): that is not a torn write.
  const last = lines[lines.length - 1];
  if (last?.final && last.problem === RUNS_ON) last.final = false;
  return lines;
}

const RUNS_ON = "its entry is intact but more bytes follow it on the line (a lost newline)";

function checkLine(bytes: Buffer, start: number, end: number): { entry?: JournalEntry; problem?: string } {
  // "<digits> <8 hex> "
  let i = start;
  while (i < end && i - start < 10 && bytes[i]! >= 0x30 && bytes[i]! <= 0x39) i++;
  if (i === start || i >= end || bytes[i] !== 0x20 || end - i < 10 || bytes[i + 9] !== 0x20) return { problem: end === start ? "an empty line" : "it does not start with a length and a checksum" };
  const length = Number(bytes.toString("latin1", start, i));
  const checksum = bytes.toString("latin1", i + 1, i + 9);
  if (!/^[0-9a-f]{8}$/.test(checksum)) return { problem: "it does not start with a length and a checksum" };
  const bodyStart = i + 10;
  const actual = end - bodyStart;
  if (actual !== length) {
    if (actual > length && hex8(crc32(bytes, bodyStart, bodyStart + length)) === checksum) return { problem: RUNS_ON };
    return { problem: `its length says ${length} bytes but it holds ${actual}` };
  }
  if (hex8(crc32(bytes, bodyStart, end)) !== checksum) return { problem: "its checksum does not match its content" };
  return parseEntry(bytes.toString("utf8", bodyStart, end));
}

function parseEntry(text: string): { entry?: JournalEntry; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: "it is not JSON" };
  }
  const entry = value as Partial<JournalEntry> | null;
  if (typeof entry !== "object" || entry === null || !Number.isSafeInteger(entry.sequence) || !Array.isArray(entry.statements)) return { problem: "it is not a journal entry" };
  return { entry: entry as JournalEntry };
}

// ---- files ----------------------------------------------------------------------------------

/** Temporary file in the same directory (created 0600), fsync, rename over the target, fsync the directory. */
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

/** `1-3, 7` for [1, 2, 3, 7]. */
function compactRanges(numbers: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    parts.push(i === j ? String(numbers[i]) : `${numbers[i]}-${numbers[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}

/** A path as one word for a shell command line (quoted when it needs to be). */
function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
