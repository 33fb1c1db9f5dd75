/**
 * The remote commands, as users run them (the BUILT CLI as a child process), against a
 * hostile HTTP server on 127.0.0.1: redirects to another origin, a server that never
 * answers or stalls, a refused connection, an endless answer, and 200 answers of the wrong
 * shape or of huge size. Each ends in one line on stderr and exit 2 (a large valid answer in
 * its output and exit 0), never a credential sent elsewhere, a wait without end, memory in
 * proportion to what the server sends, a stack trace or "internal error". Every child is
 * killed past a deadline; every loop here is bounded.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closedPort, json, startHostileServer, stream, type HostileServer, type Logged } from "../../../test/support/hostile-server.js";
import { bin, ensureBuilt, fixtures, repoRoot, runCli } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

const SECRET = "wfk_secret_0123456789abcdef";
const JWT = "jwt-secret-abcdef";
const ALERT_TOKEN = "alert-secret-xyz";
const GROCERS = readFileSync(path.join(repoRoot, "examples", "grocer-compare.wf"), "utf8");
const STATUSES = [301, 302, 303, 307, 308] as const;
const RUN_SUMMARY = { runId: "run_1", workflowId: "wf_1", state: "succeeded", createdAt: "2025-01-01T00:00:00Z", question: null };

let service: HostileServer;
let elsewhere: HostileServer;

beforeAll(() => ensureBuilt());
beforeEach(async () => {
  service = await startHostileServer();
  elsewhere = await startHostileServer();
});
afterEach(async () => {
  await service.close();
  await elsewhere.close();
});

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** When the first bytes on stderr came, ms after the start. */
  firstStderrMs: number | undefined;
  /** The child's peak resident memory in KiB (Linux's VmHWM), when it could be read. */
  peakKiB: number | undefined;
}

/** The built CLI, without blocking this process (its server must keep serving), killed after `deadlineMs`. */
function wfkit(args: string[], options: { env?: Record<string, string>; cwd?: string; deadlineMs?: number } = {}): Promise<Result> {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    WFKIT_BASE_URL: service.url,
    WFKIT_SIGNALS_URL: service.url,
    WFKIT_TOKEN: SECRET,
    WFKIT_SIGNALS_JWT: JWT,
    WFKIT_ALERT_TOKEN: ALERT_TOKEN,
    WFKIT_RETRY_BUDGET_MS: "1000",
    ...options.env,
  };
  const started = Date.now();
  const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd ?? tempTree(), env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let firstStderrMs: number | undefined;
  let peakKiB: number | undefined;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    firstStderrMs ??= Date.now() - started;
    stderr += chunk;
  });
  const status = `/proc/${child.pid}/status`;
  const sample = () => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(status, "utf8"));
      if (hwm) peakKiB = Math.max(peakKiB ?? 0, Number(hwm[1]));
    } catch {
      // Gone, or not Linux.
    }
  };
  const sampler = setInterval(sample, 20);
  const killer = setTimeout(() => child.kill("SIGKILL"), options.deadlineMs ?? 30_000);
  return new Promise((resolve) =>
    child.once("close", (code) => {
      clearInterval(sampler);
      clearTimeout(killer);
      resolve({ status: code, stdout, stderr, ms: Date.now() - started, firstStderrMs, peakKiB });
    }),
  );
}

/** One line on stderr, `wfkit: ...`, with neither a stack nor an internal error, nor a secret. */
function oneLine(result: Result): string {
  const lines = result.stderr.split("\n").filter(Boolean);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^wfkit: /);
  for (const bad of ["internal error", "RangeError", "Maximum call stack", "TypeError", "    at ", SECRET, JWT, ALERT_TOKEN]) expect(result.stderr).not.toContain(bad);
  return lines[0]!;
}

const redirectTo = (target: HostileServer, status: number) =>
  service.handle((request, response) => {
    response.writeHead(status, { Location: `${target.url}${request.url}` });
    response.end();
  });

