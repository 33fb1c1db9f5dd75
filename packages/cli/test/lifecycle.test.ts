/**
 * The road from a checked `.wf` to a delivered run, as users drive it: the BUILT CLI as a
 * child process against `wfkit serve` (also the built CLI) over loopback HTTP. One server for
 * the file; each test starts from an admin reset (same keys) in a fresh project directory.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer, connect as tcpConnect, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { http, serve, type Served } from "../../../test/support/serve-process.js";
import { bin, ensureBuilt, repoRoot, runCli, type RunResult } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

const MOCKS = { delayMs: 20, cases: { default: { parts: { "terminal.compare": { "1": { belowFloor: { "terminal.result": { score: 0.2 } } } } } } } };
const GROCERS = readFileSync(path.join(repoRoot, "examples", "grocer-compare.wf"), "utf8");

let served: Served;
let write: string;
let read: string;

beforeAll(async () => {
  ensureBuilt();
  const dir = tempTree({ "mocks.json": JSON.stringify(MOCKS) });
  served = await serve(["--mocks", path.join(dir, "mocks.json")]);
  write = served.keys.write!;
  read = served.keys.read!;
});
afterAll(async () => {
  await served?.stop();
});
beforeEach(async () => {
  expect((await admin("/reset")).status).toBe(200);
});

/** An admin call; once more if a kept-alive connection was closed by the server meanwhile. */
const admin = (route: string, body: unknown = {}) =>
  http(served.baseUrl, "POST", `/__admin${route}`, served.adminToken, body).catch(() => http(served.baseUrl, "POST", `/__admin${route}`, served.adminToken, body));

/** The built CLI without blocking this process (whose proxy must keep serving meanwhile). */
function wfkitAsync(cwd: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", WFKIT_TOKEN: write, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once("close", (status) => resolve({ status, stdout, stderr })));
}

/** The CLI in `cwd` with the service's address and a credential in the environment. */
function wfkit(cwd: string, args: string[], env: Record<string, string> = {}): RunResult {
  return runCli(args, { cwd, env: { WFKIT_BASE_URL: served.baseUrl, WFKIT_TOKEN: write, WFKIT_RETRY_BUDGET_MS: "1500", ...env } });
}

function project(): string {
  return tempTree({ "flows/grocer-compare.wf": GROCERS });
}

/** A project with grocer-compare deployed and published. */
function deployed(): string {
  const cwd = project();
  const result = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--publish"]);
  expect(result.status, result.stderr).toBe(0);
  return cwd;
}

async function runsOnService(): Promise<string[]> {
  const list = () => http(served.baseUrl, "GET", "/api/v1/workflows/runs", write);
  const listed = await list().catch(list);
  return (listed.body.runs as { runId: string }[]).map((run) => run.runId);
}

