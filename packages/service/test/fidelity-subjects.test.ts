/**
 * "Terminal parts run against canonical subjects (pinned companies), not names." Over HTTP
 * against wfkit serve: a terminal part whose subject the service does not hold fails, naming
 * the subject and why; the run ends failed and is charged only for the parts that produced a
 * result ("each run reserves the validated estimate"; what a failed run draws is not shown, so
 * only results are charged). The checker warns about such a subject before anything is saved.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { compile } from "@wfkit/dsl";
import { defaultCatalogue, validateDefinition, type Catalogue } from "@wfkit/core";
import { example, repoRoot } from "./helpers.js";
import { fidelityServer, type FidelityServer } from "./fidelity-server.js";

const V1 = "/api/v1/workflows";
let api: FidelityServer | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

/** grocer-compare (or another example) with its terminal parts' subject `from` replaced by `to`. */
function withSubject(name: string, from: string, to: Record<string, unknown>): Record<string, unknown> {
  const definition = example(name);
  for (const node of definition.nodes as { terminal?: { subjectRefs: Record<string, unknown>[] } }[])
    if (node.terminal) node.terminal.subjectRefs = node.terminal.subjectRefs.map((ref) => (ref.canonicalId === from ? to : ref));
  return definition;
}

const NO_SUCH = { canonicalId: "cmp_does_not_exist", kind: "company", label: "No Such Grocer" };