describe("a redirect to another origin", () => {
  for (const status of STATUSES)
    it(`${status}: a run start (POST, Idempotency-Key) and a saved-view read (X-Alert-Token) are refused; the other origin hears nothing`, async () => {
      redirectTo(elsewhere, status);
      const cwd = tempTree();
      const run = await wfkit(["run", "wf_0123"], { cwd });
      expect(run.status).toBe(2);
      // The Idempotency-Key notes come first; the refusal is the last line.
      const refusal = run.stderr.trimEnd().split("\n").pop()!;
      expect(refusal).toBe(
        `wfkit: POST /api/v1/workflows/wf_0123/run: ${service.url} answered ${status}, redirecting to another origin, ${elsewhere.url}; refused: a request is never sent to an origin other than the configured one (${service.url}), where its credential was not meant to go. If the service has moved, use its new address as the base URL.`,
      );
      // No answer was taken: the key stays saved, for a re-run to send again.
      expect(Object.values(JSON.parse(readFileSync(path.join(cwd, ".wfkit", "state.json"), "utf8")).baseUrls[service.url].pendingRuns)).toHaveLength(1);
      const views = await wfkit(["views", "list"]);
      expect(views.status).toBe(2);
      expect(oneLine(views)).toContain(`GET /api/views: ${service.url} answered ${status}, redirecting to another origin, ${elsewhere.url}; refused`);
      expect(elsewhere.log).toEqual([]);
      expect(service.log.map((entry) => entry.method)).toEqual(["POST", "GET"]);
    });

  it("every other remote command refuses it too, with the credential it carries", async () => {
    redirectTo(elsewhere, 307);
    const commands: string[][] = [
      ["runs", "list"],
      ["catalogue", "pull"],
      ["templates", "list"],
      ["subjects", "resolve", "TSCO"],
      ["signals", "index"],
      ["check", path.join(repoRoot, "examples", "grocer-compare.wf"), "--remote"],
    ];
    for (const command of commands) {
      const result = await wfkit(command);
      expect(result.status, command.join(" ")).toBe(2);
      expect(result.stderr, command.join(" ")).toContain(`answered 307, redirecting to another origin, ${elsewhere.url}; refused`);
    }
    const alert = await wfkit(["alerts", "create", "signals/cpix-above-60.alert.json"], { cwd: fixtures });
    expect(alert.status).toBe(2);
    expect(alert.stderr).toContain(`POST /api/alerts: ${service.url} answered 307, redirecting to another origin`);
    expect(elsewhere.log).toEqual([]);
  });

  it("within the origin, a read follows it; a run start is still refused", async () => {
    service.handle((request, response) => {
      if (request.url.startsWith("/moved")) return json(response, { runs: [RUN_SUMMARY] });
      response.writeHead(302, { Location: `/moved${request.url}` });
      response.end();
    });
    const listed = await wfkit(["runs", "list"]);
    expect([listed.status, listed.stderr]).toEqual([0, ""]);
    expect(listed.stdout).toContain("run_1  wf_1  succeeded");
    const run = await wfkit(["run", "wf_0123"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("redirecting to /moved/api/v1/workflows/wf_0123/run; refused: a POST is never sent again after a redirect");
    expect(service.log.filter((entry) => entry.method === "POST")).toHaveLength(1);
  });
});

describe("a server that does not answer", () => {
  it("accepts and never answers: --timeout bounds each attempt, retries are announced, the command ends", async () => {
    service.handle(() => undefined);
    const result = await wfkit(["runs", "list", "--timeout", "1"], { env: { WFKIT_RETRY_BUDGET_MS: "1500" } });
    expect(result.status).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^wfkit: retrying in \\d+\\.\\d s after no answer from ${service.url} to GET /api/v1/workflows/runs\\?state=all: timed out: nothing more within 1 s$`));
    expect(lines.at(-1)).toContain("timed out");
    expect(lines.at(-1)).toContain("--timeout SECONDS or WFKIT_TIMEOUT allows longer");
    expect(result.ms).toBeLessThan(6_000);
  });

  it("WFKIT_TIMEOUT does the same for the Consumer Signals commands", async () => {
    service.handle(() => undefined);
    const result = await wfkit(["signals", "list"], { env: { WFKIT_TIMEOUT: "0.5", WFKIT_RETRY_BUDGET_MS: "0" } });
    expect(result.status).toBe(2);
    expect(oneLine(result)).toBe(
      `wfkit: no answer from ${service.url} to GET /api/signals: timed out: nothing more within 0.5 s; is the service overloaded, or the address one that never answers? (reads were retried; --timeout SECONDS or WFKIT_TIMEOUT allows longer)`,
    );
    expect(result.ms).toBeLessThan(4_000);
  });

  it("sends headers and stalls: the timeout covers the body", async () => {
    service.handle((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.write("[");
    });
    const result = await wfkit(["templates", "list", "--timeout", "1"], { env: { WFKIT_RETRY_BUDGET_MS: "0" } });
    expect(result.status).toBe(2);
    expect(oneLine(result)).toContain("the answer stalled: nothing more within 1 s");
  });

  it("a run start without an answer is sent again with the same key; the key is kept for a re-run, which reuses it", async () => {
    service.handle(() => undefined);
    const cwd = tempTree();
    const first = await wfkit(["run", "wf_0123", "--timeout", "0.5"], { cwd, env: { WFKIT_RETRY_BUDGET_MS: "1500" } });
    expect(first.status).toBe(2);
    expect(first.stderr).toContain("wfkit: retrying in");
    const keys = service.log.map((entry) => entry.headers["idempotency-key"]);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
    service.handle((_request, response) => json(response, { ok: true, runId: "run_9", host: "workflow_run", estimate: { costMinorUnits: 3 } }));
    const again = await wfkit(["run", "wf_0123"], { cwd });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(`reusing Idempotency-Key ${keys[0]}`);
  });

  it("a workflow create without an answer is not sent again", async () => {
    service.handle((request, response) => {
      if (request.url.endsWith("/validate-definition")) return json(response, { ok: true, estimate: { costMinorUnits: 5 } });
      // Creating the workflow: no answer.
    });
    const cwd = tempTree({ "flows/grocer-compare.wf": GROCERS });
    const result = await wfkit(["deploy", "flows/grocer-compare.wf", "--timeout", "0.5"], { cwd, env: { WFKIT_RETRY_BUDGET_MS: "2000" } });
    expect(result.status).toBe(2);
    expect(oneLine(result)).toContain("POST /api/v1/workflows: timed out");
    expect(service.log.map((entry: Logged) => `${entry.method} ${entry.url}`)).toEqual(["POST /api/v1/workflows/catalogue/validate-definition", "POST /api/v1/workflows"]);
  });

  it("a refused connection says so on the first line, at once", async () => {
    const port = await closedPort();
    const result = await wfkit(["runs", "list"], { env: { WFKIT_BASE_URL: `http://127.0.0.1:${port}`, WFKIT_RETRY_BUDGET_MS: "1500" } });
    expect(result.status).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^wfkit: retrying in \d\.\d s after no answer from http:\/\/127\.0\.0\.1:\d+ to GET \/api\/v1\/workflows\/runs\?state=all: connection refused \(ECONNREFUSED\): nothing listens at that address$/);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.at(-1)).toContain("connection refused (ECONNREFUSED)");
    expect(result.firstStderrMs).toBeLessThan(2_500);
  });

  it("--timeout and WFKIT_TIMEOUT take a number of seconds, (0, 3600]", async () => {
    for (const value of ["0", "abc", "3601", "1e3", "", "0.0001"]) {
      const result = runCli(["runs", "list", "--timeout", value], { env: { WFKIT_BASE_URL: service.url, WFKIT_TOKEN: SECRET } });
      expect(result.status, value).toBe(2);
      expect(result.stderr, value).toContain("--timeout must be a number of seconds greater than 0 and at most 3600");
    }
    // A negative number reads as an option: the parser's own usage error.
    const negative = runCli(["runs", "list", "--timeout", "-1"], { env: { WFKIT_BASE_URL: service.url, WFKIT_TOKEN: SECRET } });
    expect([negative.status, negative.stderr]).toEqual([2, expect.stringContaining("--timeout")]);
    const env = runCli(["views", "list"], { env: { WFKIT_SIGNALS_URL: service.url, WFKIT_ALERT_TOKEN: ALERT_TOKEN, WFKIT_TIMEOUT: "soon" } });
    expect([env.status, env.stderr]).toEqual([2, "wfkit: WFKIT_TIMEOUT must be a number of seconds greater than 0 and at most 3600, such as 30 or 2.5\n"]);
    expect(service.log).toEqual([]);
  });

  it("every remote command takes --timeout", () => {
    for (const command of ["check", "deploy", "run", "runs", "catalogue", "subjects", "templates", "pin", "signals", "alerts", "views"]) {
      const help = runCli([command, "--help"]);
      expect(help.stdout, command).toMatch(/--timeout SECONDS +Give up on a request not fully answered in SECONDS \(default: WFKIT_TIMEOUT, else 30\)/);
    }
  });
});

