/**
 * Secrets at rest. Every file the service writes (snapshot, journal, temporaries, the lock
 * and its takeover guard) is 0600 from the moment it is created, whatever the umask; an
 * existing snapshot or journal readable by others is narrowed at open. No credential is in
 * the files in clear: keys, OAuth tokens and alert tokens are kept as hashes, and session
 * JWTs are signed with a per-process key that is never written, so a JWT signed with the
 * key an earlier wfkit stored is refused, and migration 3 removes that key from the files.
 */
import { spawnSync } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import initSqlJs from "sql.js/dist/sql-wasm-inline.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRoot, ensureBuilt } from "../../../test/support/built-cli.js";
import { Authenticator } from "../src/auth.js";
import { Clock } from "../src/clock.js";
import { MIGRATIONS } from "../src/migrations.js";
import { Store } from "../src/store.js";
import { createWorkflow, http, key, SEED, secret, start, V1, type Started } from "./durability-process.js";

let directory: string;
const running: Started[] = [];
let dirs = 0;
function freshDb(): string {
  const dir = path.join(directory, `case-${++dirs}`);
  mkdirSync(dir);
  return path.join(dir, "service.db");
}
const seedArgs = () => ["--seed", path.join(directory, "seed.json")];
async function serveDb(db: string, umask000 = false): Promise<Started> {
  const served = await start([...seedArgs(), "--db", db], { cwd: directory, umask000 });
  running.push(served);
  return served;
}
const modeOf = (file: string) => statSync(file).mode & 0o777;
/** Every file in the database's directory with its mode. */
const modesIn = (db: string) => Object.fromEntries(readdirSync(path.dirname(db)).map((name) => [name, modeOf(path.join(path.dirname(db), name))]));

beforeAll(() => {
  ensureBuilt();
  directory = mkdtempSync(path.join(tmpdir(), "wfkit-durability-secrets-"));
  writeFileSync(path.join(directory, "seed.json"), JSON.stringify(SEED));
});
afterAll(async () => {
  await Promise.all(running.map((served) => served.stop("SIGKILL")));
  rmSync(directory, { recursive: true, force: true });
});

