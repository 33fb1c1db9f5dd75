/**
 * What misled a newcomer (issue 30), for the commands that call a service: the BUILT CLI as a
 * child process against `wfkit serve` (also the built CLI) on loopback, and against servers
 * that are not the Workflows API.
 *
 * - `wfkit serve`'s banner prints the values to export, and they work as printed; a base URL
 *   ending in `/api/v1` works too;
 * - a base URL that answers like some other server is named as not the Workflows API;
 * - the lifecycle guide's held run, reproduced with `run --mock-case` and the guide's mocks
 *   file (examples/lifecycle-mocks.json);
 * - Ctrl-C during `run --wait`: a real SIGINT, and a real Ctrl-C typed on a terminal (a pty
 *   through util-linux's `script`): the run goes on, wfkit says so and how to follow it
 *   again, and `wfkit runs watch RUN` does;
 * - the first deploy without `--publish` says there is no published version.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, serve, type Served } from "../../../test/support/serve-process.js";
import { bin, ensureBuilt, repoRoot, runCli, type RunResult } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";
import { ensureCommands } from "../../../test/support/debian.js";

const GROCERS = readFileSync(path.join(repoRoot, "examples", "grocer-compare.wf"), "utf8");
const LIFECYCLE_MOCKS = path.join(repoRoot, "examples", "lifecycle-mocks.json");

beforeAll(() => ensureBuilt());

function project(): string {
  return tempTree({ "flows/grocer-compare.wf": GROCERS });
}

/** The built CLI without blocking this process (the servers it talks to run in it, or must be answered meanwhile). */
function wfkitAsync(cwd: string, args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<RunResult>; stderr: () => string } {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", WFKIT_RETRY_BUDGET_MS: "1500", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const done = new Promise<RunResult>((resolve) => child.once("close", (status) => resolve({ status, stdout, stderr })));
  return { child, done, stderr: () => stderr };
}

