/**
 * The store's remembered answers (run lists, workflow and user rows) are what a fresh read
 * would give, after any interleaving of what changes the database: run starts, the walk,
 * cancels, deliveries, new and published workflows, plan changes, a reset. And the table a
 * statement writes is read off its text, with anything it cannot read as "every table".
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultCatalogue } from "@wfkit/core";
import { DEFAULT_SEED, loadMocks, RUN_FILTERS, type Seed, type WorkflowsService } from "../src/index.js";
import { tableWritten } from "../src/store.js";
import { example, harness } from "./helpers.js";
import { numRuns } from "../../../test/support/num-runs.js";

/** The default seed, with a colleague in the owner's organisation (who sees the owner's workflows) and a stranger (who does not). */
const seed: Seed = {
  ...DEFAULT_SEED,
  accounts: [...DEFAULT_SEED.accounts, { id: "acct_other", plan: "professional", region: "eu", allowanceMinorUnits: 100 } as const],
  users: [...DEFAULT_SEED.users, { id: "usr_colleague", account: "acct_default", organisation: "org_default" }, { id: "usr_stranger", account: "acct_other" }],
};
const mocks = loadMocks({ delayMs: 10, cases: { broken: { parts: { pack: { "1": { failure: { code: "broken" } } } } } } }, "mocks", defaultCatalogue);

describe("the table a statement writes", () => {
  it.each([
    ["INSERT INTO runs (id) VALUES (?)", "runs"],
    ["INSERT OR REPLACE INTO idempotency_keys (caller, key) VALUES (?, ?)", "idempotency_keys"],
    ["insert or ignore into Users(id) values (?)", "users"],
    ["REPLACE INTO meta (key, value) VALUES (?, ?)", "meta"],
    ["UPDATE accounts SET used_minor_units = used_minor_units + ? WHERE id = ?", "accounts"],
    ["  \n UPDATE OR ROLLBACK run_nodes SET state = ?", "run_nodes"],
    ['DELETE FROM "workflows"', "workflows"],
    ["DELETE FROM versions WHERE id = ?", "versions"],
    ["INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", "meta"],
    ["CREATE TABLE runs_new (id TEXT)", "*"],
    ["ALTER TABLE accounts ADD COLUMN entitlements TEXT", "*"],
    ["DROP TABLE runs", "*"],
    ["WITH x AS (SELECT 1) INSERT INTO runs SELECT * FROM x", "*"],
  ])("%s writes %s", (sql, table) => {
    expect(tableWritten(sql)).toBe(table);
  });
});

const step = fc.oneof(
  fc.record({ kind: fc.constant("start" as const), pick: fc.nat(), broken: fc.boolean() }),
  fc.record({ kind: fc.constant("advance" as const), ms: fc.constantFrom(0, 5, 10, 30) }),
  fc.record({ kind: fc.constantFrom("cancel" as const, "deliver" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("workflow" as const), publish: fc.boolean() }),
  fc.record({ kind: fc.constant("plan" as const), plan: fc.constantFrom("starter", "browser", "professional", "enterprise") }),
  fc.record({ kind: fc.constant("reset" as const) }),
);

/** What `read` gives, or the refusal it throws, as a comparable value. */
function outcome(read: () => unknown): unknown {
  try {
    return { value: read() };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

/** Every remembered read, as remembered and then worked out afresh. */
function rememberedAndFresh(service: WorkflowsService, users: readonly string[], workflowIds: readonly string[]): [unknown, unknown] {
  const reads = () => ({
    users: users.map((user) => outcome(() => service.user(user))),
    workflows: workflowIds.flatMap((id) => users.map((user) => outcome(() => service.visibleWorkflow(user, id)))),
    workflowRuns: workflowIds.flatMap((id) => users.map((user) => outcome(() => service.workflowRunsJson(user, id)))),
    ownedRuns: users.flatMap((user) => RUN_FILTERS.map((filter) => outcome(() => service.ownedRunsJson(user, filter)))),
  });
  const remembered = reads();
  service.store.forgetAnswers();
  return [remembered, reads()];
}

describe("remembered answers", () => {
  it("are what a fresh read gives, whatever changed the database in between", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (steps) => {
        const { call, admin, published, service } = await harness({ mocks, seed });
        const users = ["usr_owner", "usr_colleague", "usr_stranger", "usr_unknown"];
        const workflowIds = [await published(example("grocer-compare"))];
        const runs: { wf: string; id: string }[] = [];
        for (const action of steps) {
          if (action.kind === "start") {
            const wf = workflowIds[action.pick % workflowIds.length]!;
            const reply = await call("POST", `/api/v1/workflows/${wf}/run`, { body: {}, headers: action.broken ? { "Wfkit-Mock-Case": "broken" } : {} });
            if (reply.status === 200) runs.push({ wf, id: reply.body.runId });
          } else if (action.kind === "advance") {
            await admin("/clock/advance", { ms: action.ms });
          } else if (action.kind === "cancel" || action.kind === "deliver") {
            const run = runs[action.pick % Math.max(1, runs.length)];
            if (run) await call("POST", `/api/v1/workflows/${run.wf}/runs/${run.id}/${action.kind}`);
          } else if (action.kind === "workflow") {
            // Refused on a plan without the API: then there is nothing to add.
            const created = await call("POST", "/api/v1/workflows", { body: { name: "another" } });
            if (created.status !== 201) continue;
            const id = created.body.workflow.id as string;
            workflowIds.push(id);
            if (action.publish) {
              const version = await call("POST", `/api/v1/workflows/${id}/versions`, { body: { scope: { graph: example("grocer-compare") } } });
              await call("POST", `/api/v1/workflows/${id}/versions/${version.body.version.id}/publish`);
            }
          } else if (action.kind === "plan") {
            await admin("/accounts/acct_default", { plan: action.plan });
          } else {
            await admin("/reset");
            runs.length = 0;
          }
          const [remembered, fresh] = rememberedAndFresh(service, users, workflowIds);
          expect(remembered).toEqual(fresh);
        }
        service.close();
      }),
      { numRuns: numRuns(15) },
    );
  });
});

describe("remembered answers inside a transaction", () => {
  it("are read afresh once the transaction has written a table they name, and what it saw is not kept after a rollback", async () => {
    const { service } = await harness();
    const { store } = service;
    let computed = 0;
    const count = () =>
      store.remembered("workflow count", ["workflows"], () => {
        computed++;
        return Number(store.get("SELECT count(*) AS n FROM workflows")!.n);
      });
    const insert = (id: string) => store.run("INSERT INTO workflows (id, name, owner_user_id, created_at) VALUES (?, 'x', 'usr_owner', 0)", [id]);
    expect(count()).toBe(0);
    expect(count()).toBe(0);
    expect(computed).toBe(1);
    store.transaction(() => {
      expect(count()).toBe(0); // nothing written yet: the kept answer holds
      insert("wf_one");
      expect(count()).toBe(1);
    });
    expect(count()).toBe(1);
    expect(() =>
      store.transaction(() => {
        insert("wf_two");
        expect(count()).toBe(2);
        throw new Error("rolled back");
      }),
    ).toThrow("rolled back");
    expect(count()).toBe(1);
    service.close();
  });
});