describe("file modes, under umask 000", () => {
  it("creates every file 0600 from the start: a child process records the mode of each file the built store creates, the moment it is opened", () => {
    // The bundle `wfkit serve` loads, in a process with umask 000 whose fs.openSync notes the
    // mode of every file it creates (writeFileSync goes through it too). Three runs: a new
    // database with compactions, a stale lock taken over, and a damaged journal recovered.
    const bundle = pathToFileURL(path.join(cliRoot, "dist", "bundle", "service.mjs")).href;
    const dir = path.join(directory, `case-${++dirs}`);
    mkdirSync(dir);
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    const script = `
      import fs from "node:fs";
      import os from "node:os";
      import path from "node:path";
      import { syncBuiltinESMExports } from "node:module";
      process.umask(0);
      const created = [];
      let recording = true; // off while this script sets the scene
      const openSync = fs.openSync;
      fs.openSync = function (file, ...rest) {
        const existed = fs.existsSync(file);
        const fd = openSync.call(this, file, ...rest);
        if (recording && !existed) created.push([path.basename(String(file)), fs.fstatSync(fd).mode & 0o777]);
        return fd;
      };
      syncBuiltinESMExports();
      const { Store } = await import(${JSON.stringify(bundle)});
      const dir = ${JSON.stringify(dir)};
      const insert = (store, id) => store.transaction(() => store.run("INSERT INTO accounts (id, plan, region, allowance_minor_units) VALUES (?, 'professional', 'eu', 1)", [id]));
      // 1. A new database, written past its compaction threshold, closed cleanly.
      const a = await Store.open(path.join(dir, "a.db"), { maxJournalBytes: 1 << 20, maxJournalEntries: 2 });
      for (const id of ["x", "y", "z", "w"]) { insert(a, id); await a.durable(); }
      a.close();
      // 2. A lock left by a process that is gone: taken over through the guard file.
      recording = false;
      fs.writeFileSync(path.join(dir, "b.db.lock"), JSON.stringify({ pid: ${deadPid}, hostname: os.hostname(), startedAt: "2020-01-01T00:00:00.000Z" }), { mode: 0o600 });
      recording = true;
      const b = await Store.open(path.join(dir, "b.db"));
      insert(b, "x"); await b.durable();
      // Not closed: b's journal keeps the entry; damage it and recover a copy.
      recording = false;
      const journal = fs.readFileSync(path.join(dir, "b.db.journal"));
      const damaged = Buffer.concat([journal, journal]);
      damaged[Math.floor(journal.length / 2)] ^= 4;
      fs.copyFileSync(path.join(dir, "b.db"), path.join(dir, "c.db"));
      fs.chmodSync(path.join(dir, "c.db"), 0o600);
      fs.writeFileSync(path.join(dir, "c.db.journal"), damaged, { mode: 0o600 });
      recording = true;
      const c = await Store.open(path.join(dir, "c.db"), undefined, { recover: true });
      c.close();
      b.close();
      process.stdout.write(JSON.stringify({ created, notices: [...b.notices, ...c.notices] }));
    `;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const { created, notices } = JSON.parse(result.stdout) as { created: [string, number][]; notices: string[] };
    expect(notices[0]).toMatch(/^took over .*b\.db\.lock/);
    expect(notices[1]).toMatch(/^recovered .*c\.db: /);
    // Every kind of file was created, and every one 0600 at creation.
    const kinds = new Set(created.map(([name]) => name.replace(/^\.[abc]\.db\.[0-9a-f]+\.tmp$/, "temporary").replace(/^([abc]\.db\.lock)\.\d+\.tmp$/, "$1 taking over").replace(/^[abc]\.db/, "FILE")));
    expect([...kinds].sort()).toEqual(["FILE.journal", "FILE.lock", "FILE.lock taking over", "FILE.lock.takeover", "temporary"].sort());
    for (const [name, mode] of created) expect(mode.toString(8), name).toBe("600");
    // And nothing in the directory is readable by others now (the damaged journal moved aside included).
    for (const [name, mode] of Object.entries(modesIn(path.join(dir, "x")))) expect(mode.toString(8), name).toBe("600");
  });

  it("wfkit serve --db: snapshot, journal and lock are 0600 while it runs, after kill -9, after a takeover and after a clean stop", async () => {
    const db = freshDb();
    const first = await serveDb(db, true);
    await createWorkflow(first, "one");
    expect(modesIn(db)).toEqual({ "service.db": 0o600, "service.db.journal": 0o600, "service.db.lock": 0o600 });
    await first.stop("SIGKILL");
    expect(modesIn(db)).toEqual({ "service.db": 0o600, "service.db.journal": 0o600, "service.db.lock": 0o600 });
    const second = await serveDb(db, true);
    expect(second.stderr()).toMatch(/^wfkit serve: took over /);
    await createWorkflow(second, "two");
    expect(modesIn(db)).toEqual({ "service.db": 0o600, "service.db.journal": 0o600, "service.db.lock": 0o600 });
    expect(await second.stop("SIGTERM")).toBe(0);
    expect(modesIn(db)).toEqual({ "service.db": 0o600, "service.db.journal": 0o600 });
  });

  it.each([
    { mode: 0o644, shown: "0644" },
    { mode: 0o666, shown: "0666" },
    { mode: 0o604, shown: "0604" },
    { mode: 0o640, shown: "0640" },
  ])("narrows a snapshot and journal of mode $shown (an earlier wfkit, or a copy) to 0600 at open", async ({ mode }) => {
    const db = freshDb();
    const first = await serveDb(db, true);
    await createWorkflow(first, "one");
    await first.stop("SIGKILL"); // the journal keeps its entry
    chmodSync(db, mode);
    chmodSync(`${db}.journal`, mode);
    const second = await serveDb(db, true);
    expect(modeOf(db)).toBe(0o600);
    expect(modeOf(`${db}.journal`)).toBe(0o600);
    await second.stop("SIGTERM");
  });
});

