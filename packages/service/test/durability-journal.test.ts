/**
 * A damaged journal, through the built `wfkit serve --db`: each entry carries its length and
 * CRC-32, so only a torn final entry is dropped (with one line on stderr); damage anywhere
 * before it refuses the start with exit 2 and one line naming the file and the line, and
 * leaves every file as it was; `--recover` keeps every intact entry, moves the damaged
 * journal aside and says what was lost. Journals of the previous format are still read.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../../test/support/built-cli.js";
import { createWorkflow, knows, launch, SEED, start, type Started } from "./durability-process.js";

let directory: string;
/** The files a kill -9 left after the seed and six workflows, one journal entry each. */
let pristine: { snapshot: Buffer; journal: Buffer };
/** Journal line (1-based) → the workflow its entry created (line 1 is the seed). */
const workflowOfLine = new Map<number, string>();
/** Journal line → its transaction number. */
const sequenceOfLine = new Map<number, number>();
let lineCount = 0;
const running: Started[] = [];

beforeAll(async () => {
  ensureBuilt();
  directory = mkdtempSync(path.join(tmpdir(), "wfkit-durability-journal-"));
  writeFileSync(path.join(directory, "seed.json"), JSON.stringify(SEED));
  mkdirSync(path.join(directory, "pristine"));
  const db = path.join(directory, "pristine", "service.db");
  const served = await start(["--seed", path.join(directory, "seed.json"), "--db", db], { cwd: directory });
  for (let i = 1; i <= 6; i++) await createWorkflow(served, `flow ${i}`);
  // Not stopped cleanly: a clean stop folds the journal into the snapshot.
  await served.stop("SIGKILL");
  pristine = { snapshot: readFileSync(db), journal: readFileSync(`${db}.journal`) };
  const lines = pristine.journal.toString("utf8").split("\n").slice(0, -1);
  lineCount = lines.length;
  lines.forEach((line, i) => {
    const entry = JSON.parse(line.slice(line.indexOf("{"))) as { sequence: number; statements: [string, unknown[]][] };
    sequenceOfLine.set(i + 1, entry.sequence);
    const insert = entry.statements.find(([sql]) => sql.startsWith("INSERT INTO workflows"));
    if (insert) workflowOfLine.set(i + 1, insert[1][0] as string);
  });
});

afterAll(async () => {
  await Promise.all(running.map((served) => served.stop("SIGKILL")));
  rmSync(directory, { recursive: true, force: true });
});

it("starts from a journal of the seed and six workflows, one entry a line", () => {
  expect(lineCount).toBe(7);
  expect([...workflowOfLine.keys()]).toEqual([2, 3, 4, 5, 6, 7]);
  expect(pristine.journal.toString("utf8")).toMatch(/^(\d+ [0-9a-f]{8} \{.*\}\n){7}$/);
});

let cases = 0;
/** A directory holding the pristine files with `damage` applied to the journal; returns the database path. */
function image(damage: (journal: Buffer) => Buffer): string {
  const dir = path.join(directory, `case-${++cases}`);
  mkdirSync(dir);
  const db = path.join(dir, "service.db");
  writeFileSync(db, pristine.snapshot);
  writeFileSync(`${db}.journal`, damage(Buffer.from(pristine.journal)), { mode: 0o600 });
  return db;
}

/** Byte offsets of each line: start, and the index of its newline. */
function lineAt(journal: Buffer, number: number): { start: number; end: number; bodyStart: number } {
  let start = 0;
  for (let i = 1; i < number; i++) start = journal.indexOf(0x0a, start) + 1;
  const end = journal.indexOf(0x0a, start);
  const bodyStart = journal.indexOf(0x7b, start); // the JSON's "{"
  return { start, end, bodyStart };
}

/** Flips one bit of a byte in the middle of a line's JSON. */
const flipBody = (number: number) => (journal: Buffer) => {
  const { bodyStart, end } = lineAt(journal, number);
  const at = Math.floor((bodyStart + end) / 2);
  journal[at] = journal[at]! ^ 0x04;
  return journal;
};

