// The local service over HTTP against a floor: a bare node:http server answering the same bytes
// (bench/service-child.mjs). autocannon drives both from this process, paired and interleaved:
// each round measures the floor, the in-memory service and the service with `--db` back to
// back for every figure (the order reversed every other round), and a figure's ratio is the
// median over rounds of (service requests a second) / (floor requests a second) of one round.
//
// Figures: run starts with a distinct Idempotency-Key each (the run is reserved, stored, and
// walked up to its first part: parts take an hour here, so the walk's later steps are the walk
// figure's, not this one's; each measurement starts from an empty database, POST
// /__admin/reset), a workflow's run list of 100 finished runs of a 30-node graph, and
// validate-definition of that graph; at 1, 8 and 64 connections. And the walk: part
// completions a second, 100 runs of the 30-node graph taking their steps together.
//
// `node bench/service-http.mjs [DIST]` measures the service built in DIST (default
// packages/service/dist), so an earlier build can be compared with the current one.
// BENCH_SERVICE_SECONDS (default 2) and BENCH_SERVICE_ROUNDS (default 3) set the effort.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { layeredGraph } from "./graphs.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const child = fileURLToPath(new URL("./service-child.mjs", import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round2 = (value) => Number(value.toFixed(value < 10 ? 2 : 1));

const SECRET = "bench0123456789abcdef";
const ADMIN = "wfa_bench0123456789";
const SEED = {
  accounts: [{ id: "bench", plan: "enterprise", allowanceMinorUnits: 1e15 }],
  users: [{ id: "u", account: "bench" }],
  apiKeys: [{ id: "w", user: "u", scopes: ["write:workflows"], role: "write", secret: SECRET }],
};
const KEY = `wfk_w_${SECRET}`;
/** Parts take an hour: a run-start measurement times the start, not the rest of the walk. */
const MOCKS = { delayMs: 3_600_000 };

/** The 30-node graph: a trigger, 13 terminal profiles, 14 report packs (fan-in), a hold gate, a destination. */
export function definition30() {
  const graph = layeredGraph(29);
  graph.nodes.splice(graph.nodes.length - 2, 0, { id: "pack_extra", partId: "pack", partVersion: "1" });
  graph.edges.push({ from: "profile_12", to: "pack_extra" }, { from: "pack_extra", to: "floor" });
  return graph;
}

function startChild(mode, config, directory) {
  const file = path.join(directory, `${mode}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  const process_ = spawn(process.execPath, [child, mode, file], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    createInterface({ input: process_.stdout }).once("line", (line) => resolve({ process: process_, ...JSON.parse(line) }));
    process_.once("exit", (code) => reject(new Error(`bench ${mode} process exited with ${code}`)));
  });
}

async function stopChild(running) {
  if (running.process.exitCode !== null) return;
  const exited = new Promise((resolve) => running.process.once("exit", resolve));
  running.process.kill("SIGTERM");
  await exited;
}

async function call(baseUrl, method, url, body, headers = {}, credential = KEY) {
  const response = await fetch(baseUrl + url, { method, headers: { Authorization: `Bearer ${credential}`, "Content-Type": "application/json", ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 300)}`);
  return { status: response.status, contentType: response.headers.get("content-type"), text, json: JSON.parse(text) };
}

/** A published workflow of the 30-node graph; its id. */
async function publishedWorkflow(baseUrl) {
  const wf = (await call(baseUrl, "POST", "/api/v1/workflows", { name: "bench" })).json.workflow.id;
  const version = (await call(baseUrl, "POST", `/api/v1/workflows/${wf}/versions`, { scope: { graph: definition30() } })).json.version.id;
  await call(baseUrl, "POST", `/api/v1/workflows/${wf}/versions/${version}/publish`, {});
  return wf;
}

/** Starts 100 runs and walks them to the end with the admin clock; the walk's part completions a second. */
async function hundredFinishedRuns(baseUrl, wf) {
  for (let i = 0; i < 100; i++) await call(baseUrl, "POST", `/api/v1/workflows/${wf}/run`, { question: `list ${i}` });
  let steps = 0;
  let walkMs = 0;
  for (;;) {
    const start = performance.now();
    await call(baseUrl, "POST", "/__admin/clock/advance", { ms: MOCKS.delayMs }, {}, ADMIN);
    walkMs += performance.now() - start;
    const open = (await call(baseUrl, "GET", "/api/v1/workflows/runs?state=open")).json.runs.length;
    if (open === 0) break;
    if (++steps > 100) throw new Error("the bench's runs did not finish");
  }
  const runs = (await call(baseUrl, "GET", `/api/v1/workflows/${wf}/runs`)).json.runs;
  if (runs.length !== 100 || runs.some((run) => run.state !== "succeeded")) throw new Error(`the bench's runs did not all succeed: ${JSON.stringify(runs.map((run) => run.state))}`);
  const parts = definition30().nodes.filter((node) => node.partId).length;
  return { partCompletionsPerSecond: Math.round((100 * parts) / (walkMs / 1000)), msPerPartCompletion: walkMs / (100 * parts) };
}