const forgeSession = (signingKey: string, user: string) => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: user, typ: "session", iat: now, exp: now + 3600 })}`;
  return `${unsigned}.${createHmac("sha256", signingKey).update(unsigned).digest("base64url")}`;
};

describe("no credential in clear in the files", () => {
  it("keeps keys, OAuth tokens and alert tokens as hashes and writes no session key, in the journal and in the snapshot", async () => {
    const db = freshDb();
    const served = await serveDb(db);
    const admin = (route: string, body: unknown) => http(served.baseUrl, "POST", `/__admin${route}`, served.adminToken, body);
    const made = {
      key: (await admin("/keys", { user: "alice", scopes: ["write:workflows"] })).body.key as string,
      oauth: (await admin("/oauth-tokens", { user: "alice" })).body.token as string,
      alert: (await admin("/alert-tokens", { user: "bob" })).body.token as string,
      session: (await admin("/sessions", { user: "bob" })).body.token as string,
    };
    // Each works, and each use writes to the journal.
    expect((await http(served.baseUrl, "POST", V1, made.key, { name: "by key" })).status).toBe(201);
    expect((await http(served.baseUrl, "POST", V1, made.oauth, { name: "by oauth" })).status).toBe(201);
    expect((await http(served.baseUrl, "POST", V1, made.session, { name: "by session" })).status).toBe(201);
    expect((await http(served.signalsBaseUrl, "POST", "/api/views", null, { name: "v", geography: "UK", driver_ids: ["food"], question: "q" }, { "X-Alert-Token": made.alert })).status).toBe(201);
    const secrets = [
      ...Object.values(made),
      made.key.split("_").at(-1)!,
      secret("read"),
      secret("write"),
      key("write"),
      SEED.alertTokens[0]!.token,
      served.keys.jwt!,
      served.adminToken,
      "session_secret",
    ];
    const files = () => Buffer.concat([readFileSync(db), readFileSync(`${db}.journal`)]);
    const inClear = (bytes: Buffer) => secrets.filter((text) => bytes.includes(text));
    // While it runs (the journal holds every change since the start) ...
    expect(readFileSync(`${db}.journal`).length).toBeGreaterThan(0);
    expect(inClear(files())).toEqual([]);
    // ... and the hashes are there: these are the files that would show them.
    expect(files().includes(createHash("sha256").update(secret("write")).digest("hex"))).toBe(true);
    // After a clean stop (the snapshot holds it all).
    expect(await served.stop("SIGTERM")).toBe(0);
    expect(inClear(readFileSync(db))).toEqual([]);
  });

  it("ends a process's sessions with it: a JWT from before a restart is refused, the new one accepted", async () => {
    const db = freshDb();
    const first = await serveDb(db);
    const old = first.keys.jwt!;
    expect((await http(first.baseUrl, "GET", `${V1}/templates`, old)).status).toBe(200);
    expect(await first.stop("SIGTERM")).toBe(0);
    const second = await serveDb(db);
    const refused = await http(second.baseUrl, "GET", `${V1}/templates`, old);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/signature does not match this service/);
    expect((await http(second.baseUrl, "GET", `${V1}/templates`, second.keys.jwt)).status).toBe(200);
    await second.stop("SIGTERM");
  });
});

describe("a database from an earlier wfkit, with its session key in clear", () => {
  it("signs a session the way the forged JWTs below are signed (in-process control)", async () => {
    const store = await Store.open();
    store.transaction(() => {
      store.run("INSERT INTO accounts (id, plan, region, allowance_minor_units) VALUES ('pro', 'professional', 'eu', 1)");
      store.run("INSERT INTO users (id, account_id, name) VALUES ('alice', 'pro', 'Alice')");
    });
    const auth = new Authenticator(store, new Clock("real"), "a-key-in-clear");
    expect(auth.caller(forgeSession("a-key-in-clear", "alice"), "127.0.0.1").userId).toBe("alice");
    expect(() => auth.caller(forgeSession("another-key", "alice"), "127.0.0.1")).toThrow(/signature does not match/);
    store.close();
  });

  const OLD_KEY = createHash("sha256").update("an old session key").digest("hex");
  it.each([
    { where: "in the snapshot", snapshot: true, journal: false },
    { where: "in the journal (previous format)", snapshot: false, journal: true },
    { where: "in both", snapshot: true, journal: true },
  ])("refuses a JWT signed with the key kept $where, and removes the key from the files", async ({ snapshot, journal }) => {
    const db = freshDb();
    // A database of schema version 2 as the previous wfkit left it: its two migrations, the
    // seed's account and users, and the session key in meta.
    const SQL = await initSqlJs();
    const old = new SQL.Database();
    for (const migration of MIGRATIONS.slice(0, 2)) for (const sql of migration) old.run(sql);
    old.run("INSERT INTO meta (key, value) VALUES ('schema_version', '2'), ('sequence', '3')");
    old.run("INSERT INTO accounts (id, plan, region, allowance_minor_units) VALUES ('pro', 'professional', 'eu', 100000)");
    old.run("INSERT INTO users (id, account_id, name) VALUES ('alice', 'pro', 'alice'), ('bob', 'pro', 'bob')");
    if (snapshot) old.run("INSERT INTO meta (key, value) VALUES ('session_secret', ?)", [OLD_KEY]);
    writeFileSync(db, old.export());
    old.close();
    if (journal) {
      // The line the previous wfkit appended when it made the key (or, here, made it again).
      const line = {
        sequence: 4,
        statements: [
          [snapshot ? "UPDATE meta SET value = ? WHERE key = 'session_secret'" : "INSERT INTO meta (key, value) VALUES ('session_secret', ?)", [OLD_KEY]],
          ["INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", ["sequence", "4"]],
        ],
      };
      writeFileSync(`${db}.journal`, JSON.stringify(line) + "\n");
    }
    expect(Buffer.concat([readFileSync(db), existsSync(`${db}.journal`) ? readFileSync(`${db}.journal`) : Buffer.alloc(0)]).includes(OLD_KEY)).toBe(true);

    const served = await serveDb(db);
    expect(served.stderr()).toBe("");
    const forged = await http(served.baseUrl, "GET", `${V1}/templates`, forgeSession(OLD_KEY, "alice"));
    expect(forged.status).toBe(401);
    expect(forged.body.message).toMatch(/signature does not match this service/);
    expect((await http(served.baseUrl, "GET", `${V1}/templates`, served.keys.jwt)).status).toBe(200);
    // Gone from both files at once (the start folds the journal into a rebuilt snapshot) ...
    expect(readFileSync(db).includes(OLD_KEY)).toBe(false);
    expect(readFileSync(`${db}.journal`).includes(OLD_KEY)).toBe(false);
    expect(readFileSync(db).includes("session_secret")).toBe(false);
    await served.stop("SIGTERM");
    // ... and after the stop, at the current schema version.
    expect(readFileSync(db).includes(OLD_KEY)).toBe(false);
    const store = await Store.open(db);
    expect(store.schemaVersion).toBe(MIGRATIONS.length);
    expect(store.get("SELECT value FROM meta WHERE key = 'session_secret'")).toBeUndefined();
    store.close();
  });
});