describe("an answer larger than the client reads", () => {
  it("an endless answer: cut off past 16 MiB, asked once, in bounded memory", async () => {
    service.handle((_request, response) => stream(service, response, Buffer.alloc(256 * 1024, 0x20)));
    const result = await wfkit(["runs", "list"]);
    expect(result.status).toBe(2);
    expect(oneLine(result)).toBe(
      `wfkit: GET /api/v1/workflows/runs?state=all: the answer from ${service.url} is larger than 16 MiB, the most this client reads of one answer; refused, and not asked again; is the base URL the service's?`,
    );
    expect(service.log).toHaveLength(1);
    if (result.peakKiB !== undefined) expect(result.peakKiB).toBeLessThan(300 * 1024);
  });

  it("catalogue pull writes nothing; signals history and views list stop the same way", async () => {
    service.handle((_request, response) => stream(service, response, Buffer.alloc(256 * 1024, 0x20), 40 * 1024 * 1024, { "Content-Length": 40 * 1024 * 1024 }));
    const cwd = tempTree();
    const pulled = await wfkit(["catalogue", "pull", "-o", "catalogue.json"], { cwd });
    expect(pulled.status).toBe(2);
    expect(pulled.stderr).toContain("is larger than 16 MiB");
    expect(existsSync(path.join(cwd, "catalogue.json"))).toBe(false);
    for (const command of [["signals", "history"], ["views", "list"]]) {
      const result = await wfkit(command);
      expect(result.status, command.join(" ")).toBe(2);
      expect(oneLine(result)).toContain("is larger than 16 MiB");
    }
  });
});

