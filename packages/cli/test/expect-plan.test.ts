/**
 * What users of terraform, gh and the Stripe CLI expect of the remote commands, through the
 * BUILT CLI against `wfkit serve` (also the built CLI) on loopback:
 *
 * - `deploy --dry-run` shows what differs from the version this project last deployed (nodes
 *   and edges added, removed and changed; the estimate before and after); an unchanged file
 *   says "No changes" and `deploy` saves no new version unless --force; `.wfkit/state.json`
 *   is 0600;
 * - `runs list` names the workflows this project deployed;
 * - `alerts list` lists the alerts the alert token owns.
 *
 * And deploy-plan.ts's comparison, in-process.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, type Served } from "../../../test/support/serve-process.js";
import { changeCount, planChanges, renderChanges } from "../src/deploy-plan.js";
import { ensureBuilt, fixtures, repoRoot, runCli } from "../../../test/support/built-cli.js";
import { tempTree } from "../../../test/support/temp-tree.js";

const GROCERS = readFileSync(path.join(repoRoot, "examples", "grocer-compare.wf"), "utf8");
/** grocer-compare with the gate gone, a part added, an edge rewired and a subject's label changed. */
const CHANGED = `# Compare two grocers side by side.
workflow "grocer-compare"

subject tesco = company "cmp_tesco" "Tesco PLC"
subject sainsbury = company "cmp_sbry" "Sainsbury"

trigger start on_demand
part compare = terminal.compare@1 { job compare.peers@1 subjects [tesco, sainsbury] }
part report = pack@1
part extra = pack@1
destination inbox standalone

start -> compare -> report -> inbox
compare -> extra -> inbox
`;

let served: Served;

beforeAll(async () => {
  ensureBuilt();
  served = await serve([]);
});
afterAll(async () => {
  await served?.stop();
});

function wfkit(cwd: string, args: string[], env: Record<string, string> = {}) {
  return runCli(args, { cwd, env: { WFKIT_BASE_URL: served.baseUrl, WFKIT_TOKEN: served.keys.write!, WFKIT_RETRY_BUDGET_MS: "1500", ...env } });
}

const stateOf = (cwd: string) => JSON.parse(readFileSync(path.join(cwd, ".wfkit", "state.json"), "utf8")).baseUrls[served.baseUrl];
/** The deploy plan's text without the deploy time, which changes from run to run. */
const timeless = (text: string) => text.replace(/at \d{4}-\d\d-\d\dT[\d:.]+Z/g, "at TIME").replace(/ver_[0-9a-f]+/g, "ver_ID").replace(/wf_[0-9a-f]+/g, "wf_ID");

