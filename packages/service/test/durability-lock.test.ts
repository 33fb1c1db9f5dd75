/**
 * Two services, one file, through the built `wfkit serve --db`: the first holds `FILE.lock`
 * for its life, a second start is refused (exit 2, one line naming the holder's pid) and the
 * first's acknowledged writes all survive; a lock left by kill -9 is taken over (and the
 * start says so); starts racing for a free or a stale lock leave exactly one service.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../../test/support/built-cli.js";
import { createWorkflow, knows, launch, SEED, start, type Exited, type Started } from "./durability-process.js";

let directory: string;
const running: Started[] = [];
let dirs = 0;
/** A fresh directory; returns the database path in it. */
function freshDb(): string {
  const dir = path.join(directory, `case-${++dirs}`);
  mkdirSync(dir);
  return path.join(dir, "service.db");
}
const seedArgs = () => ["--seed", path.join(directory, "seed.json")];

async function serveDb(db: string): Promise<Started> {
  const served = await start([...seedArgs(), "--db", db], { cwd: directory });
  running.push(served);
  return served;
}

async function refusedStart(db: string): Promise<string> {
  const result = await launch([...seedArgs(), "--db", db], { cwd: directory });
  if (result.kind === "started") {
    running.push(result);
    throw new Error(`expected a refusal, but it started; stderr: ${result.stderr()}`);
  }
  expect(result.code).toBe(2);
  expect(result.stderr.endsWith("\n")).toBe(true);
  expect(result.stderr.trimEnd().split("\n"), result.stderr).toHaveLength(1);
  return result.stderr.trimEnd();
}

const holderOf = (db: string) => JSON.parse(readFileSync(`${db}.lock`, "utf8")) as { pid: number; hostname: string; startedAt: string };
const inUse = (db: string, pid: number, startedAt: string) =>
  `wfkit: ${db} is in use by another wfkit serve (pid ${pid}, since ${startedAt}), and two services on one database lose each other's writes; stop that one first or give another --db file (if pid ${pid} is not a wfkit serve, delete ${db}.lock)`;

beforeAll(() => {
  ensureBuilt();
  directory = mkdtempSync(path.join(tmpdir(), "wfkit-durability-lock-"));
  writeFileSync(path.join(directory, "seed.json"), JSON.stringify(SEED));
});
afterAll(async () => {
  await Promise.all(running.map((served) => served.stop("SIGKILL")));
  rmSync(directory, { recursive: true, force: true });
});