async function refused(db: string, extra: string[] = []) {
  const journalBefore = readFileSync(`${db}.journal`);
  const snapshotBefore = readFileSync(db);
  const filesBefore = readdirSync(path.dirname(db)).sort();
  const result = await launch(["--seed", path.join(directory, "seed.json"), "--db", db, ...extra], { cwd: directory });
  if (result.kind === "started") {
    running.push(result);
    throw new Error(`expected a refusal, but it started; stderr: ${result.stderr()}`);
  }
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  const lines = result.stderr.split("\n");
  expect(lines, result.stderr).toHaveLength(2); // one line and its newline
  expect(lines[1]).toBe("");
  // Untouched: no truncation, no compaction, nothing beside them (the lock is gone again).
  expect(readFileSync(`${db}.journal`).equals(journalBefore)).toBe(true);
  expect(readFileSync(db).equals(snapshotBefore)).toBe(true);
  expect(readdirSync(path.dirname(db)).sort()).toEqual(filesBefore);
  return lines[0]!;
}

async function started(db: string, extra: string[] = []): Promise<Started> {
  const served = await start(["--seed", path.join(directory, "seed.json"), "--db", db, ...extra], { cwd: directory });
  running.push(served);
  return served;
}

/** The workflows the service knows, by the journal line that created them. */
async function knownLines(served: Started): Promise<number[]> {
  const known: number[] = [];
  for (const [line, id] of workflowOfLine) if (await knows(served, id)) known.push(line);
  return known;
}

