/**
 * `wfkit deploy FILE`: check locally (errors stop it), create the workflow when this project
 * has not deployed it yet, save a new version, publish it only with --publish. The service's
 * validate-definition is asked first (a read), so a definition it refuses changes nothing;
 * `--dry-run` stops there and prints the plan and the estimate.
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
import { StateFile } from "../state-file.js";
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
      if (booleanFlag(args, "dry-run")) {
        const plan = [
          knownId ? `save a new version of workflow ${printable(name)} (${knownId})` : `create workflow ${printable(name)}, then save its first version`,
          publish ? "publish that version (runs will use it)" : "leave it unpublished (add --publish to publish it)",
        ];
        if (format === "json") printJson(io, { ok: true, dryRun: true, workflow: { name, id: knownId ?? null }, create: !knownId, publish, estimate: verdict.estimate });
        else {
          say(`Plan (dry run, nothing changed):`);
          plan.forEach((step, i) => say(`  ${i + 1}. ${step}`));
          say(`Estimate: ${verdict.estimate.costMinorUnits} minor units per run (the service's figure; a run reserves it)`);
        }
        return 0;
      }
      let workflowId = knownId;
      if (!workflowId) {
        workflowId = (await client.createWorkflow(name)).workflow.id;
        // Saved at once: a failure below must not leave a workflow this project forgets.
        await state.rememberWorkflow(name, workflowId);
        say(`Created workflow ${printable(name)} (${printable(workflowId)}); its id is kept in ${state.displayPath}`);
      }
      const { version } = await client.saveVersion(workflowId, body);
      // The reference shows only the version's id; the estimate is the local service's extra.
      const estimate = version.estimate ? ` (estimate ${version.estimate.costMinorUnits} minor units per run)` : "";
      say(`Saved version ${printable(version.id)}${estimate}`);
      if (publish) {
        await client.publish(workflowId, version.id);
        say(`Published version ${printable(version.id)}: \`wfkit run ${printable(name)}\` runs it`);
      } else if (!knownId)
        say(`Not published: ${printable(name)} is new and has no published version yet, so \`wfkit run ${printable(name)}\` is refused until you deploy with --publish`);
      else say(`Not published: runs use the version published last, if there is one (deploy with --publish to make runs use this one)`);
      if (format === "json") printJson(io, { ok: true, workflow: { name, id: workflowId }, created: !knownId, version, published: publish });
      return 0;
    },
    { workflow: name },
  );
}