describe("the road", () => {
  it("catalogue pull → check --remote → deploy --publish → run --wait (held) → runs deliver → runs list", () => {
    const cwd = project();
    const pulled = wfkit(cwd, ["catalogue", "pull", "-o", "catalogue.json"]);
    expect(pulled.status, pulled.stderr).toBe(0);
    expect(pulled.stderr).toMatch(/catalogue\.json: \d+ parts/);
    const catalogue = JSON.parse(readFileSync(path.join(cwd, "catalogue.json"), "utf8"));
    expect(catalogue.catalogueVersion).toBe(1);
    writeFileSync(path.join(cwd, "wfkit.config.json"), JSON.stringify({ catalogue: "catalogue.json" }));

    const checked = wfkit(cwd, ["check", "flows", "--remote"]);
    expect(checked.status, checked.stderr).toBe(0);
    expect(checked.stderr).toContain("the service agrees on all 1 file(s)");

    const dry = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--publish", "--dry-run"]);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("create workflow grocer-compare");
    expect(dry.stdout).toMatch(/Estimate: \d+ minor units/);

    const deploy = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--publish"]);
    expect(deploy.status, deploy.stderr).toBe(0);
    expect(deploy.stdout).toMatch(/Created workflow grocer-compare \(wf_[0-9a-f]+\)/);
    expect(deploy.stdout).toMatch(/Published version ver_/);
    const state = JSON.parse(readFileSync(path.join(cwd, ".wfkit", "state.json"), "utf8"));
    const workflowId = state.baseUrls[served.baseUrl].workflows["grocer-compare"] as string;
    expect(workflowId).toMatch(/^wf_/);

    // A second deploy of the same file saves nothing new (expect-plan.test.ts); with --force it saves a new version of the same workflow.
    const again = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--force", "--format", "json"]);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, created: false, workflow: { id: workflowId }, published: false });

    const run = wfkit(cwd, ["run", "grocer-compare", "--wait", "--question", "who is cheaper?"]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/Idempotency-Key [0-9a-f-]{36} \(saved in \.wfkit\/state\.json first/);
    expect(run.stderr).toMatch(/: held \(compare succeeded, report succeeded\)\n/); // plain lines, not a TTY
    expect(run.stdout).toContain("compare (below the quality floor)");
    const runId = /Run (run_[0-9a-f]+) held/.exec(run.stdout)![1]!;
    expect(run.stdout).toContain(`wfkit runs deliver ${runId}`);

    const delivered = wfkit(cwd, ["runs", "deliver", runId]);
    expect(delivered.status, delivered.stderr).toBe(0);
    expect(delivered.stdout).toContain(`Delivered run ${runId}`);

    let listed: RunResult | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      listed = wfkit(cwd, ["runs", "list", "--state", "terminal", "--format", "json"]);
      if (JSON.parse(listed.stdout).runs.length) break;
    }
    expect(JSON.parse(listed!.stdout).runs).toMatchObject([{ runId, workflowId, state: "succeeded", question: "who is cheaper?" }]);
    const shown = wfkit(cwd, ["runs", "show", runId]);
    expect(shown.stdout).toContain(`Run ${runId} succeeded`);
  });

  it("templates pull writes .wf that checks clean; subjects resolve explains what it could not resolve", () => {
    const cwd = tempTree();
    const list = wfkit(cwd, ["templates", "list"]);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/^grocer-compare +Compare two grocers/m);
    const pulled = wfkit(cwd, ["templates", "pull", "grocer-compare", "-o", "g.wf"]);
    expect(pulled.status, pulled.stderr).toBe(0);
    expect(readFileSync(path.join(cwd, "g.wf"), "utf8")).toMatch(/^workflow "grocer-compare"/);
    expect(wfkit(cwd, ["check", "g.wf"]).status).toBe(0);
    const resolved = wfkit(cwd, ["subjects", "resolve", "TSCO", "no such company"]);
    expect(resolved.status).toBe(1);
    expect(resolved.stdout).toContain("cmp_tesco  Tesco PLC");
    expect(resolved.stdout).toContain('unresolved "no such company": not_found');
  });

  it("pin rewrites subjects to canonical ids in one call, keeping comments, and lists what it could not resolve", () => {
    const unpinned = GROCERS.replace('subject tesco = company "cmp_tesco" "Tesco PLC"', 'subject tesco = company "TSCO" # the ticker, for now').replace(
      'subject sainsbury = company "cmp_sbry" "J Sainsbury plc"',
      'subject sainsbury = {"hint": "Sainsbury"}\nsubject mystery = company "No Such Grocer"',
    );
    const cwd = tempTree({ "flows/grocer-compare.wf": unpinned });
    const dry = wfkit(cwd, ["pin", "flows/grocer-compare.wf", "--dry-run"]);
    expect(readFileSync(path.join(cwd, "flows/grocer-compare.wf"), "utf8")).toBe(unpinned);
    expect(dry.stdout).toContain("would rewrite flows/grocer-compare.wf: 2 subject(s) pinned");
    const pinned = wfkit(cwd, ["pin", "flows/grocer-compare.wf"]);
    expect(pinned.status).toBe(1);
    expect(pinned.stdout).toBe(
      ['pinned tesco: "TSCO" → cmp_tesco', 'pinned sainsbury: "Sainsbury" → cmp_sbry', 'unresolved mystery: "No Such Grocer": not_found: no company matches', "rewrote flows/grocer-compare.wf: 2 subject(s) pinned", ""].join("\n"),
    );
    const text = readFileSync(path.join(cwd, "flows/grocer-compare.wf"), "utf8");
    expect(text).toContain('subject tesco = company "cmp_tesco" "Tesco PLC" # the ticker, for now\n');
    expect(text).toContain('subject sainsbury = company "cmp_sbry" "J Sainsbury plc"\n');
    expect(text).toContain("# Results below the quality floor wait here until the run is delivered.");
    // Pinned again: nothing left to change.
    writeFileSync(path.join(cwd, "flows/grocer-compare.wf"), text.replace('subject mystery = company "No Such Grocer"\n', ""));
    const again = wfkit(cwd, ["pin", "flows/grocer-compare.wf"]);
    expect([again.status, again.stdout]).toEqual([0, "flows/grocer-compare.wf: every resolved subject was already pinned\n"]);
  });

  it("check --remote reports where the service's verdict differs (a stale catalogue)", () => {
    const cwd = project();
    const catalogue = JSON.parse(wfkit(cwd, ["catalogue", "pull"]).stdout);
    for (const part of catalogue.parts) part.cost.baseMinorUnits += 1;
    writeFileSync(path.join(cwd, "old.json"), JSON.stringify(catalogue));
    const checked = wfkit(cwd, ["check", "flows", "--remote", "--catalogue", "old.json"]);
    expect(checked.status).toBe(1);
    expect(checked.stderr).toMatch(/flows\/grocer-compare\.wf: remote: the estimate differs: wfkit \d+, the service \d+ minor units/);
  });
});