describe("a second service on a file in use", () => {
  it("is refused with one line naming the first's pid (exit 2), and every write the first acknowledged survives", async () => {
    const db = freshDb();
    const first = await serveDb(db);
    const before = [await createWorkflow(first, "one"), await createWorkflow(first, "two")];
    const holder = holderOf(db);
    expect(holder).toEqual({ pid: first.pid, hostname: hostname(), startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(await refusedStart(db)).toBe(inUse(db, first.pid, holder.startedAt));
    // Other spellings of the same file: through "..", and through a symbolic link to it.
    const dotted = path.join(path.dirname(db), "..", path.basename(path.dirname(db)), "service.db");
    expect(await refusedStart(dotted)).toMatch(new RegExp(`is in use by another wfkit serve \\(pid ${first.pid},`));
    const link = path.join(directory, `link-${dirs}.db`);
    symlinkSync(db, link);
    expect(await refusedStart(link)).toMatch(new RegExp(`is in use by another wfkit serve \\(pid ${first.pid},`));
    // The refused starts left the first's lock and data alone; it keeps acknowledging writes.
    expect(holderOf(db)).toEqual(holder);
    const after = [await createWorkflow(first, "three"), await createWorkflow(first, "four")];
    expect(await first.stop("SIGTERM")).toBe(0);
    expect(existsSync(`${db}.lock`)).toBe(false);
    const again = await serveDb(db);
    expect(again.stderr()).toBe("");
    for (const id of [...before, ...after]) expect(await knows(again, id), id).toBe(true);
    await again.stop("SIGTERM");
  });

  it("of three started at once on a fresh file, exactly one runs and the others name it", async () => {
    const db = freshDb();
    const results = await Promise.all([0, 1, 2].map(() => launch([...seedArgs(), "--db", db], { cwd: directory })));
    const winners = results.filter((result): result is Started => result.kind === "started");
    winners.forEach((winner) => running.push(winner));
    expect(winners).toHaveLength(1);
    const winner = winners[0]!;
    const { startedAt } = holderOf(db);
    for (const loser of results.filter((result): result is Exited => result.kind === "exited")) {
      expect(loser.code).toBe(2);
      expect(loser.stderr).toBe(inUse(db, winner.pid, startedAt) + "\n");
    }
    await createWorkflow(winner, "works");
    expect(await winner.stop("SIGTERM")).toBe(0);
  });
});

describe("a lock left behind", () => {
  it("by kill -9 is taken over by the next start, which says so; a clean stop removes it", async () => {
    const db = freshDb();
    const first = await serveDb(db);
    const written = await createWorkflow(first, "kept");
    const { startedAt } = holderOf(db);
    await first.stop("SIGKILL");
    expect(holderOf(db).pid).toBe(first.pid); // still on disk, naming a process that is gone
    const second = await serveDb(db);
    expect(second.stderr()).toBe(`wfkit serve: took over ${db}.lock: the service that held it (pid ${first.pid}, since ${startedAt}) no longer runs\n`);
    expect(holderOf(db).pid).toBe(second.pid);
    expect(await knows(second, written)).toBe(true);
    expect(await second.stop("SIGTERM")).toBe(0);
    expect(existsSync(`${db}.lock`)).toBe(false);
  });

  it("by kill -9, with three starts racing for it: exactly one takes it over", async () => {
    const db = freshDb();
    const first = await serveDb(db);
    await first.stop("SIGKILL");
    const results = await Promise.all([0, 1, 2].map(() => launch([...seedArgs(), "--db", db], { cwd: directory })));
    const winners = results.filter((result): result is Started => result.kind === "started");
    winners.forEach((winner) => running.push(winner));
    expect(winners).toHaveLength(1);
    expect(winners[0]!.stderr()).toMatch(new RegExp(`^wfkit serve: took over .*: the service that held it \\(pid ${first.pid},`));
    expect(holderOf(db).pid).toBe(winners[0]!.pid);
    for (const loser of results.filter((result): result is Exited => result.kind === "exited")) {
      expect(loser.code).toBe(2);
      expect(loser.stderr).toMatch(new RegExp(`is in use by another wfkit serve \\(pid ${winners[0]!.pid},`));
    }
    await winners[0]!.stop("SIGTERM");
  });

  it.each([
    { name: "empty (its writer died while starting)", content: "" },
    { name: "not a lock this wfkit wrote", content: "garbage\n" },
  ])("an old lock file that is $name is taken over", async ({ content }) => {
    const db = freshDb();
    writeFileSync(`${db}.lock`, content);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${db}.lock`, old, old);
    const served = await serveDb(db);
    expect(served.stderr()).toBe(`wfkit serve: took over ${db}.lock, which named no holder (left by a process that died while starting)\n`);
    expect(holderOf(db).pid).toBe(served.pid);
    await served.stop("SIGTERM");
  });
});

describe("a lock that cannot be judged from here is refused, saying what to do", () => {
  it("one naming a live process that may not be a wfkit serve", async () => {
    const db = freshDb();
    const startedAt = "2020-01-01T00:00:00.000Z";
    writeFileSync(`${db}.lock`, JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt }));
    expect(await refusedStart(db)).toBe(inUse(db, process.pid, startedAt));
    expect(existsSync(db)).toBe(false); // refused before anything was written
  });

  it("one from another host (a database on a shared file system)", async () => {
    const db = freshDb();
    writeFileSync(`${db}.lock`, JSON.stringify({ pid: 4242, hostname: "elsewhere.example", startedAt: "2020-01-01T00:00:00.000Z" }));
    expect(await refusedStart(db)).toBe(
      `wfkit: ${db} is in use by a wfkit serve on another host (pid 4242 on elsewhere.example, since 2020-01-01T00:00:00.000Z), which cannot be checked from here, and two services on one database lose each other's writes; if that service no longer runs, delete ${db}.lock, otherwise give another --db file`,
    );
  });
});
