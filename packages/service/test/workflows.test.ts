/** Catalogue, validation, workflows, versions, runs and their rules, in-process. */
import { describe, expect, it } from "vitest";
import { defaultCatalogue, validateDefinition, type Catalogue } from "@wfkit/core";
import { harness, example } from "./helpers.js";
import { loadMocks, TEMPLATES } from "../src/index.js";

const V1 = "/api/v1/workflows";
/** Three faults on two nodes: an unknown part, a terminal part without subjects, a dangling edge. */
const BROKEN = {
  schemaVersion: 1,
  nodes: [
    { id: "start", kind: "trigger", trigger: { kind: "on_demand" } },
    { id: "mystery", partId: "terminal.mystery", partVersion: "1" },
    { id: "profile", partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [] } },
  ],
  edges: [{ from: "start", to: "mystery" }, { from: "start", to: "profile" }, { from: "profile", to: "nowhere" }],
};

describe("catalogue", () => {
  it("lists every part, or only the unattended-safe ones with unattendedSafe=1", async () => {
    const { call, keys } = await harness();
    const all = await call("GET", `${V1}/catalogue/parts`, { credential: keys.read });
    expect(all.body.parts.map((p: { partId: string }) => p.partId)).toEqual(defaultCatalogue.parts.map((p) => p.partId));
    const safe = await call("GET", `${V1}/catalogue/parts?unattendedSafe=1`, { credential: keys.read });
    expect(safe.body.parts.map((p: { partId: string }) => p.partId)).toEqual(["terminal.profile", "terminal.compare", "terminal.screen", "pack"]);
    for (const part of safe.body.parts) expect(part).toHaveProperty("requires");
    expect((await call("GET", `${V1}/catalogue/parts?unattendedSafe=yes`, { credential: keys.read })).status).toBe(400);
  });

  it("resolves all hints in one call: subjects, ambiguous with candidates, unlisted, not found", async () => {
    const catalogue: Catalogue = {
      ...defaultCatalogue,
      subjects: [...defaultCatalogue.subjects!, { canonicalId: "cmp_private", kind: "company", label: "Private Grocer Ltd", identifiers: [] }],
    };
    const { call, keys } = await harness({ catalogue });
    const reply = await call("POST", `${V1}/catalogue/resolve-subjects`, { credential: keys.read, body: { hints: ["TSCO", "Sainsbury", "plc", "Private Grocer", "Acme Widgets"] } });
    expect(reply.status).toBe(200);
    expect(reply.body.subjects.map((s: { canonicalId: string }) => s.canonicalId)).toEqual(["cmp_tesco", "cmp_sbry"]);
    expect(reply.body.subjects[0]).toMatchObject({ kind: "company", label: "Tesco PLC" });
    const [ambiguous, unlisted, notFound] = reply.body.unresolved;
    expect(ambiguous).toMatchObject({ hint: "plc", reason: "ambiguous" });
    expect(ambiguous.candidates).toEqual([
      { canonicalId: "cmp_tesco", label: "Tesco PLC", ticker: "TSCO.L" },
      { canonicalId: "cmp_sbry", label: "J Sainsbury plc", ticker: "SBRY.L" },
      { canonicalId: "cmp_ocdo", label: "Ocado Group plc", ticker: "OCDO.L" },
    ]);
    expect(unlisted).toEqual({ hint: "Private Grocer", reason: "unlisted" });
    expect(notFound).toEqual({ hint: "Acme Widgets", reason: "not_found" });
  });

  it("answers lookup_failed for every hint while the resolver is down, resolving nothing", async () => {
    const { call, admin, keys } = await harness();
    await admin("/faults", { resolver: "down" });
    const reply = await call("POST", `${V1}/catalogue/resolve-subjects`, { credential: keys.read, body: { hints: ["TSCO", "WMT"] } });
    expect(reply.body).toEqual({ subjects: [], unresolved: [{ hint: "TSCO", reason: "lookup_failed" }, { hint: "WMT", reason: "lookup_failed" }] });
    await admin("/faults", { resolver: "up" });
    expect((await call("POST", `${V1}/catalogue/resolve-subjects`, { credential: keys.read, body: { hints: ["TSCO", "WMT"] } })).body.subjects).toHaveLength(2);
  });

  it("refuses bad hint lists with a 400 naming the place", async () => {
    const { call } = await harness();
    for (const body of [{}, { hints: [] }, { hints: "TSCO" }, { hints: ["ok", 3] }, { hints: ["x"], extra: 1 }]) {
      const reply = await call("POST", `${V1}/catalogue/resolve-subjects`, { body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error).toBe("invalid_request");
    }
  });
});

describe("validate-definition", () => {
  it("gives the checker's verdict: ok with the definition and estimate, or 400 with every fault naming its node", async () => {
    const { call, keys } = await harness();
    const definition = example("grocer-compare");
    const ok = await call("POST", `${V1}/catalogue/validate-definition`, { credential: keys.read, body: { definition } });
    expect(ok.status).toBe(200);
    const verdict = validateDefinition(definition);
    expect(ok.body).toMatchObject({ ok: true, definition, estimate: verdict.estimate });
    const broken = BROKEN;
    const bad = await call("POST", `${V1}/catalogue/validate-definition`, { credential: keys.read, body: { definition: broken } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("validation_failed");
    expect(bad.body.faults).toEqual(validateDefinition(broken).faults);
    expect(bad.body.faults.length).toBeGreaterThan(1);
    for (const fault of bad.body.faults) expect(fault).toHaveProperty("nodeId");
  });
});

describe("templates", () => {
  it("serves the valid examples, each of which validates", async () => {
    const { call, keys } = await harness();
    const reply = await call("GET", `${V1}/templates`, { credential: keys.read });
    expect(reply.body.map((t: { id: string }) => t.id)).toContain("grocer-compare");
    expect(reply.body).toEqual(TEMPLATES);
    for (const template of reply.body) expect(validateDefinition(template.definition).faults).toEqual([]);
    expect(reply.body.find((t: { id: string }) => t.id === "grocer-compare").definition).toEqual(example("grocer-compare"));
  });
});

describe("workflows and versions", () => {
  it("creates a workflow (201 {workflow: {id}}), saves a valid version, refuses an invalid one with the same faults", async () => {
    const { call } = await harness();
    const created = await call("POST", V1, { body: { name: "grocers" } });
    expect(created.status).toBe(201);
    const wf = created.body.workflow.id as string;
    const body = example("version-body");
    const saved = await call("POST", `${V1}/${wf}/versions`, { body });
    expect(saved.status).toBe(201);
    expect(saved.body.version).toMatchObject({ published: false, estimate: validateDefinition(body).estimate });
    const broken = { scope: { graph: BROKEN } };
    const refused = await call("POST", `${V1}/${wf}/versions`, { body: broken });
    expect(refused.status).toBe(400);
    expect(refused.body.faults).toEqual(validateDefinition(broken).faults);
    expect((await call("POST", `${V1}/${wf}/versions`, { body: example("grocer-compare") })).body.pointer).toBe("/scope");
  });

  it("keeps a version inert until published: 404 no_published_version, then a run starts", async () => {
    const { call } = await harness();
    const wf = (await call("POST", V1, { body: { name: "x" } })).body.workflow.id as string;
    const version = (await call("POST", `${V1}/${wf}/versions`, { body: { scope: { graph: example("company-profile") } } })).body.version.id as string;
    const refused = await call("POST", `${V1}/${wf}/run`, { body: {} });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe("no_published_version");
    const publish = await call("POST", `${V1}/${wf}/versions/${version}/publish`);
    expect(publish.body).toMatchObject({ ok: true, workflow: { id: wf, publishedVersionId: version }, version: { id: version, published: true } });
    expect((await call("POST", `${V1}/${wf}/versions/ver_nope/publish`)).body.error).toBe("version_not_found");
    expect((await call("POST", `${V1}/${wf}/run`, { body: {} })).status).toBe(200);
  });

  it("refuses bad workflow bodies", async () => {
    const { call } = await harness();
    for (const body of [{}, { name: "" }, { name: 3 }, { name: "x".repeat(201) }, { name: "x", owner: "y" }]) expect((await call("POST", V1, { body })).status, JSON.stringify(body)).toBe(400);
  });
});

describe("runs", () => {
  it("starts a run with {ok, runId, host, estimate} and reserves the validated estimate", async () => {
    const { call, published, service } = await harness();
    const wf = await published();
    const estimate = validateDefinition(example("grocer-compare")).estimate.costMinorUnits;
    const reply = await call("POST", `${V1}/${wf}/run`, { body: { question: "How do margins compare?" } });
    expect(reply.body).toEqual({ ok: true, runId: expect.stringMatching(/^run_/), host: "workflow_run", estimate: { costMinorUnits: estimate } });
    expect(service.account("acct_default")!.usedMinorUnits).toBe(estimate);
  });

  it("limits question to 1000 characters and to a string", async () => {
    const { call, published } = await harness();
    const wf = await published();
    expect((await call("POST", `${V1}/${wf}/run`, { body: { question: "q".repeat(1000) } })).status).toBe(200);
    expect((await call("POST", `${V1}/${wf}/run`, { body: { question: "q".repeat(1001) } })).body.pointer).toBe("/question");
    expect((await call("POST", `${V1}/${wf}/run`, { body: { question: 5 } })).status).toBe(400);
  });

  it("replays an Idempotency-Key's original response without a second run or charge; refuses the key with another body", async () => {
    const { call, published, service } = await harness();
    const wf = await published();
    const headers = { "Idempotency-Key": "retry-1" };
    const first = await call("POST", `${V1}/${wf}/run`, { body: { question: "a" }, headers });
    const again = await call("POST", `${V1}/${wf}/run`, { body: { question: "a" }, headers });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    const used = service.account("acct_default")!.usedMinorUnits;
    expect(used).toBe(first.body.estimate.costMinorUnits);
    const other = await call("POST", `${V1}/${wf}/run`, { body: { question: "b" }, headers });
    expect(other.status).toBe(422);
    expect(other.body.error).toBe("idempotency_key_reused");
    // Without a key, a retry is a second run.
    await call("POST", `${V1}/${wf}/run`, { body: { question: "a" } });
    await call("POST", `${V1}/${wf}/run`, { body: { question: "a" } });
    expect(service.store.get("SELECT count(*) AS n FROM runs")!.n).toBe(3);
  });

  it("scopes idempotency keys to the caller and forgets them after 24 hours", async () => {
    const seed = {
      accounts: [{ id: "a", plan: "professional" as const }],
      users: [{ id: "u1", account: "a" }, { id: "u2", account: "a" }],
      apiKeys: [
        { id: "one", user: "u1", scopes: ["write:workflows" as const], role: "write" as const, secret: "onesecret0123456789" },
        { id: "two", user: "u2", scopes: ["write:workflows" as const], role: "read" as const, secret: "twosecret0123456789" },
      ],
    };
    const { call, published, admin, service } = await harness({ seed });
    const one = "wfk_one_onesecret0123456789";
    const two = "wfk_two_twosecret0123456789";
    const wf1 = await published(undefined, one);
    const wf2 = await published(undefined, two);
    const headers = { "Idempotency-Key": "same" };
    const a = await call("POST", `${V1}/${wf1}/run`, { credential: one, headers, body: {} });
    const b = await call("POST", `${V1}/${wf2}/run`, { credential: two, headers, body: {} });
    expect(a.body.runId).not.toBe(b.body.runId);
    await admin("/clock/advance", { ms: 24 * 60 * 60 * 1000 });
    const later = await call("POST", `${V1}/${wf1}/run`, { credential: one, headers, body: {} });
    expect(later.body.runId).not.toBe(a.body.runId);
    expect(service.store.get("SELECT count(*) AS n FROM runs")!.n).toBe(3);
  });

  it("answers 402 research_capacity_unavailable when the allowance cannot be reserved, and starts no run", async () => {
    const { call, published, admin, service } = await harness();
    const wf = await published();
    const cost = validateDefinition(example("grocer-compare")).estimate.costMinorUnits;
    await admin("/accounts/acct_default", { allowanceMinorUnits: cost * 2 - 1 });
    expect((await call("POST", `${V1}/${wf}/run`, { body: {} })).status).toBe(200);
    const refused = await call("POST", `${V1}/${wf}/run`, { body: {}, headers: { "Idempotency-Key": "k" } });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ error: "research_capacity_unavailable", details: { reason: "allowance_exhausted" } });
    expect(service.store.get("SELECT count(*) AS n FROM runs")!.n).toBe(1);
    // The refusal is not remembered: once the allowance is reset the same key starts the run.
    await admin("/accounts/acct_default", { allowanceMinorUnits: cost * 2 });
    expect((await call("POST", `${V1}/${wf}/run`, { body: {}, headers: { "Idempotency-Key": "k" } })).status).toBe(200);
  });

  it("answers 503 research_capacity_unavailable with details.reason while the usage system is down", async () => {
    const { call, published, admin, service } = await harness();
    const wf = await published();
    for (const reason of ["credit_policy_unconfigured", "platform_unavailable"]) {
      await admin("/faults", { usage: reason });
      const reply = await call("POST", `${V1}/${wf}/run`, { body: {} });
      expect(reply.status).toBe(503);
      expect(reply.body).toMatchObject({ error: "research_capacity_unavailable", details: { reason } });
    }
    expect(service.store.get("SELECT count(*) AS n FROM runs")!.n).toBe(0);
  });

  it("walks the graph in dependency order to succeeded, drawing each part's cost, with per-node outputs and child runs", async () => {
    const { call, published, clock, service } = await harness();
    const wf = await published(example("fan-out-fan-in"));
    const { runId, estimate } = (await call("POST", `${V1}/${wf}/run`, { body: {} })).body;
    const poll = async () => (await call("GET", `${V1}/${wf}/runs/${runId}`)).body;
    expect((await poll()).state).toBe("queued");
    clock.advance(0);
    expect((await poll()).state).toBe("running");
    for (let step = 0; step < 10 && (await poll()).state === "running"; step++) clock.advance(100);
    const run = await poll();
    expect(run.state).toBe("succeeded");
    expect(run.usage).toEqual({ reservedMinorUnits: estimate.costMinorUnits, drawnMinorUnits: estimate.costMinorUnits, releasedMinorUnits: 0 });
    const order = run.nodes.map((node: { nodeId: string }) => node.nodeId);
    const definition = example("fan-out-fan-in") as { edges: { from: string; to: string }[] };
    for (const edge of definition.edges) expect(order.indexOf(edge.from)).toBeLessThan(order.indexOf(edge.to));
    const parts = run.nodes.filter((node: { kind: string }) => node.kind === "part");
    for (const part of parts) {
      const produces = defaultCatalogue.parts.find((p) => p.partId === part.partId)!.produces;
      expect(Object.keys(part.output)).toEqual(produces);
    }
    expect(run.childRuns.map((child: { nodeId: string }) => child.nodeId)).toEqual(parts.map((p: { nodeId: string }) => p.nodeId));
    expect(service.account("acct_default")!.usedMinorUnits).toBe(estimate.costMinorUnits);
  });

  it("holds a below-floor result at a hold gate until the run is delivered", async () => {
    const mocks = loadMocks({ delayMs: 10, cases: { weak: { parts: { "terminal.compare": { "1": { belowFloor: { "terminal.result": { score: 0.2 } } } } } } } }, "mocks", defaultCatalogue);
    const { call, published, clock } = await harness({ mocks });
    const wf = await published();
    const { runId } = (await call("POST", `${V1}/${wf}/run`, { body: {}, headers: { "Wfkit-Mock-Case": "weak" } })).body;
    for (let i = 0; i < 5; i++) clock.advance(10);
    const held = (await call("GET", `${V1}/${wf}/runs/${runId}`)).body;
    expect(held.state).toBe("held");
    expect(held.nodes.find((n: { nodeId: string }) => n.nodeId === "floor").state).toBe("held");
    expect(held.nodes.find((n: { nodeId: string }) => n.nodeId === "inbox").state).toBe("pending");
    expect((await call("GET", "/api/v1/workflows/runs?state=open")).body.runs.map((r: { runId: string }) => r.runId)).toEqual([runId]);
    const delivered = await call("POST", `${V1}/${wf}/runs/${runId}/deliver`);
    expect(delivered.body.ok).toBe(true);
    expect(delivered.body.run.state).toBe("succeeded");
    const node = (id: string) => delivered.body.run.nodes.find((n: { nodeId: string }) => n.nodeId === id);
    expect(node("compare")).toMatchObject({ output: { "terminal.result": { score: 0.2 } }, belowFloor: true });
    expect(node("report").belowFloor).toBe(true);
    expect(node("floor")).toMatchObject({ state: "passed", delivered: true });
    expect(node("inbox")).toMatchObject({ state: "succeeded", output: { "pack.report": node("report").output["pack.report"] } });
    expect((await call("GET", "/api/v1/workflows/runs?state=terminal")).body.runs.map((r: { runId: string }) => r.runId)).toEqual([runId]);
    expect((await call("POST", `${V1}/${wf}/runs/${runId}/deliver`)).status).toBe(409);
  });

  it("fails a run on a mocked failure and releases what it had not drawn; numbered responses follow calls", async () => {
    const mocks = loadMocks(
      { delayMs: 10, cases: { flaky: { nodes: { report: { partId: "pack", responses: { "1": { failure: { code: "pack_timeout", message: "packing timed out" } }, "2": { value: { "pack.report": { pages: 3 } } } } } } } } },
      "mocks",
      defaultCatalogue,
    );
    const { call, published, clock, service } = await harness({ mocks });
    const wf = await published();
    const start = async () => (await call("POST", `${V1}/${wf}/run`, { body: {}, headers: { "Wfkit-Mock-Case": "flaky" } })).body.runId as string;
    const first = await start();
    for (let i = 0; i < 5; i++) clock.advance(10);
    const failed = (await call("GET", `${V1}/${wf}/runs/${first}`)).body;
    expect(failed.state).toBe("failed");
    expect(failed.nodes.find((n: { nodeId: string }) => n.nodeId === "report").failure).toEqual({ code: "pack_timeout", message: "packing timed out" });
    const compareCost = failed.nodes.find((n: { nodeId: string }) => n.nodeId === "compare").costMinorUnits as number;
    expect(failed.usage).toMatchObject({ drawnMinorUnits: compareCost, releasedMinorUnits: failed.estimate.costMinorUnits - compareCost });
    expect(service.account("acct_default")!.usedMinorUnits).toBe(compareCost);
    const second = await start();
    for (let i = 0; i < 5; i++) clock.advance(10);
    const run = (await call("GET", `${V1}/${wf}/runs/${second}`)).body;
    expect(run.nodes.find((n: { nodeId: string }) => n.nodeId === "report").output).toEqual({ "pack.report": { pages: 3 } });
    expect((await call("POST", `${V1}/${wf}/run`, { body: {}, headers: { "Wfkit-Mock-Case": "nope" } })).body.error).toBe("unknown_mock_case");
  });

  it("refuses a mock case the mock file does not have, even with no mock file", async () => {
    const { call, published } = await harness();
    const wf = await published();
    const reply = await call("POST", `${V1}/${wf}/run`, { body: {}, headers: { "Wfkit-Mock-Case": "toString" } });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe("unknown_mock_case");
  });

  it("cancels an open run: remaining nodes stop and their share of the reservation is released", async () => {
    const { call, published, clock, service } = await harness({ mocks: { delayMs: 50 } });
    const wf = await published();
    const { runId, estimate } = (await call("POST", `${V1}/${wf}/run`, { body: {} })).body;
    clock.advance(0);
    clock.advance(50); // compare finishes, report starts
    const cancelled = await call("POST", `${V1}/${wf}/runs/${runId}/cancel`);
    expect(cancelled.body.run.state).toBe("cancelled");
    const nodes = cancelled.body.run.nodes as { nodeId: string; state: string; costMinorUnits: number }[];
    expect(nodes.map((n) => [n.nodeId, n.state])).toEqual([["start", "succeeded"], ["compare", "succeeded"], ["report", "cancelled"], ["floor", "cancelled"], ["inbox", "cancelled"]]);
    const drawn = nodes.find((n) => n.nodeId === "compare")!.costMinorUnits;
    expect(cancelled.body.run.usage).toEqual({ reservedMinorUnits: estimate.costMinorUnits, drawnMinorUnits: drawn, releasedMinorUnits: estimate.costMinorUnits - drawn });
    expect(service.account("acct_default")!.usedMinorUnits).toBe(drawn);
    clock.advance(500);
    expect((await call("GET", `${V1}/${wf}/runs/${runId}`)).body.state).toBe("cancelled");
    expect((await call("POST", `${V1}/${wf}/runs/${runId}/cancel`)).status).toBe(409);
  });

  it("lists a workflow's runs and runs across owned workflows by state (all, open, terminal; else 400)", async () => {
    const { call, published, clock } = await harness({ mocks: { delayMs: 10 } });
    const wf1 = await published();
    const wf2 = await published(example("company-profile"));
    const a = (await call("POST", `${V1}/${wf1}/run`, { body: {} })).body.runId;
    for (let i = 0; i < 10; i++) clock.advance(10);
    const b = (await call("POST", `${V1}/${wf2}/run`, { body: {} })).body.runId;
    const ids = async (path: string) => (await call("GET", path)).body.runs.map((r: { runId: string }) => r.runId).sort();
    expect(await ids(`${V1}/${wf1}/runs`)).toEqual([a]);
    expect(await ids(`${V1}/runs`)).toEqual([a, b].sort());
    expect(await ids(`${V1}/runs?state=all`)).toEqual([a, b].sort());
    expect(await ids(`${V1}/runs?state=open`)).toEqual([b]);
    expect(await ids(`${V1}/runs?state=terminal`)).toEqual([a]);
    expect((await call("GET", `${V1}/runs?state=done`)).status).toBe(400);
  });
});

describe("bad input", () => {
  it("answers every malformed request with a JSON 4xx, never a 500", async () => {
    const { call, published } = await harness();
    const wf = await published();
    const cases: [string, string, Parameters<typeof call>[2], number, string][] = [
      ["POST", V1, { rawBody: "{not json" }, 400, "malformed_json"],
      ["POST", V1, { rawBody: "[1]" }, 400, "invalid_request"],
      ["POST", V1, { rawBody: "null" }, 400, "invalid_request"],
      ["POST", V1, { rawBody: "" }, 400, "invalid_request"],
      ["POST", V1, { rawBody: "x".repeat(8 * 1024 * 1024 + 1) }, 413, "payload_too_large"],
      ["POST", `${V1}/catalogue/validate-definition`, { body: { nodes: [] } }, 400, "invalid_request"],
      ["POST", `${V1}/${wf}/run`, { body: {}, headers: { "Idempotency-Key": "k".repeat(256) } }, 400, "invalid_request"],
      ["POST", `${V1}/${wf}/runs/run_nope/cancel`, {}, 404, "run_not_found"],
      ["GET", `${V1}/wf_nope/runs`, {}, 404, "workflow_not_found"],
      ["GET", "/api/v2/anything", {}, 404, "route_not_found"],
      ["DELETE", `${V1}/${wf}/run`, {}, 405, "method_not_allowed"],
      ["POST", `${V1}/${wf}/versions/v/publish`, { body: { force: true } }, 400, "invalid_request"],
    ];
    for (const [method, path, options, status, code] of cases) {
      const reply = await call(method, path, options);
      expect(reply.status, `${method} ${path}`).toBe(status);
      expect(reply.body.error, `${method} ${path}`).toBe(code);
      expect(reply.body.message).toEqual(expect.any(String));
    }
  });
});