describe("every refusal through the CLI: what happened, what to do, the exit code", () => {
  it("a definition the service refuses (400 validation): nothing is created", () => {
    const cwd = project();
    // A local catalogue that offers a part the service does not: the local check passes.
    const catalogue = JSON.parse(wfkit(cwd, ["catalogue", "pull"]).stdout);
    catalogue.parts.push({ ...catalogue.parts.find((part: { partId: string }) => part.partId === "pack"), partId: "pack.future" });
    writeFileSync(path.join(cwd, "local.json"), JSON.stringify(catalogue));
    writeFileSync(path.join(cwd, "flows/grocer-compare.wf"), GROCERS.replace("part report = pack@1", "part report = pack.future@1"));
    expect(wfkit(cwd, ["check", "flows", "--catalogue", "local.json"]).status).toBe(0);
    const result = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--catalogue", "local.json", "--publish"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("the service refused the definition (400 validation_failed): 1 error(s): part-unknown at node report.");
    expect(result.stdout).toBe("");
    expect(() => readFileSync(path.join(cwd, ".wfkit", "state.json"))).toThrow();
  });

  it("read-only key used to run: insufficient_scope", () => {
    const cwd = deployed();
    const result = wfkit(cwd, ["run", "grocer-compare"], { WFKIT_TOKEN: read });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("refused (403 insufficient_scope): this needs the write:workflows scope and the key is read-only. Use a write key");
  });

  it("unknown credential: UNAUTHENTICATED, and the credential is not in the message", () => {
    const result = wfkit(tempTree(), ["runs", "list"], { WFKIT_TOKEN: "wfk_nobody_0123456789abcdef" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("the credential was refused (401 UNAUTHENTICATED)");
    expect(result.stderr).not.toContain("0123456789abcdef");
  });

  it("no published version: says how to publish", () => {
    const cwd = project();
    expect(wfkit(cwd, ["deploy", "flows/grocer-compare.wf"]).status).toBe(0);
    const result = wfkit(cwd, ["run", "grocer-compare"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("refused (404 no_published_version): grocer-compare has no published version");
    expect(result.stderr).toContain("`wfkit deploy FILE --workflow grocer-compare --publish`");
  });

  it("allowance exhausted: clears only on reset or plan change", async () => {
    const cwd = deployed();
    await admin("/accounts/acct_default", { allowanceMinorUnits: 1 });
    const result = wfkit(cwd, ["run", "grocer-compare", "--format", "json"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("refused (402 research_capacity_unavailable): the usage allowance for this period is exhausted");
    expect(result.stderr).toContain("It clears only when the period resets or the plan changes");
    expect(JSON.parse(result.stdout).error).toMatchObject({ kind: "allowance_exhausted", status: 402, reason: "allowance_exhausted", retryable: false });
  });

  it("usage system down: retried, then explained", async () => {
    const cwd = deployed();
    await admin("/faults", { usage: "platform_unavailable" });
    const result = wfkit(cwd, ["run", "grocer-compare"], { WFKIT_DEBUG: "1" });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/retry 1 of POST/);
    expect(result.stderr).toContain("the usage system could not be reached (platform_unavailable); wfkit retried and gave up. No run was started");
    expect(result.stderr).not.toContain(write);
    expect(await runsOnService()).toEqual([]);
  });

  it("an outstanding acceptance: GATE_REQUIRED", async () => {
    await admin("/accounts/acct_default", { acceptanceOutstanding: true });
    const result = wfkit(tempTree(), ["runs", "list"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("refused (403 GATE_REQUIRED): an acceptance (such as updated terms) is outstanding");
  });

  it("a region without Workflows: workflows_unavailable", async () => {
    await admin("/accounts/acct_default", { region: "ap" });
    const result = wfkit(tempTree(), ["templates", "list"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("refused (503 workflows_unavailable): Workflows is not available in the account's region (ap)");
  });

  it("a plan without API access: plan_required names the feature", async () => {
    await admin("/accounts/acct_default", { plan: "browser" });
    const result = wfkit(tempTree(), ["catalogue", "pull"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("refused (402 plan_required): the account's plan lacks the `workflows_api` feature");
  });

  it("no base URL, no credential, or no service: exit 2 with what to set", () => {
    const cwd = tempTree();
    const noUrl = runCli(["runs", "list"], { cwd, env: { WFKIT_TOKEN: write } });
    expect([noUrl.status, noUrl.stderr]).toEqual([2, 'wfkit: no Workflows API address: give --base-url URL, set WFKIT_BASE_URL, or add "baseUrl" to wfkit.config.json\n']);
    const noToken = runCli(["runs", "list"], { cwd, env: { WFKIT_BASE_URL: served.baseUrl } });
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain("no credential: set WFKIT_TOKEN, or give --token-file FILE");
    writeFileSync(path.join(cwd, "token"), `${write}\n`);
    writeFileSync(path.join(cwd, "wfkit.config.json"), JSON.stringify({ baseUrl: served.baseUrl }));
    expect(runCli(["runs", "list", "--token-file", "token"], { cwd }).status).toBe(0);
    const down = runCli(["runs", "list", "--base-url", "http://127.0.0.1:1"], { cwd, env: { WFKIT_TOKEN: write, WFKIT_RETRY_BUDGET_MS: "300" } });
    expect(down.status).toBe(2);
    expect(down.stderr).toMatch(/^wfkit: no answer from http:\/\/127\.0\.0\.1:1 to GET \/api\/v1\/workflows\/runs/);
  });
});

describe("a run start cut off after it was sent", () => {
  /**
   * A loopback proxy in front of the service that forwards the run start and, when the
   * service's answer comes back, kills the CLI with SIGKILL instead of passing it on (once:
   * `onAnswer` says whether to swallow the answer).
   */
  function killingProxy(onAnswer: () => boolean): Promise<{ server: Server; url: string }> {
    const target = new URL(served.baseUrl);
    const server = createServer((client) => {
      const upstream = tcpConnect(Number(target.port), target.hostname);
      let request = "";
      client.on("data", (chunk) => {
        request += chunk.toString("latin1");
        upstream.write(chunk);
      });
      upstream.on("data", (chunk) => {
        if (!(/^POST \S+\/run /.test(request) && onAnswer())) client.write(chunk);
      });
      upstream.on("end", () => client.end());
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
    return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
  }

  it("is re-run with the saved key, and the service has exactly one run", async () => {
    const cwd = deployed();
    // The proxy's address is another base URL to the state file: give the id, not the name.
    const state = JSON.parse(readFileSync(path.join(cwd, ".wfkit", "state.json"), "utf8"));
    const workflowId = state.baseUrls[served.baseUrl].workflows["grocer-compare"] as string;
    let child: ReturnType<typeof spawn> | undefined;
    let cut = false;
    const { server, url } = await killingProxy(() => {
      if (cut) return false;
      cut = true;
      child?.kill("SIGKILL");
      return true;
    });
    try {
      const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", WFKIT_BASE_URL: url, WFKIT_TOKEN: write };
      child = spawn(process.execPath, [bin, "run", workflowId], { cwd, env, stdio: "ignore" });
      const signal = await new Promise((resolve) => child!.once("exit", (_code, signal) => resolve(signal)));
      expect(signal).toBe("SIGKILL");
      expect(await runsOnService()).toHaveLength(1);
      const saved = JSON.parse(readFileSync(path.join(cwd, ".wfkit", "state.json"), "utf8")).baseUrls[url].pendingRuns;
      expect(Object.values(saved)).toHaveLength(1);

      const rerun = await wfkitAsync(cwd, ["run", workflowId], { WFKIT_BASE_URL: url });
      expect(rerun.status, rerun.stderr).toBe(0);
      expect(rerun.stderr).toContain(`reusing Idempotency-Key ${Object.values(saved)[0] as string} from an earlier attempt`);
      expect(rerun.stdout).toContain("already started by an earlier attempt with this key; not started again");
      const runs = await runsOnService();
      expect(runs).toHaveLength(1);
      expect(rerun.stdout).toContain(runs[0]);
      // The answer is recorded: the next run is a new one.
      expect((await wfkitAsync(cwd, ["run", workflowId], { WFKIT_BASE_URL: url })).status).toBe(0);
      expect(await runsOnService()).toHaveLength(2);
    } finally {
      server.close();
    }
  });
});