/** Saves, publishes and runs `definition`; returns the finished run and the account after it. */
async function runToEnd(server: FidelityServer, definition: unknown) {
  const workflow = (await server.http("POST", V1, { body: { name: "fidelity" } })).body.workflow.id as string;
  const saved = await server.http("POST", `${V1}/${workflow}/versions`, { body: { scope: { graph: definition } } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  await server.http("POST", `${V1}/${workflow}/versions/${saved.body.version.id}/publish`);
  const started = await server.http("POST", `${V1}/${workflow}/run`, { headers: { "Idempotency-Key": `k-${workflow}` }, body: {} });
  expect(started.status).toBe(200);
  // A manual clock fires a step's timer on the next advance after it is set: one advance a step.
  let run: any;
  for (let step = 0; step < 20; step++) {
    await server.advance(1_000);
    run = (await server.http("GET", `${V1}/${workflow}/runs/${started.body.runId}`, { credential: server.keys.read })).body;
    if (["succeeded", "failed", "cancelled", "held"].includes(run.state)) break;
  }
  const account = (await server.admin("GET", "/state")).body.accounts[0];
  return { run, started: started.body, account, estimate: saved.body.version.estimate as { costMinorUnits: number; parts: { nodeId: string; costMinorUnits: number }[] } };
}

describe("a terminal part against a company the service does not hold", () => {
  it("is a warning at check and validate-definition (check --remote), and still saves", async () => {
    api = await fidelityServer();
    const definition = withSubject("grocer-compare", "cmp_sbry", NO_SUCH);
    const local = validateDefinition(definition);
    expect(local.ok).toBe(true);
    expect(local.faults.map((fault) => [fault.code, fault.severity, fault.pointer])).toEqual([["subject-unknown", "warning", "/nodes/1/terminal/subjectRefs/1/canonicalId"]]);
    const remote = await api.http("POST", `${V1}/catalogue/validate-definition`, { credential: api.keys.read, body: { definition } });
    expect(remote.status).toBe(200);
    expect(remote.body.warnings).toEqual(local.faults);
  });

  it("fails the part, naming the subject and why, ends the run failed and charges nothing for it", async () => {
    api = await fidelityServer();
    const { run, started, account, estimate } = await runToEnd(api, withSubject("grocer-compare", "cmp_sbry", NO_SUCH));
    expect(started.estimate.costMinorUnits).toBe(estimate.costMinorUnits);
    expect(run.state).toBe("failed");
    const compare = run.nodes.find((node: { nodeId: string }) => node.nodeId === "compare");
    expect(compare.state).toBe("failed");
    expect(compare.failure.code).toBe("subject_not_found");
    expect(compare.failure.message).toContain("subject 2, `cmp_does_not_exist`, is not a company this service holds");
    expect(compare.failure.message).toContain("The part drew nothing from the allowance.");
    expect(compare.output).toEqual({ unrunnableSubjects: [{ index: 1, canonicalId: "cmp_does_not_exist", reason: "not_found" }] });
    expect(run.childRuns.find((child: { nodeId: string }) => child.nodeId === "compare")).toMatchObject({ state: "failed", failure: compare.failure });
    expect(run.nodes.filter((node: { state: string }) => node.state === "cancelled").map((node: { nodeId: string }) => node.nodeId)).toEqual(["report", "floor", "inbox"]);
    expect(run.usage).toEqual({ reservedMinorUnits: estimate.costMinorUnits, drawnMinorUnits: 0, releasedMinorUnits: estimate.costMinorUnits });
    expect(account.usedMinorUnits).toBe(0);
  });

  it("charges the parts that produced a result before it, and releases the rest", async () => {
    api = await fidelityServer();
    const { run, account, estimate } = await runToEnd(api, withSubject("fan-out-fan-in", "cmp_ocdo", NO_SUCH));
    const cost = (nodeId: string) => estimate.parts.find((part) => part.nodeId === nodeId)!.costMinorUnits;
    expect(run.state).toBe("failed");
    expect(run.nodes.map((node: { nodeId: string; state: string }) => `${node.nodeId} ${node.state}`)).toEqual([
      "start succeeded",
      "profile_tesco succeeded",
      "profile_sainsbury succeeded",
      "compare_all failed",
      "report cancelled",
      "floor cancelled",
      "inbox cancelled",
    ]);
    const drawn = cost("profile_tesco") + cost("profile_sainsbury");
    expect(run.usage).toEqual({ reservedMinorUnits: estimate.costMinorUnits, drawnMinorUnits: drawn, releasedMinorUnits: estimate.costMinorUnits - drawn });
    expect(account.usedMinorUnits).toBe(drawn);
  });

  it("in .wf, `company \"No Such Grocer\"` is the same: a warning at check, a failed part naming it", async () => {
    api = await fidelityServer();
    const text = readFileSync(`${repoRoot}examples/grocer-compare.wf`, "utf8").replace('company "cmp_sbry" "J Sainsbury plc"', 'company "No Such Grocer"');
    const compiled = compile(text);
    expect(compiled.faults).toEqual([]);
    expect(validateDefinition(compiled.definition).faults.map((fault) => [fault.code, fault.severity])).toEqual([["subject-unknown", "warning"]]);
    const { run } = await runToEnd(api, compiled.definition);
    const compare = run.nodes.find((node: { nodeId: string }) => node.nodeId === "compare");
    expect([run.state, compare.state, compare.failure.code]).toEqual(["failed", "failed", "subject_not_found"]);
    expect(compare.failure.message).toContain("`No Such Grocer`");
  });

  it("a company held but unlisted has no equity to run against: the part fails with that reason", async () => {
    const catalogue: Catalogue = { ...defaultCatalogue, subjects: [...defaultCatalogue.subjects!, { canonicalId: "cmp_private", kind: "company", label: "Private Grocer Ltd", identifiers: [] }] };
    api = await fidelityServer({ catalogue });
    const { run } = await runToEnd(api, withSubject("grocer-compare", "cmp_sbry", { canonicalId: "cmp_private", kind: "company", label: "Private Grocer Ltd" }));
    const compare = run.nodes.find((node: { nodeId: string }) => node.nodeId === "compare");
    expect([run.state, compare.failure.code]).toEqual(["failed", "subject_unlisted"]);
    expect(compare.failure.message).toContain("`cmp_private`, is held but has no listed equity to run against (unlisted)");
    expect(run.usage.drawnMinorUnits).toBe(0);
  });

  it("a run whose subjects the service holds still succeeds and draws its estimate", async () => {
    api = await fidelityServer();
    const { run, estimate, account } = await runToEnd(api, example("fan-out-fan-in"));
    expect(run.state).toBe("succeeded");
    expect(run.usage.drawnMinorUnits).toBe(estimate.costMinorUnits);
    expect(account.usedMinorUnits).toBe(estimate.costMinorUnits);
  });

  it("wins over the mock file: a mocked value for the part does not make it run", async () => {
    api = await fidelityServer({ mocks: { cases: { default: { parts: { "terminal.compare": { "1": { value: { "terminal.result": { score: 1 } } } } } } } } });
    const { run } = await runToEnd(api, withSubject("grocer-compare", "cmp_sbry", NO_SUCH));
    expect(run.state).toBe("failed");
  });
});