/** Resolves once `read()` matches `pattern`, polling; rejects after `ms`. */
async function until(read: () => string, pattern: RegExp, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pattern.test(read())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} in:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("wfkit serve's banner, used as printed", () => {
  let child: ChildProcess;
  let banner = "";

  beforeAll(async () => {
    child = spawn(process.execPath, [bin, "serve", "--port", "0", "--mocks", LIFECYCLE_MOCKS], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (banner += chunk));
    await until(() => banner, /Stop with Ctrl-C\.\n/);
  });
  afterAll(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });

  /** The `export NAME=VALUE` lines of the banner, as an environment. */
  const exported = (): Record<string, string> => Object.fromEntries([...banner.matchAll(/^  export (WFKIT_\w+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!]));

  it("names the base URLs as the commands take them, and the lines to export", () => {
    const base = /^wfkit serve: the Workflows API at (http:\/\/127\.0\.0\.1:\d+) \(its routes under \/api\/v1\)$/m.exec(banner)?.[1];
    expect(base).toBeDefined();
    expect(banner).toContain(`  Consumer Signals API (SAMPLE data) at ${base}/signals (its routes under /api);`);
    expect(banner).toContain("For wfkit in another shell (deploy, run, signals...):\n");
    const env = exported();
    expect(Object.keys(env)).toEqual(["WFKIT_BASE_URL", "WFKIT_SIGNALS_URL", "WFKIT_TOKEN", "WFKIT_SIGNALS_JWT", "WFKIT_ALERT_TOKEN"]);
    expect(env.WFKIT_BASE_URL).toBe(base);
    expect(env.WFKIT_SIGNALS_URL).toBe(`${base}/signals`);
    expect(env.WFKIT_TOKEN).toMatch(/^wfk_write_/);
  });

  it("deploys, runs the guide's held run (--mock-case), and follows it again with runs watch, from the exported values alone", () => {
    const cwd = project();
    const env = exported();
    const first = runCli(["deploy", "flows/grocer-compare.wf"], { cwd, env });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain("Not published: grocer-compare is new and has no published version yet, so `wfkit run grocer-compare` is refused until you deploy with --publish\n");
    expect(first.stdout).not.toContain("previously published");
    const refused = runCli(["run", "grocer-compare"], { cwd, env });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("no_published_version");

    const published = runCli(["deploy", "flows/grocer-compare.wf", "--publish"], { cwd, env });
    expect(published.status, published.stderr).toBe(0);
    expect(published.stdout).toContain("Published version ver_");

    const held = runCli(["run", "grocer-compare", "--wait", "--mock-case", "weak-compare", "--question", "cheaper?"], { cwd, env });
    expect(held.status, held.stderr).toBe(1);
    expect(held.stdout).toMatch(/^Run (run_[0-9a-f]+) held; drew 220 of 220 minor units reserved$/m);
    expect(held.stdout).toContain('  compare (below the quality floor): {"terminal.result":{"score":0.2}}');
    const runId = /Run (run_[0-9a-f]+) held/.exec(held.stdout)![1]!;
    expect(held.stdout).toContain(`wfkit runs deliver ${runId} --workflow grocer-compare`);

    const watched = runCli(["runs", "watch", runId], { cwd, env });
    expect(watched.status).toBe(1);
    expect(watched.stdout).toContain(`Run ${runId} held;`);

    const plain = runCli(["run", "grocer-compare", "--wait"], { cwd, env });
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/Run run_[0-9a-f]+ succeeded/);

    const unknown = runCli(["run", "grocer-compare", "--mock-case", "no-such-case"], { cwd, env });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("unknown_mock_case");
  });

  it("takes a base URL that ends in /api/v1 (what the banner once printed) as the same service", () => {
    const env = exported();
    for (const suffix of ["/api/v1", "/api/v1/"]) {
      const listed = runCli(["runs", "list", "--format", "json"], { cwd: project(), env: { ...env, WFKIT_BASE_URL: env.WFKIT_BASE_URL + suffix } });
      expect(listed.status, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).runs.length).toBeGreaterThan(0);
      const flag = runCli(["runs", "list", "--base-url", env.WFKIT_BASE_URL + suffix], { cwd: project(), env: { WFKIT_TOKEN: env.WFKIT_TOKEN! } });
      expect(flag.status, flag.stderr).toBe(0);
    }
  });

  it("says the signals URL does not look like the Workflows API, naming it and the form expected", () => {
    const env = exported();
    const result = runCli(["runs", "list"], { cwd: project(), env: { ...env, WFKIT_BASE_URL: env.WFKIT_SIGNALS_URL! } });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `wfkit: ${env.WFKIT_SIGNALS_URL} does not look like the Workflows API: GET /api/v1/workflows/runs?state=all answered 404 without the service's error body ({"error", "message"}), as some other server would. A Workflows API base URL is the address its /api/v1 routes hang under, such as http://127.0.0.1:8787 (what \`wfkit serve\` prints as WFKIT_BASE_URL); check --base-url, WFKIT_BASE_URL or "baseUrl" in wfkit.config.json.\n`,
    );
    expect(result.stderr).not.toContain("without an error message");
  });
});