async function load(baseUrl, request, connections, seconds) {
  const result = await autocannon({ url: baseUrl + request.path, method: request.method, headers: request.headers, body: request.body, idReplacement: request.idReplacement === true, connections, duration: seconds });
  if (result.errors || result.timeouts || result.non2xx) throw new Error(`${request.method} ${request.path} at ${connections} connections: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.total / (result.duration || seconds), p99Ms: result.latency.p99 };
}

export async function benchServiceHttp(dist = path.join(root, "packages/service/dist")) {
  const seconds = Number(process.env.BENCH_SERVICE_SECONDS ?? 2);
  const rounds = Number(process.env.BENCH_SERVICE_ROUNDS ?? 3);
  const directory = mkdtempSync(path.join(tmpdir(), "wfkit-bench-service-http-"));
  const started = [];
  const start = async (mode, config) => {
    const running = await startChild(mode, config, directory);
    started.push(running);
    return running;
  };
  try {
    // Per target: one service for the reads (its 100 finished runs) and one for run starts
    // (reset before each measurement).
    const targets = {};
    for (const name of ["memory", "db"]) {
      const config = (role) => ({ dist, seed: SEED, mocks: MOCKS, adminToken: ADMIN, ...(name === "db" ? { db: path.join(directory, `${role}.db`) } : {}) });
      const reads = await start("service", config("reads"));
      const starts = await start("service", config("starts"));
      const listWf = await publishedWorkflow(reads.baseUrl);
      const walk = await hundredFinishedRuns(reads.baseUrl, listWf);
      targets[name] = { reads, starts, listWf, walk };
    }
    const memory = targets.memory;
    const definition = definition30();
    const runRequest = (wf) => ({ method: "POST", path: `/api/v1/workflows/${wf}/run`, headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json", "Idempotency-Key": "bench-[<id>]" }, body: JSON.stringify({ question: "Which grocer wins on price?" }), idReplacement: true });
    const listRequest = (wf) => ({ method: "GET", path: `/api/v1/workflows/${wf}/runs`, headers: { Authorization: `Bearer ${KEY}` } });
    const validateRequest = { method: "POST", path: "/api/v1/workflows/catalogue/validate-definition", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify({ definition }) };

    // The floor answers what the in-memory service answered.
    const startWf = await publishedWorkflow(memory.starts.baseUrl);
    const capture = {
      start: await call(memory.starts.baseUrl, "POST", `/api/v1/workflows/${startWf}/run`, { question: "Which grocer wins on price?" }, { "Idempotency-Key": "bench-capture-0000000000000000000" }),
      list: await call(memory.reads.baseUrl, "GET", `/api/v1/workflows/${memory.listWf}/runs`),
      validate: await call(memory.reads.baseUrl, "POST", "/api/v1/workflows/catalogue/validate-definition", { definition }),
    };
    const floors = {};
    for (const [figure, reply] of Object.entries(capture)) floors[figure] = await start("floor", { status: reply.status, contentType: reply.contentType, body: reply.text });

    const scenarios = [
      ...[1, 8, 64].map((connections) => ({ figure: "start", name: "run start (distinct Idempotency-Keys)", connections })),
      ...[1, 8, 64].map((connections) => ({ figure: "list", name: "run list (100 runs of 30 nodes)", connections })),
      { figure: "validate", name: "validate-definition (30 nodes)", connections: 1 },
    ];
    /** One measurement of one target; run starts begin from an empty database. */
    const measure = async (target, scenario, duration) => {
      if (target === "floor") {
        const request = scenario.figure === "start" ? runRequest("wf_floor") : scenario.figure === "list" ? listRequest("wf_floor") : validateRequest;
        return load(floors[scenario.figure].baseUrl, request, scenario.connections, duration);
      }
      const { reads, starts, listWf } = targets[target];
      if (scenario.figure === "start") {
        await call(starts.baseUrl, "POST", "/__admin/reset", {}, {}, ADMIN);
        const wf = await publishedWorkflow(starts.baseUrl);
        return load(starts.baseUrl, runRequest(wf), scenario.connections, duration);
      }
      return load(reads.baseUrl, scenario.figure === "list" ? listRequest(listWf) : validateRequest, scenario.connections, duration);
    };
    // Warm-up: every path compiled before anything counts.
    for (const scenario of scenarios.filter((s) => s.connections === 8 || s.figure === "validate")) for (const target of ["floor", "memory", "db"]) await measure(target, scenario, 1);
    const samples = new Map(scenarios.map((scenario) => [scenario, { floor: [], memory: [], db: [] }]));
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? ["floor", "memory", "db"] : ["db", "memory", "floor"];
      for (const scenario of scenarios) for (const target of order) samples.get(scenario)[target].push(await measure(target, scenario, seconds));
    }
    const rows = scenarios.map((scenario) => {
      const s = samples.get(scenario);
      const ratio = (target) => median(s[target].map((sample, i) => sample.rps / s.floor[i].rps));
      return {
        figure: scenario.name,
        connections: scenario.connections,
        floorRps: Math.round(median(s.floor.map((x) => x.rps))),
        memoryRps: Math.round(median(s.memory.map((x) => x.rps))),
        memoryVsFloor: round2(ratio("memory")),
        memoryP99Ms: median(s.memory.map((x) => x.p99Ms)),
        dbRps: Math.round(median(s.db.map((x) => x.rps))),
        dbVsFloor: round2(ratio("db")),
        dbP99Ms: median(s.db.map((x) => x.p99Ms)),
        floorP99Ms: median(s.floor.map((x) => x.p99Ms)),
      };
    });
    // Scaling: throughput at 64 connections over one connection, paired by round.
    const scaling = ["start", "list"].map((figure) => {
      const one = scenarios.find((s) => s.figure === figure && s.connections === 1);
      const many = scenarios.find((s) => s.figure === figure && s.connections === 64);
      const ratio = (target) => round2(median(samples.get(many)[target].map((sample, i) => sample.rps / samples.get(one)[target][i].rps)));
      return { figure: one.name, memory64vs1: ratio("memory"), db64vs1: ratio("db"), floor64vs1: ratio("floor") };
    });
    const walk = { memory: targets.memory.walk, db: targets.db.walk };
    return { method: { seconds, rounds, loadGenerator: "autocannon 9.0.0", dist: path.relative(root, dist) || dist }, rows, scaling, walk };
  } finally {
    for (const running of started) await stopChild(running);
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The figures' goals, for bench/run.mjs's table (higher is better: `atLeast`); the in-memory service's, and `--db`'s beside them. */
export function serviceHttpGoals(figures) {
  const row = (name, connections) => figures.rows.find((r) => r.figure.startsWith(name) && r.connections === connections);
  const scaling = (name) => figures.scaling.find((s) => s.figure.startsWith(name));
  const goals = {};
  for (const [target, label] of [["memory", "in memory"], ["db", "--db"]]) {
    goals[`service ${label}: run starts at 8 connections, x the floor`] = { value: row("run start", 8)?.[`${target}VsFloor`], goal: 0.25, atLeast: true };
    goals[`service ${label}: run list (100 runs) at 8 connections, x the floor`] = { value: row("run list", 8)?.[`${target}VsFloor`], goal: 0.3, atLeast: true };
    goals[`service ${label}: validate-definition (30 nodes) at 1 connection, x the floor`] = { value: row("validate", 1)?.[`${target}VsFloor`], goal: 0.5, atLeast: true };
    goals[`service ${label}: run starts at 64 connections, x one connection`] = { value: scaling("run start")?.[`${target}64vs1`], goal: 0.8, atLeast: true };
    goals[`service ${label}: run list at 64 connections, x one connection`] = { value: scaling("run list")?.[`${target}64vs1`], goal: 0.8, atLeast: true };
  }
  return goals;
}

export function printServiceHttp(figures) {
  const { seconds, rounds } = figures.method;
  console.log(`\n## Service over HTTP against a bare node:http floor answering the same bytes (autocannon, ${rounds} paired rounds of ${seconds} s; requests a second and ratios are medians)`);
  console.table(figures.rows);
  console.log("\n## Service: throughput at 64 connections over one connection (medians of paired rounds)");
  console.table(figures.scaling);
  console.log("\n## Service: the walk, 100 runs of the 30-node graph stepping together");
  console.table(Object.entries(figures.walk).map(([target, walk]) => ({ target, ...walk, msPerPartCompletion: round2(walk.msPerPartCompletion) })));
  console.log("\n## Service goals");
  console.table(Object.entries(serviceHttpGoals(figures)).map(([goal, { value, goal: target }]) => ({ goal, value, target, met: value !== undefined && value >= target })));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await benchServiceHttp(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  printServiceHttp(figures);
  if (process.env.BENCH_SERVICE_JSON) writeFileSync(process.env.BENCH_SERVICE_JSON, JSON.stringify(figures, null, 2) + "\n");
}