describe("deploy: a plan that knows what changed", () => {
  it("first plan lists everything new; deploy records it; unchanged says No changes and saves nothing; a change is listed +/-/~ with the estimate before and after", () => {
    const cwd = tempTree({ "flows/grocer-compare.wf": GROCERS });
    const first = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--dry-run"]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(
      [
        "Plan (dry run, nothing changed):",
        "  1. create workflow grocer-compare, then save its first version",
        "  2. leave it unpublished (add --publish to publish it)",
        "Changes: all of it is new:",
        "  + trigger start (on_demand)",
        "  + part compare (terminal.compare@1)",
        "  + part report (pack@1)",
        "  + gate floor (hold)",
        "  + destination inbox (standalone)",
        "  + edge start -> compare",
        "  + edge compare -> report",
        "  + edge report -> floor",
        "  + edge floor -> inbox",
        "  + schemaVersion: 1 (new)",
        "  10 to add, 0 to change, 0 to remove",
        "Estimate: 220 minor units per run (the service's figure; a run reserves it)",
        "",
      ].join("\n"),
    );

    const deployed = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--publish"]);
    expect(deployed.status, deployed.stderr).toBe(0);
    const versionId = /Saved version (ver_[0-9a-f]+)/.exec(deployed.stdout)![1]!;
    const workflowId = stateOf(cwd).workflows["grocer-compare"] as string;
    expect(stateOf(cwd).deployed[workflowId]).toMatchObject({ versionId, published: true, estimate: { costMinorUnits: 220 }, hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(statSync(path.join(cwd, ".wfkit", "state.json")).mode & 0o777).toBe(0o600);

    const same = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--dry-run"]);
    expect(same.status, same.stderr).toBe(0);
    expect(timeless(same.stdout)).toBe(
      [
        "No changes: flows/grocer-compare.wf is what version ver_ID (deployed from this project at TIME) holds.",
        "Plan (dry run, nothing changed):",
        "  nothing to do (--force saves a new version anyway)",
        "Estimate: 220 minor units per run (the service's figure; a run reserves it); unchanged",
        "",
      ].join("\n"),
    );
    // Comments and layout are not the definition: reformatting changes nothing to deploy.
    writeFileSync(path.join(cwd, "flows/grocer-compare.wf"), GROCERS.replace("# Results below", "#  Results,  below").replace("start -> compare -> report -> floor -> inbox", "start -> compare\ncompare -> report -> floor -> inbox"));
    const unchanged = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--format", "json"]);
    expect(unchanged.status, unchanged.stderr).toBe(0);
    expect(JSON.parse(unchanged.stdout)).toMatchObject({ ok: true, unchanged: true, version: { id: versionId }, published: true });
    expect(stateOf(cwd).deployed[workflowId].versionId).toBe(versionId);

    writeFileSync(path.join(cwd, "flows/grocer-compare.wf"), CHANGED);
    const plan = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--dry-run"]);
    expect(plan.status, plan.stderr).toBe(0);
    expect(timeless(plan.stdout)).toBe(
      [
        "Plan (dry run, nothing changed):",
        "  1. save a new version of workflow grocer-compare (wf_ID)",
        "  2. leave it unpublished (add --publish to publish it)",
        "Changes since version ver_ID (deployed from this project at TIME):",
        "  + part extra (pack@1)",
        "  - gate floor (hold)",
        '  ~ part compare (terminal.compare@1): terminal.subjectRefs[1].label: "J Sainsbury plc" → "Sainsbury"',
        "  + edge report -> inbox",
        "  + edge compare -> extra",
        "  + edge extra -> inbox",
        "  - edge report -> floor",
        "  - edge floor -> inbox",
        "  4 to add, 1 to change, 3 to remove",
        "Estimate: 220 → 240 minor units per run (+20; the service's figures; a run reserves it)",
        "",
      ].join("\n"),
    );
    const json = JSON.parse(wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--dry-run", "--format", "json"]).stdout);
    expect(json).toMatchObject({ dryRun: true, changed: true, previous: { versionId, published: true, estimate: { costMinorUnits: 220 } }, estimate: { costMinorUnits: 240 } });
    expect(json.changes.counts).toEqual({ add: 4, change: 1, remove: 3 });
    expect(json.changes.nodes.removed).toEqual([{ id: "floor", kind: "gate", detail: "hold" }]);

    const saved = wfkit(cwd, ["deploy", "flows/grocer-compare.wf"]);
    expect(saved.status, saved.stderr).toBe(0);
    expect(timeless(saved.stdout)).toContain("Changes since version ver_ID (deployed from this project at TIME): 4 to add, 1 to change, 3 to remove (--dry-run lists them)\nSaved version ver_ID");
    const second = stateOf(cwd).deployed[workflowId];
    expect(second.versionId).not.toBe(versionId);
    expect(second.published).toBe(false);

    // Unchanged but not published by this project: --publish publishes the recorded version, saving none.
    const publish = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--publish"]);
    expect(publish.status, publish.stderr).toBe(0);
    expect(publish.stdout).toContain(`no new version saved (--force saves one anyway)\nPublished version ${second.versionId}`);
    expect(stateOf(cwd).deployed[workflowId]).toMatchObject({ versionId: second.versionId, published: true });

    const forced = wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--force"]);
    expect(forced.status, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/; saving a new version anyway \(--force\)\nSaved version ver_/);
    expect(stateOf(cwd).deployed[workflowId].versionId).not.toBe(second.versionId);
  });

  it("a state file made wider than 0600 is narrowed when written again", () => {
    const cwd = tempTree({ "flows/grocer-compare.wf": GROCERS, ".wfkit/state.json": '{"version": 1, "baseUrls": {}}\n' });
    chmodSync(path.join(cwd, ".wfkit", "state.json"), 0o644);
    expect(wfkit(cwd, ["deploy", "flows/grocer-compare.wf"]).status).toBe(0);
    expect(statSync(path.join(cwd, ".wfkit", "state.json")).mode & 0o777).toBe(0o600);
  });
});

describe("runs list and alerts list", () => {
  it("runs list shows a workflow this project deployed by its name, others by id", () => {
    const cwd = tempTree({ "flows/grocer-compare.wf": GROCERS });
    expect(wfkit(cwd, ["deploy", "flows/grocer-compare.wf", "--publish"]).status).toBe(0);
    const started = wfkit(cwd, ["run", "grocer-compare", "--question", "named?"]);
    expect(started.status, started.stderr).toBe(0);
    const listed = wfkit(cwd, ["runs", "list"]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^run_[0-9a-f]+ +grocer-compare +\S+ +\S+ +named\?$/m);
    // Elsewhere (no state file), the same run shows its workflow's id.
    const elsewhere = wfkit(tempTree(), ["runs", "list"]);
    expect(elsewhere.stdout).toMatch(/^run_[0-9a-f]+ +wf_[0-9a-f]+ +\S+ +\S+ +named\?$/m);
  });

  it("alerts list: none, then the alert created, as text and as JSON", () => {
    const cwd = tempTree();
    const env = { WFKIT_SIGNALS_URL: served.signalsBaseUrl, WFKIT_ALERT_TOKEN: served.keys.alertToken! };
    const before = wfkit(cwd, ["alerts", "list"], env);
    expect(before.status, before.stderr).toBe(0);
    const existing = before.stdout.startsWith("no alerts") ? 0 : Number(/(\d+) alert\(s\)\n$/.exec(before.stdout)?.[1]);
    const created = wfkit(cwd, ["alerts", "create", path.join(fixtures, "signals", "cpix-above-60.alert.json")], env);
    expect(created.status, created.stderr).toBe(0);
    const id = /Created alert (\S+)/.exec(created.stdout)![1]!;
    const after = wfkit(cwd, ["alerts", "list"], env);
    expect(after.status, after.stderr).toBe(0);
    expect(after.stdout).toMatch(new RegExp(`^${id} +active +\\S+ \\S+`, "m"));
    expect(after.stdout).toContain(`${existing + 1} alert(s)\n`);
    const json = JSON.parse(wfkit(cwd, ["alerts", "list", "--json"], env).stdout);
    expect(json.alerts.map((alert: { id: string }) => alert.id)).toContain(id);
    const refused = wfkit(cwd, ["alerts", "list"], { ...env, WFKIT_ALERT_TOKEN: "not-a-token" });
    expect(refused.status).toBe(1);
    expect(refused.stderr).not.toContain("not-a-token");
    expect(wfkit(cwd, ["alerts", "list", "extra"], env).status).toBe(2);
  });
});

describe("deploy-plan.ts", () => {
  const graph = (nodes: unknown[], edges: unknown[]) => ({ schemaVersion: 1, nodes, edges });
  const start = { id: "start", kind: "trigger", trigger: { kind: "on_demand" } };
  const inbox = { id: "inbox", kind: "destination", destination: { kind: "standalone" } };

  it("tells repeated edges apart and reports an edge's own fields", () => {
    const before = graph([start, inbox], [{ from: "start", to: "inbox" }, { from: "start", to: "inbox" }]);
    const after = graph([start, inbox], [{ from: "start", to: "inbox", note: "x" }]);
    const changes = planChanges(before, after);
    expect(changes.edges).toEqual({ added: [], removed: [{ from: "start", to: "inbox" }], changed: [{ from: "start", to: "inbox", fields: [{ path: "note", after: "x" }] }] });
    expect(changeCount(changes)).toEqual({ add: 0, change: 1, remove: 1 });
  });

  it("compares version-save bodies outside the graph too, and a body that changed form", () => {
    const body = (schedule: string) => ({ scope: { graph: graph([start, inbox], [{ from: "start", to: "inbox" }]) }, trigger: { kind: "scheduled", schedule } });
    expect(renderChanges(planChanges(body("0 7 * * 1"), body("0 8 * * 1")))).toEqual(['  ~ trigger.schedule: "0 7 * * 1" → "0 8 * * 1"', "  0 to add, 1 to change, 0 to remove"]);
    const plain = graph([start, inbox], [{ from: "start", to: "inbox" }]);
    expect(changeCount(planChanges(plain, body("0 7 * * 1")))).toEqual({ add: 2, change: 0, remove: 1 });
  });

  it("shows text from the file through printable, and cuts long values", () => {
    const before = graph([{ id: "a\u001b[31m", partId: "pack", partVersion: "1" }], []);
    const after = graph([{ id: "a\u001b[31m", partId: "pack", partVersion: "1", note: "x".repeat(200) }], []);
    const [line] = renderChanges(planChanges(before, after));
    expect(line).not.toContain("\u001b");
    expect(line).toContain("\\u001b");
    expect(line!.length).toBeLessThan(140);
  });
});