describe("a base URL that is some other server", () => {
  let server: Server;
  let url: string;
  let answer: { status: number; type: string; body: string } = { status: 404, type: "text/html", body: "<h1>Not Found</h1>" };

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(answer.status, { "Content-Type": answer.type });
      response.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a 404 page, a JSON 404 of another shape, a 200 page (the playground's): each named as not the Workflows API, exit 2", async () => {
    const cases = [
      { status: 404, type: "text/html", body: "<h1>Not Found</h1>", expected: /^wfkit: http:\/\/127\.0\.0\.1:\d+ does not look like the Workflows API: GET \/api\/v1\/workflows\/runs\?state=all answered 404 without the service's error body/ },
      { status: 404, type: "application/json", body: '{"detail": "Not Found"}', expected: /does not look like the Workflows API: .* answered 404 without the service's error body/ },
      { status: 200, type: "text/html", body: "<!doctype html><title>wfkit playground</title>", expected: /answered 200 with a body that is not JSON; is http:\/\/127\.0\.0\.1:\d+ the Workflows API\? A Workflows API base URL is the address its \/api\/v1 routes hang under, such as http:\/\/127\.0\.0\.1:8787/ },
    ];
    for (const { expected, ...reply } of cases) {
      answer = reply;
      const result = await wfkitAsync(project(), ["runs", "list"], { WFKIT_BASE_URL: url, WFKIT_TOKEN: "wfk_x" }).done;
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(expected);
      expect(result.stderr.split("\n")).toHaveLength(2);
    }
  });
});

describe("Ctrl-C during run --wait", () => {
  let served: Served;
  let cwd: string;
  const env = () => ({ WFKIT_BASE_URL: served.baseUrl, WFKIT_TOKEN: served.keys.write! });

  beforeAll(async () => {
    // Each part takes 1.5 s: a run of grocer-compare stays open for several seconds.
    // A directory of its own for the describe (tempTree's are removed after each test).
    cwd = mkdtempSync(path.join(tmpdir(), "wfkit-newcomer-"));
    mkdirSync(path.join(cwd, "flows"));
    writeFileSync(path.join(cwd, "flows", "grocer-compare.wf"), GROCERS);
    writeFileSync(path.join(cwd, "slow.json"), JSON.stringify({ delayMs: 1500 }));
    served = await serve(["--mocks", path.join(cwd, "slow.json")]);
    const deployed = await wfkitAsync(cwd, ["deploy", "flows/grocer-compare.wf", "--publish"], env()).done;
    expect(deployed.status, deployed.stderr).toBe(0);
  });
  afterAll(async () => {
    await served?.stop();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  const runState = async (runId: string): Promise<string> => {
    const listed = await http(served.baseUrl, "GET", "/api/v1/workflows/runs", served.keys.write);
    return (listed.body.runs as { runId: string; state: string }[]).find((run) => run.runId === runId)!.state;
  };

  it("SIGINT: says the run continues, its id and the command that follows it; exits 130; runs watch follows it to the end", async () => {
    const running = wfkitAsync(cwd, ["run", "grocer-compare", "--wait"], env());
    await until(running.stderr, /: running \(/);
    running.child.kill("SIGINT");
    const stopped = await running.done;
    expect(stopped.status).toBe(130);
    const runId = /Run (run_[0-9a-f]+) started/.exec(stopped.stdout)![1]!;
    expect(stopped.stderr).toContain(
      `\nwfkit: stopped following; run ${runId} continues on the service (Ctrl-C neither cancels nor pauses it). Follow it again with \`wfkit runs watch ${runId}\`, or cancel it with \`wfkit runs cancel ${runId}\`.\n`,
    );
    expect(await runState(runId)).toMatch(/^(queued|running)$/);

    const watched = await wfkitAsync(cwd, ["runs", "watch", runId], env()).done;
    expect(watched.status, watched.stderr).toBe(0);
    expect(watched.stdout).toContain(`Run ${runId} succeeded; drew 220 of 220 minor units reserved`);
    expect(watched.stderr).toMatch(new RegExp(`${runId}: succeeded \\(compare succeeded, report succeeded\\)\\n$`));
    expect(await runState(runId)).toBe("succeeded");
  });

  it("--format json: the document says interrupted, with the run and the command", async () => {
    const running = wfkitAsync(cwd, ["run", "grocer-compare", "--wait", "--format", "json"], env());
    await until(running.stderr, /: running \(/);
    running.child.kill("SIGINT");
    const stopped = await running.done;
    expect(stopped.status).toBe(130);
    const document = JSON.parse(stopped.stdout);
    expect(document).toMatchObject({ ok: false, interrupted: true, runId: expect.stringMatching(/^run_/), follow: `wfkit runs watch ${document.runId}` });
  });

  it("Ctrl-C typed on a terminal (a pty): the note starts on a line of its own after the live progress line", async () => {
    // util-linux's script runs the command on a pty; a ^C written to it is the terminal's Ctrl-C.
    ensureCommands(["script"], { script: "bsdutils" });
    const command = [process.execPath, bin, "run", "grocer-compare", "--wait"].map((word) => `'${word}'`).join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TERM: "xterm", ...env() }, stdio: ["pipe", "pipe", "pipe"] });
    let screen = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (screen += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
    await until(() => screen, /\r\x1b\[2Krun_[0-9a-f]+: running \([^\r\n]*$/);
    child.stdin!.write("\x03");
    expect(await exited).toBe(130);
    const runId = /Run (run_[0-9a-f]+) started/.exec(screen)![1]!;
    // The progress line is rewritten in place (no line break of its own); the note follows on a new line.
    expect(screen).toMatch(new RegExp(`\\r\\x1b\\[2K${runId}: running \\([^\\r\\n]*\\r?\\n(\\^C)?\\r?\\n?wfkit: stopped following; run ${runId} continues on the service`));
  });
});
