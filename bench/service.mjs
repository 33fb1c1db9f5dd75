// The local service (`wfkit serve`): what a durable write costs as the database grows (the
// fsynced journal append the service makes per transaction, against a whole-file snapshot,
// which is what a write would cost without the journal), and run-start requests per second
// and p95 latency over loopback with persistence on. Needs `npm run build`.
import { spawn } from "node:child_process";
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Store } from "../packages/service/dist/index.js";
import { benchServiceHttp, printServiceHttp, serviceHttpGoals } from "./service-http.mjs";

export { serviceHttpGoals };

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = path.join(root, "packages/cli/bin/wfkit.cjs");
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];

/** A run about the size of a real one: its row and five finished nodes with outputs (run_nodes). */
function insertRun(store, id) {
  store.run(
    "INSERT INTO runs (id, workflow_id, version_id, owner_user_id, account_id, state, question, mock_case, reserved_minor_units, created_at, updated_at) VALUES (?, 'wf', 'ver', 'usr', 'acct', 'succeeded', 'Which grocer wins on price?', 'default', 200, 0, 0)",
    [id],
  );
  const output = JSON.stringify({ "terminal.result": { synthesized: true, subjects: ["cmp_tesco", "cmp_sbry"] } });
  for (let i = 0; i < 5; i++)
    store.run("INSERT INTO run_nodes (run_id, position, node_id, kind, part_id, cost_minor_units, state, output) VALUES (?, ?, ?, 'part', 'terminal.profile', 40, 'succeeded', ?)", [id, i, `n${i}`, output]);
}

/** The device's floor: one 300-byte append and fdatasync, as the journal does. */
function appendFloorMs(directory) {
  const fd = openSync(path.join(directory, "floor.bin"), "a");
  const line = Buffer.alloc(300, 120);
  const times = [];
  for (let i = 0; i < 100; i++) {
    const start = performance.now();
    writeSync(fd, line);
    fdatasyncSync(fd);
    times.push(performance.now() - start);
  }
  closeSync(fd);
  return median(times);
}

async function durableWrites(directory) {
  const rows = [];
  const floorMs = appendFloorMs(directory);
  const file = path.join(directory, "growth.db");
  // No compaction during the measurement: each write is exactly one journal append.
  const store = await Store.open(file, { maxJournalBytes: Number.MAX_SAFE_INTEGER, maxJournalEntries: Number.MAX_SAFE_INTEGER });
  // Warm-up on a throwaway database: sql.js's WebAssembly is compiled in tiers, and the
  // first size must not pay for it.
  const warm = await Store.open(path.join(directory, "warm.db"));
  for (let i = 0; i < 300; i++) {
    warm.transaction(() => insertRun(warm, `warm_${i}`));
    await warm.durable();
  }
  warm.close();
  let count = 0;
  for (const runs of [100, 1_000, 10_000]) {
    store.transaction(() => {
      while (count < runs) insertRun(store, `seed_${count++}`);
    });
    store.compact();
    const journal = [];
    for (let i = 0; i < 200; i++) {
      const start = performance.now();
      store.transaction(() => insertRun(store, `bench_${runs}_${i}`));
      await store.durable();
      journal.push(performance.now() - start);
    }
    const snapshot = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      store.compact();
      snapshot.push(performance.now() - start);
    }
    rows.push({ runs, databaseKB: Math.round(store.sizeBytes() / 1024), journalWriteMs: median(journal), journalWriteP95Ms: p95(journal), snapshotWriteMs: median(snapshot), deviceAppendFdatasyncMs: floorMs });
  }
  store.close();
  return rows;
}

function startServe(args, cwd) {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", ...args], { cwd, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", (line) => resolve({ child, ...JSON.parse(line) }));
    child.once("exit", (code) => reject(new Error(`wfkit serve exited with ${code}`)));
  });
}

async function runStarts(directory) {
  const seed = {
    accounts: [{ id: "bench", plan: "enterprise", allowanceMinorUnits: 1_000_000_000 }],
    users: [{ id: "u", account: "bench" }],
    apiKeys: [{ id: "w", user: "u", scopes: ["write:workflows"], role: "write" }],
  };
  writeFileSync(path.join(directory, "seed.json"), JSON.stringify(seed));
  const served = await startServe(["--db", path.join(directory, "serve.db"), "--seed", "seed.json"], directory);
  const call = (method, url, body, headers = {}) =>
    fetch(served.baseUrl + url, { method, headers: { Authorization: `Bearer ${served.keys.write}`, "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) }).then((r) => r.json());
  const definition = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(path.join(root, "examples/company-profile.json"), "utf8")));
  const wf = (await call("POST", "/api/v1/workflows", { name: "bench" })).workflow.id;
  const version = (await call("POST", `/api/v1/workflows/${wf}/versions`, { scope: { graph: definition } })).version.id;
  await call("POST", `/api/v1/workflows/${wf}/versions/${version}/publish`, {});
  const total = 2_000;
  const concurrency = 16;
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const start = performance.now();
        const reply = await call("POST", `/api/v1/workflows/${wf}/run`, { question: `run ${i}` }, { "Idempotency-Key": `bench-${i}` });
        if (!reply.ok) throw new Error(`run start failed: ${JSON.stringify(reply)}`);
        latencies.push(performance.now() - start);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  served.child.kill("SIGTERM");
  await new Promise((resolve) => served.child.once("exit", resolve));
  return { requests: total, concurrency, requestsPerSecond: Math.round(total / seconds), medianMs: Number(median(latencies).toFixed(1)), p95Ms: Number(p95(latencies).toFixed(1)) };
}

export async function benchService() {
  const directory = mkdtempSync(path.join(tmpdir(), "wfkit-bench-service-"));
  try {
    const writes = await durableWrites(directory);
    console.log("\n## Service: a durable write (journal append + fdatasync) vs a whole-file snapshot, as the database grows (ms)");
    console.table(writes.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number.isInteger(v) ? v : Number(v.toFixed(2))]))));
    const starts = await runStarts(directory);
    console.log("\n## Service: run starts over loopback, `wfkit serve --db` (every start durable before its answer)");
    console.table([starts]);
    const http = await benchServiceHttp();
    printServiceHttp(http);
    return { writes, runStarts: starts, http };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchService();
