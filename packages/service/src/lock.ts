/**
 * One service per database file. Two services appending to one journal and each folding its
 * own memory into the snapshot would lose each other's acknowledged writes, so a file store
 * holds `FILE.lock` for its whole life: created with O_EXCL (mode 0600), holding the pid, the
 * host name and the start time of its holder, and removed on a clean stop.
 *
 * Node 20 has no flock, so a lock left by a process that died (`kill -9`, a crash, a power
 * cut) stays on disk. A lock whose holder no longer runs on this host is stale and taken over
 * (the caller is told, to say so). A lock naming this very process but not held by it is
 * stale too: after a reboot or in a container a new process can be given the old pid. Taking
 * over is serialised by a second, short-lived file (`FILE.lock.takeover`), so two services
 * that find the same stale lock at once cannot both take it.
 *
 * What cannot be told from here is refused: a lock from another host (a database on a shared
 * file system), or one whose pid runs but belongs to another program (the message says to
 * remove the file if no service uses the database).
 */
import { closeSync, fsyncSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

/** The lock is held by another live service, or cannot be judged. */
export class LockRefused extends Error {}

export interface LockHolder {
  pid: number;
  hostname: string;
  startedAt: string;
}

export interface HeldLock {
  readonly path: string;
  /** Set when a stale lock was taken over: one sentence for the operator. */
  readonly notice: string | undefined;
  release(): void;
}

/** Lock files held by this process (by real path), so a second open here is refused, not mistaken for a stale lock. */
const heldHere = new Set<string>();

/** How long an empty or unreadable lock may be another process's lock being written. */
const CREATION_GRACE_MS = 2000;
/** How long to retry while another process is taking over a stale lock, or writing a new one. */
const RETRY_MS = 3000;

/**
 * `FILE.lock` beside the file's real path: two spellings of one database (a symbolic link to
 * it or to its directory, `..` in the path) are one lock.
 */
export function lockPath(file: string): string {
  return `${realFile(file)}.lock`;
}

/**
 * Takes `FILE.lock` for `file`, or throws `LockRefused` naming the holder. Errors of the file
 * system itself (a missing directory, permissions) are thrown as they are.
 */
export function acquireLock(file: string): HeldLock {
  const target = lockPath(file);
  if (heldHere.has(target)) throw new LockRefused(`${file} is already open in this process (pid ${process.pid}); close it first`);
  const holder: LockHolder = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
  const content = JSON.stringify(holder) + "\n";
  const deadline = Date.now() + RETRY_MS;
  let notice: string | undefined;
  for (;;) {
    if (createExclusive(target, content)) break;
    const text = readText(target);
    if (text === undefined) continue; // removed between our attempt and the read: try again
    const found = parseHolder(text);
    const verdict = judge(found, file, target);
    if (verdict.kind === "live") throw new LockRefused(verdict.message);
    if (verdict.kind === "wait") {
      if (Date.now() > deadline) throw new LockRefused(verdict.message);
      sleep(25);
      continue;
    }
    // Stale: take it over, unless someone else does first (then look again).
    if (takeOver(target, text, content)) {
      notice = verdict.message;
      break;
    }
    if (Date.now() > deadline) throw new LockRefused(`${file} is being claimed by another wfkit serve starting at the same moment (its lock ${target} was stale); try again in a moment`);
    sleep(25);
  }
  heldHere.add(target);
  let released = false;
  return {
    path: target,
    notice,
    release() {
      if (released) return;
      released = true;
      heldHere.delete(target);
      // Remove it only while it is still ours.
      if (readText(target) === content) unlinkQuietly(target);
    },
  };
}

type Verdict = { kind: "live"; message: string } | { kind: "stale"; message: string } | { kind: "wait"; message: string };

function judge(found: LockHolder | undefined, file: string, target: string): Verdict {
  if (!found) {
    // Empty or unreadable: a lock being written this instant, or one whose writer died
    // between creating and filling it.
    const age = ageMs(target);
    if (age !== undefined && age < CREATION_GRACE_MS)
      return { kind: "wait", message: `${file} is locked by ${target}, which names no holder yet (another wfkit serve may be starting); if none is, delete ${target}` };
    return { kind: "stale", message: `took over ${target}, which named no holder (left by a process that died while starting)` };
  }
  const since = `since ${found.startedAt}`;
  if (found.hostname !== hostname())
    return {
      kind: "live",
      message: `${file} is in use by a wfkit serve on another host (pid ${found.pid} on ${found.hostname}, ${since}), which cannot be checked from here, and two services on one database lose each other's writes; if that service no longer runs, delete ${target}, otherwise give another --db file`,
    };
  if (found.pid !== process.pid && processRuns(found.pid))
    return {
      kind: "live",
      message: `${file} is in use by another wfkit serve (pid ${found.pid}, ${since}), and two services on one database lose each other's writes; stop that one first or give another --db file (if pid ${found.pid} is not a wfkit serve, delete ${target})`,
    };
  return { kind: "stale", message: `took over ${target}: the service that held it (pid ${found.pid}, ${since}) no longer runs` };
}

function takeOver(target: string, staleText: string, content: string): boolean {
  const guard = `${target}.takeover`;
  if (!createExclusive(guard, `${process.pid}\n`)) {
    // Another process is taking over right now, or died doing so: clear a dead one's guard.
    const text = readText(guard);
    const pid = Number(text?.trim());
    const dead = text !== undefined && (Number.isInteger(pid) && pid > 0 && pid !== process.pid ? !processRuns(pid) : (ageMs(guard) ?? 0) > CREATION_GRACE_MS);
    if (dead) unlinkQuietly(guard);
    return false;
  }
  try {
    if (readText(target) !== staleText) return false;
    // Replaced by a rename, never removed and created again: in that gap a start that had not
    // seen the stale lock would create its own and win without knowing a lock was taken over.
    const fresh = `${target}.${process.pid}.tmp`;
    unlinkQuietly(fresh);
    if (!createExclusive(fresh, content)) return false;
    try {
      renameSync(fresh, target);
    } catch (error) {
      unlinkQuietly(fresh);
      throw error;
    }
    return true;
  } finally {
    unlinkQuietly(guard);
  }
}

/** Creates `file` only if it does not exist (mode 0600 from the start), with `content`; false if it exists. */
function createExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === "number" && Number.isInteger(value.pid) && value.pid > 0 && typeof value.hostname === "string" && typeof value.startedAt === "string") return value as LockHolder;
  } catch {
    // not a lock this wfkit wrote
  }
  return undefined;
}

/** Whether a process with this pid runs (on this host). EPERM: it runs, as another user. */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function ageMs(file: string): number | undefined {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** The file's real path if it exists, else its directory's real path and its name. */
function realFile(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    try {
      return path.join(realpathSync(path.dirname(file)), path.basename(file));
    } catch {
      return path.resolve(file);
    }
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
