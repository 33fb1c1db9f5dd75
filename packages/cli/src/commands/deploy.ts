/**
 * `wfkit deploy FILE`: check locally (errors stop it), create the workflow when this project
 * has not deployed it yet, save a new version, publish it only with --publish. The service's
 * validate-definition is asked first (a read), so a definition it refuses changes nothing.
 *
 * The plan compares the file with what this project last deployed to the workflow (kept in
 * .wfkit/state.json, deploy-plan.ts): nodes and edges added, removed and changed, and the
 * estimate before and after, as `terraform plan` does. `--dry-run` prints it and stops; a
 * file unchanged since then says "No changes" and saves no new version (`--force` saves one
 * anyway; `--publish` then publishes the recorded version if this project has not yet).
 */
import path from "node:path";
import { isVersionSaveBody } from "@wfkit/core";
import type { SaveVersionRequest } from "@wfkit/client";
import { booleanFlag, parseCommandArgs, stringFlag } from "../args.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { connect, printJson, projectRoot, reportingRefusals } from "../remote.js";
import { checkSingleSource, errorCount, printFaults } from "../single-source.js";
import { readSourceInput, singleFileArgument } from "../source-input.js";
import { canonicalHash, StateFile, type DeployedRecord } from "../state-file.js";
import { changeCount, planChanges, renderChanges, type PlanChanges } from "../deploy-plan.js";
import { deploySpec } from "./specs.js";

/** Ids the service makes for workflows; anything else given to --workflow is a name. */
export const WORKFLOW_ID = /^wf_[0-9a-f]+$/;