describe("hostile 200 answers", () => {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  const cases: { command: string[]; bodies: string[]; says: string }[] = [
    { command: ["runs", "list"], bodies: ["null", "", "[]", '{"runs":"x"}', '{"runs":[{"runId":1}]}', '{"runs":[null]}', deep], says: "GET /api/v1/workflows/runs?state=all answered 200" },
    { command: ["runs", "show", "run_1", "--workflow", "wf_1"], bodies: ['{"runId":"run_1"}', JSON.stringify({ ...RUN_SUMMARY, usage: {}, childRuns: [], nodes: "x" })], says: "GET /api/v1/workflows/wf_1/runs/run_1 answered 200" },
    { command: ["templates", "list"], bodies: ['[{"id":1}]', "{}"], says: "GET /api/v1/workflows/templates answered 200" },
    { command: ["subjects", "resolve", "TSCO"], bodies: ['{"subjects":null,"unresolved":[]}'], says: "POST /api/v1/workflows/catalogue/resolve-subjects answered 200" },
    { command: ["views", "list"], bodies: ["null", "{}", '[{"id":"v"}]'], says: "GET /api/views answered 200" },
    { command: ["signals", "briefing"], bodies: ["{}", '{"weekStart":[]}'], says: "GET /api/briefing/latest answered 200" },
    { command: ["signals", "history"], bodies: ['{"history":[{"date":"d","value":"1"}],"count":1,"from":"f","to":"t","lastUpdated":"u"}'], says: "GET /api/history" },
  ];
  for (const { command, bodies, says } of cases)
    it(`${command.join(" ")}: one line naming the endpoint, exit 2`, async () => {
      for (const body of bodies) {
        service.handle((_request, response) => json(response, body));
        const result = await wfkit(command);
        expect(result.status, body.slice(0, 60)).toBe(2);
        const line = oneLine(result);
        expect(line).toContain(says);
        expect(line).toMatch(/not the shape the reference gives|nested deeper than|not JSON/);
        expect(result.stdout).toBe("");
      }
    });

  it("with --format json, the error is JSON on stdout with kind bad_answer", async () => {
    service.handle((_request, response) => json(response, "null"));
    const result = await wfkit(["runs", "list", "--format", "json"]);
    expect(result.status).toBe(2);
    expect(JSON.parse(result.stdout).error).toMatchObject({ ok: false, kind: "bad_answer", reason: "shape", retryable: false, request: "GET /api/v1/workflows/runs?state=all" });
  });

  it("a deploy whose verdict lacks the estimate stops before creating anything", async () => {
    service.handle((_request, response) => json(response, { ok: true }));
    const cwd = tempTree({ "flows/grocer-compare.wf": GROCERS });
    const result = await wfkit(["deploy", "flows/grocer-compare.wf", "--publish"], { cwd });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("`estimate` is missing where an object belongs");
    expect(service.log).toHaveLength(1);
    expect(existsSync(path.join(cwd, ".wfkit"))).toBe(false);
  });

  it("text from the service reaches the terminal only printable; an unknown reason is not an inherited member", async () => {
    service.handle((request, response) => {
      if (request.url.includes("resolve-subjects")) return json(response, { subjects: [], unresolved: [{ hint: "TSCO", reason: "constructor" }] });
      json(response, { runs: [{ ...RUN_SUMMARY, runId: "run_\u001b[31mred\u0007", state: "\u001b]0;title\u0007" }] });
    });
    const listed = await wfkit(["runs", "list"]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const resolved = await wfkit(["subjects", "resolve", "TSCO"]);
    expect(resolved.status).toBe(1);
    expect(resolved.stdout).toBe('unresolved "TSCO": constructor\n');
    const cwd = tempTree({ "g.wf": GROCERS.replace('subject tesco = company "cmp_tesco" "Tesco PLC"', 'subject tesco = company "TSCO"') });
    const pinned = await wfkit(["pin", "g.wf"], { cwd });
    expect(pinned.status, pinned.stderr).toBe(1);
    expect(pinned.stdout).toContain('unresolved tesco: "TSCO": constructor');
  });
});

describe("large answers within the cap", () => {
  it("200,000 runs: listed, as text and as JSON", async () => {
    const runs = Array.from({ length: 200_000 }, (_, i) => ({ runId: `r${i}`, workflowId: "w", state: "queued", createdAt: "t" }));
    const body = JSON.stringify({ runs });
    service.handle((_request, response) => json(response, body));
    const text = await wfkit(["runs", "list"]);
    expect([text.status, text.stderr]).toEqual([0, ""]);
    expect(text.stdout.split("\n").filter(Boolean)).toHaveLength(200_000);
    const asJson = await wfkit(["runs", "list", "--format", "json"]);
    expect(asJson.status).toBe(0);
    expect(JSON.parse(asJson.stdout).runs).toHaveLength(200_000);
  });

  it("200,000 saved views and a history of 200,000 points are drawn", async () => {
    const views = Array.from({ length: 200_000 }, (_, i) => ({ id: `v${i}`, name: "n", geography: "US", driver_ids: [], question: "q" }));
    service.handle((_request, response) => json(response, JSON.stringify(views)));
    const listed = await wfkit(["views", "list"]);
    expect([listed.status, listed.stderr]).toEqual([0, ""]);
    expect(listed.stdout.split("\n").filter(Boolean)).toHaveLength(200_000);
    const history = Array.from({ length: 200_000 }, (_, i) => ({ date: "2020-01-01", value: i % 100 }));
    service.handle((_request, response) => json(response, JSON.stringify({ history, count: history.length, from: "2020-01-01", to: "2025-01-01", lastUpdated: "t" })));
    const charted = await wfkit(["signals", "history", "--width", "60"]);
    expect([charted.status, charted.stderr]).toEqual([0, ""]);
    expect(charted.stdout).toContain("200000 points");
    expect(charted.stdout).toContain("low 0.0, high 99.0");
  });
});