describe("damage before the last entry refuses the start (exit 2, one line, files untouched)", () => {
  const recoverHint = (db: string) => `run \`wfkit serve --db ${db} --recover\` to keep every intact entry and move the damaged journal aside`;

  it.each([
    { where: "the first entry", line: 1 },
    { where: "a middle entry", line: 4 },
    { where: "the last but one", line: 6 },
  ])("a flipped bit in $where", async ({ line }) => {
    const db = image(flipBody(line));
    const message = await refused(db);
    expect(message).toBe(
      `wfkit: ${db}.journal is damaged at line ${line} of 7 (its checksum does not match its content); that is not a torn last entry, the only kind that can be dropped safely. Nothing was changed; ${recoverHint(db)}, or restore ${db} and its journal from a backup`,
    );
  });

  it("a damaged checksum field", async () => {
    const db = image((journal) => {
      const { start } = lineAt(journal, 3);
      const at = journal.indexOf(0x20, start) + 3; // a hex digit of the checksum
      journal[at] = journal[at] === 0x30 ? 0x31 : 0x30;
      return journal;
    });
    expect(await refused(db)).toMatch(/is damaged at line 3 of 7 \(its checksum does not match its content\)/);
  });

  it("a truncated length field", async () => {
    const db = image((journal) => {
      const { start } = lineAt(journal, 3);
      return Buffer.concat([journal.subarray(0, start), journal.subarray(start + 1)]); // "312 ..." → "12 ..."
    });
    expect(await refused(db)).toMatch(/is damaged at line 3 of 7 \(its length says \d+ bytes but it holds \d+\)/);
  });

  it("a newline lost between the last two entries (they run together)", async () => {
    const db = image((journal) => {
      journal[lineAt(journal, 6).end] = 0x20;
      return journal;
    });
    expect(await refused(db)).toMatch(/is damaged at line 6 of 6 \(its entry is intact but more bytes follow it on the line \(a lost newline\)\)/);
  });

  it("a byte turned into a newline (one entry split in two)", async () => {
    const db = image((journal) => {
      const { bodyStart, end } = lineAt(journal, 5);
      journal[Math.floor((bodyStart + end) / 2)] = 0x0a;
      return journal;
    });
    expect(await refused(db)).toMatch(/is damaged at line 5 of 8 \(/);
  });

  it("an intact entry missing from the middle (a gap in the transaction numbers)", async () => {
    const db = image((journal) => {
      const { start, end } = lineAt(journal, 4);
      return Buffer.concat([journal.subarray(0, start), journal.subarray(end + 1)]);
    });
    expect(await refused(db)).toBe(
      `wfkit: ${db}.journal does not follow on from ${db}: line 4 holds transaction ${sequenceOfLine.get(5)}, but the database ends at ${sequenceOfLine.get(3)}, so transactions are missing; nothing was changed; ${recoverHint(db)}, or restore ${db} and its journal from a backup`,
    );
  });

  it("damage in a journal of the previous format (bare JSON lines)", async () => {
    const db = image((journal) => {
      const legacy = Buffer.from(journal.toString("utf8").replace(/^\d+ [0-9a-f]{8} /gm, ""));
      legacy[lineAt(legacy, 2).start + 1] = 0x21; // {"sequence" → {!sequence": not JSON
      return legacy;
    });
    expect(await refused(db)).toMatch(/is damaged at line 2 of 7 \(it is not JSON\)/);
  });
});

describe("a torn last entry is dropped, with one line on stderr, and the rest kept", () => {
  it.each([
    { name: "only its newline missing", cut: (journal: Buffer) => journal.subarray(0, journal.length - 1), problem: /no newline at its end, \d+ bytes/ },
    { name: "cut in the middle of its JSON", cut: (journal: Buffer) => journal.subarray(0, lineAt(journal, 7).bodyStart + 20), problem: /no newline at its end, \d+ bytes/ },
    { name: "cut inside its length field", cut: (journal: Buffer) => journal.subarray(0, lineAt(journal, 7).start + 2), problem: /no newline at its end, 2 bytes/ },
    { name: "a zero-filled tail (a crash after the file grew)", cut: (journal: Buffer) => Buffer.concat([journal.subarray(0, lineAt(journal, 7).start), Buffer.alloc(300)]), problem: /no newline at its end, 300 bytes/ },
    { name: "a bad checksum", cut: flipBody(7), problem: /its checksum does not match its content/ },
    {
      name: "a length that does not match",
      cut: (journal: Buffer) => {
        const { start } = lineAt(journal, 7);
        return Buffer.concat([journal.subarray(0, start), Buffer.from("9"), journal.subarray(start)]);
      },
      problem: /its length says 9\d+ bytes but it holds \d+/,
    },
  ])("the last entry with $name", async ({ cut, problem }) => {
    const db = image(cut);
    const served = await started(db);
    const notice = served.stderr().trimEnd();
    expect(notice.split("\n")).toHaveLength(1);
    expect(notice).toMatch(new RegExp(`^wfkit serve: dropped the torn last entry of ${db}\\.journal \\(line 7: ${problem.source}\\); an entry cut short by a crash was never acknowledged$`));
    expect(await knownLines(served)).toEqual([2, 3, 4, 5, 6]);
    expect(await served.stop("SIGTERM")).toBe(0);
    // The tail is gone for good: the next start says nothing and knows the same.
    const again = await started(db);
    expect(again.stderr()).toBe("");
    expect(await knownLines(again)).toEqual([2, 3, 4, 5, 6]);
    expect(await again.stop("SIGTERM")).toBe(0);
  });

  it("reads a journal of the previous format whole, torn last line dropped", async () => {
    const db = image((journal) => {
      const legacy = journal.toString("utf8").replace(/^\d+ [0-9a-f]{8} /gm, "");
      return Buffer.from(legacy.slice(0, -10));
    });
    const served = await started(db);
    expect(served.stderr()).toMatch(/^wfkit serve: dropped the torn last entry of .*\(line 7: no newline at its end, \d+ bytes\)/);
    expect(await knownLines(served)).toEqual([2, 3, 4, 5, 6]);
    await served.stop("SIGTERM");
  });

  it("reads an intact journal of the previous format without a word", async () => {
    const db = image((journal) => Buffer.from(journal.toString("utf8").replace(/^\d+ [0-9a-f]{8} /gm, "")));
    const served = await started(db);
    expect(served.stderr()).toBe("");
    expect(await knownLines(served)).toEqual([2, 3, 4, 5, 6, 7]);
    await served.stop("SIGTERM");
  });
});

describe("--recover", () => {
  function asideOf(db: string): string {
    const names = readdirSync(path.dirname(db)).filter((name) => name.startsWith("service.db.journal.damaged-"));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^service\.db\.journal\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    return path.join(path.dirname(db), names[0]!);
  }

  it("keeps every intact entry around a damaged middle one, moves the journal aside and names what was lost", async () => {
    const db = image(flipBody(4));
    const damaged = readFileSync(`${db}.journal`);
    const served = await started(db, ["--recover"]);
    const aside = asideOf(db);
    expect(served.stderr()).toBe(
      `wfkit serve: recovered ${db}: kept 6 journal entries after the snapshot's transaction ${sequenceOfLine.get(1)! - 1}; skipped line 4 (its checksum does not match its content); missing transactions: ${sequenceOfLine.get(4)}; the damaged journal was moved to ${aside}\n`,
    );
    expect(await knownLines(served)).toEqual([2, 3, 5, 6, 7]);
    // The damaged journal is kept as it was, private; the new journal is the service's own.
    expect(readFileSync(aside).equals(damaged)).toBe(true);
    expect(statSync(aside).mode & 0o777).toBe(0o600);
    // A write after the recovery is kept too, and a plain restart has nothing to say.
    const later = await createWorkflow(served, "after");
    expect(await served.stop("SIGTERM")).toBe(0);
    const again = await started(db);
    expect(again.stderr()).toBe("");
    expect(await knownLines(again)).toEqual([2, 3, 5, 6, 7]);
    expect(await knows(again, later)).toBe(true);
    await again.stop("SIGTERM");
  });

  it("reports several damaged lines and a torn tail at once", async () => {
    const db = image((journal) => flipBody(5)(flipBody(2)(journal)).subarray(0, journal.length - 5));
    const served = await started(db, ["--recover"]);
    const lines = served.stderr().trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^wfkit serve: dropped the torn last entry of .*\(line 7: no newline at its end, \d+ bytes\)/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^wfkit serve: recovered .*: kept 4 journal entries after the snapshot's transaction \\d+; skipped line 2 \\(its checksum does not match its content\\), line 5 \\(its checksum does not match its content\\); missing transactions: ${sequenceOfLine.get(2)}, ${sequenceOfLine.get(5)}; the damaged journal was moved to `,
      ),
    );
    expect(await knownLines(served)).toEqual([3, 4, 6]);
    await served.stop("SIGTERM");
  });

  it("fills a gap in the transaction numbers with what is there, and names the missing ones", async () => {
    const db = image((journal) => {
      const { start, end } = lineAt(journal, 4);
      return Buffer.concat([journal.subarray(0, start), journal.subarray(end + 1)]);
    });
    const served = await started(db, ["--recover"]);
    expect(served.stderr()).toMatch(new RegExp(`^wfkit serve: recovered .*: kept 6 journal entries after the snapshot's transaction \\d+; missing transactions: ${sequenceOfLine.get(4)}; the damaged journal was moved to .*\n$`));
    expect(await knownLines(served)).toEqual([2, 3, 5, 6, 7]);
    await served.stop("SIGTERM");
  });

  it("a damaged last-but-one entry: the entries after it are kept, what followed is named", async () => {
    const db = image(flipBody(6));
    const served = await started(db, ["--recover"]);
    expect(served.stderr()).toMatch(/recovered .*: kept 6 journal entries .*; skipped line 6 \(its checksum does not match its content\); missing transactions: \d+;/);
    expect(await knownLines(served)).toEqual([2, 3, 4, 5, 7]);
    await served.stop("SIGTERM");
  });

  it("says there is nothing to recover in an intact journal, and starts", async () => {
    const db = image((journal) => journal);
    const served = await started(db, ["--recover"]);
    expect(served.stderr()).toBe(`wfkit serve: --recover: ${db}.journal has no damaged entry; nothing to recover\n`);
    expect(await knownLines(served)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(existsSync(`${db}.journal`)).toBe(true);
    expect(readdirSync(path.dirname(db)).filter((name) => name.includes("damaged"))).toEqual([]);
    await served.stop("SIGTERM");
  });

  it("is refused without --db", async () => {
    const result = await launch(["--recover"], { cwd: directory });
    expect(result.kind).toBe("exited");
    if (result.kind !== "exited") return;
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("wfkit serve: --recover repairs the journal of a --db FILE; give --db (see `wfkit serve --help`)\n");
  });
});