export async function runDeploy(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(deploySpec, argv);
  const source = await readSourceInput(singleFileArgument(args.positionals, "deploy"), io, undefined);
  const remote = connect(args, io, "deploy");
  const { client, format, baseUrl } = remote;
  const checked = checkSingleSource(source, io, { catalogue: stringFlag(args, "catalogue"), config: stringFlag(args, "config") });
  printFaults(io, checked.report);
  if (errorCount(checked.report) > 0 || checked.definition === undefined) {
    io.stderr.write(`wfkit: ${printable(source.displayPath)} has errors; nothing was deployed (the service would refuse it too)\n`);
    return 1;
  }
  const state = new StateFile(projectRoot(io), baseUrl);
  const given = stringFlag(args, "workflow");
  const name = given ?? checked.workflowName ?? path.basename(source.displayPath).replace(/(\.workflow)?\.(wf|json)$/, "");
  const knownId = WORKFLOW_ID.test(name) ? name : state.workflowId(name);
  const body: SaveVersionRequest = isVersionSaveBody(checked.definition) ? (checked.definition as SaveVersionRequest) : { scope: { graph: checked.definition } };
  const publish = booleanFlag(args, "publish");
  const say = (line: string) => format === "text" && io.stdout.write(line + "\n");

  return reportingRefusals(
    io,
    format,
    async () => {
      // The service's verdict before any change: a refusal (its catalogue may differ from the
      // local one) then creates nothing. It is also the estimate a run will reserve.
      const verdict = await client.validateDefinition(checked.definition);
      const previous = knownId ? state.deployed(knownId) : undefined;
      const hash = canonicalHash(body);
      const unchanged = previous?.hash === hash;
      const force = booleanFlag(args, "force");
      const changes = planChanges(previous?.definition, checked.definition);
      const since = previous ? `version ${printable(previous.versionId)} (deployed from this project at ${printable(previous.deployedAt)})` : undefined;
      const estimateText = estimateLine(previous, verdict.estimate.costMinorUnits);
      if (booleanFlag(args, "dry-run")) {
        const plan = unchanged && !force ? [] : [knownId ? `save a new version of workflow ${printable(name)} (${knownId})` : `create workflow ${printable(name)}, then save its first version`];
        if (publish) plan.push(unchanged && !force ? (previous!.published ? `nothing to publish: ${since} is published by this project already` : `publish ${since}`) : "publish that version (runs will use it)");
        else if (!(unchanged && !force)) plan.push("leave it unpublished (add --publish to publish it)");
        if (format === "json")
          printJson(io, { ok: true, dryRun: true, workflow: { name, id: knownId ?? null }, create: !knownId, publish, changed: !unchanged, estimate: verdict.estimate, previous: previousJson(previous), changes: changesJson(changes) });
        else {
          if (unchanged) say(`No changes: ${printable(source.displayPath)} is what ${since} holds.`);
          say(`Plan (dry run, nothing changed):`);
          if (!plan.length) say(`  nothing to do${force ? "" : " (--force saves a new version anyway)"}`);
          plan.forEach((step, i) => say(`  ${i + 1}. ${step}`));
          if (!unchanged) {
            say(previous ? `Changes since ${since}:` : knownId ? `Changes: no version of ${printable(name)} was deployed from this project, so all of it is new:` : `Changes: all of it is new:`);
            for (const line of renderChanges(changes)) say(line);
          }
          say(estimateText);
        }
        return 0;
      }
      if (unchanged && !force) {
        const json: Record<string, unknown> = { ok: true, workflow: { name, id: knownId }, created: false, unchanged: true, version: { id: previous!.versionId }, published: previous!.published };
        say(`No changes: ${printable(source.displayPath)} is what ${since} holds; no new version saved (--force saves one anyway)`);
        if (publish && !previous!.published) {
          await client.publish(knownId!, previous!.versionId);
          await state.rememberPublished(knownId!, previous!.versionId);
          say(`Published version ${printable(previous!.versionId)}: \`wfkit run ${printable(name)}\` runs it`);
          json.published = true;
        } else if (publish) say(`Version ${printable(previous!.versionId)} was published by this project already`);
        if (format === "json") printJson(io, json);
        return 0;
      }
      if (previous) {
        const count = changeCount(changes);
        say(unchanged ? `No changes since ${since}; saving a new version anyway (--force)` : `Changes since ${since}: ${count.add} to add, ${count.change} to change, ${count.remove} to remove (--dry-run lists them)`);
      }
      let workflowId = knownId;
      if (!workflowId) {
        workflowId = (await client.createWorkflow(name)).workflow.id;
        // Saved at once: a failure below must not leave a workflow this project forgets.
        await state.rememberWorkflow(name, workflowId);
        say(`Created workflow ${printable(name)} (${printable(workflowId)}); its id is kept in ${state.displayPath}`);
      }
      const { version } = await client.saveVersion(workflowId, body);
      // Recorded at once, with what the next plan compares against (published is set below, once it is).
      const record: DeployedRecord = { hash, versionId: version.id, deployedAt: new Date().toISOString(), published: false, estimate: { costMinorUnits: verdict.estimate.costMinorUnits }, definition: checked.definition };
      await state.rememberDeployment(workflowId, record);
      // The reference shows only the version's id; the estimate is the local service's extra.
      const estimate = version.estimate ? ` (estimate ${version.estimate.costMinorUnits} minor units per run)` : "";
      say(`Saved version ${printable(version.id)}${estimate}`);
      if (publish) {
        await client.publish(workflowId, version.id);
        await state.rememberPublished(workflowId, version.id);
        say(`Published version ${printable(version.id)}: \`wfkit run ${printable(name)}\` runs it`);
      } else if (!knownId)
        say(`Not published: ${printable(name)} is new and has no published version yet, so \`wfkit run ${printable(name)}\` is refused until you deploy with --publish`);
      else say(`Not published: runs use the version published last, if there is one (deploy with --publish to make runs use this one)`);
      if (format === "json") printJson(io, { ok: true, workflow: { name, id: workflowId }, created: !knownId, unchanged, version, published: publish, previous: previousJson(previous), counts: changeCount(changes) });
      return 0;
    },
    { workflow: name },
  );
}

/** The estimate, and when this project deployed a version before, the change from its estimate. */
function estimateLine(previous: DeployedRecord | undefined, after: number): string {
  const before = previous?.estimate?.costMinorUnits;
  if (before === undefined || before === after) return `Estimate: ${after} minor units per run (the service's figure; a run reserves it)${before === after ? "; unchanged" : ""}`;
  const delta = after - before;
  return `Estimate: ${before} → ${after} minor units per run (${delta > 0 ? "+" : ""}${delta}; the service's figures; a run reserves it)`;
}

function previousJson(previous: DeployedRecord | undefined): Record<string, unknown> | null {
  if (!previous) return null;
  return { versionId: previous.versionId, deployedAt: previous.deployedAt, published: previous.published, hash: previous.hash, estimate: previous.estimate ?? null };
}

function changesJson(changes: PlanChanges): PlanChanges & { counts: ReturnType<typeof changeCount> } {
  return { ...changes, counts: changeCount(changes) };
}
