/** `wfkit runs list | show RUN | deliver RUN | cancel RUN`. */
import { TERMINAL_RUN_STATES, type RunFilter, type RunSummary, type WorkflowsClient } from "@wfkit/client";
import { choiceFlag, parseCommandArgs, stringFlag, type ParsedArgs } from "../args.js";
import { CliError, UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { columnWidths, connect, printJson, projectRoot, reportingRefusals, type Remote } from "../remote.js";
import { StateFile } from "../state-file.js";
import { describeEnd, resolveWorkflow } from "./run.js";
import { runsSpec } from "./specs.js";

export async function runRuns(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(runsSpec, argv);
  const [action, ...rest] = args.positionals;
  if (action === "list" && !rest.length) {
    const filter = choiceFlag<RunFilter>(args, "state", ["all", "open", "terminal"], "all", "runs");
    const remote = connect(args, io, "runs");
    return reportingRefusals(io, remote.format, () => list(remote, io, filter, workflowOf(args, io, remote)));
  }
  if ((action === "show" || action === "deliver" || action === "cancel") && rest.length === 1) {
    if (stringFlag(args, "state") !== undefined) throw new UsageError("--state applies to `runs list` only", "runs");
    const remote = connect(args, io, "runs");
    const runId = rest[0]!;
    return reportingRefusals(io, remote.format, async () => {
      const workflowId = workflowOf(args, io, remote) ?? (await findWorkflow(remote.client, runId));
      const { client, format } = remote;
      const run = action === "show" ? await client.run(workflowId, runId) : action === "deliver" ? (await client.deliver(workflowId, runId)).run : (await client.cancel(workflowId, runId)).run;
      if (format === "json") printJson(io, { ok: true, run });
      else {
        if (action === "deliver") io.stdout.write(`Delivered run ${printable(runId)}: the held result was released\n`);
        if (action === "cancel") io.stdout.write(`Cancelled run ${printable(runId)}: parts that had finished stay charged; the rest of the reservation is released\n`);
        io.stdout.write(describeEnd(run, workflowId));
      }
      return 0;
    });
  }
  throw new UsageError("say what to do: `runs list`, `runs show RUN`, `runs deliver RUN` or `runs cancel RUN`", "runs");
}

function workflowOf(args: ParsedArgs, io: Io, remote: Remote): string | undefined {
  const workflow = stringFlag(args, "workflow");
  return workflow === undefined ? undefined : resolveWorkflow(new StateFile(projectRoot(io), remote.baseUrl), workflow);
}

/** A run's workflow, from the caller's own runs (the API addresses a run under its workflow). */
async function findWorkflow(client: WorkflowsClient, runId: string): Promise<string> {
  const found = (await client.runs("all")).runs.find((run) => run.runId === runId);
  if (!found) throw new CliError(`no run ${runId} among your runs; give --workflow W if the run belongs to a workflow you do not own`);
  return found.workflowId;
}

async function list({ client, format }: Remote, io: Io, filter: RunFilter, workflowId: string | undefined): Promise<number> {
  let runs: RunSummary[];
  if (workflowId === undefined) runs = (await client.runs(filter)).runs;
  else {
    const terminal = (run: RunSummary) => TERMINAL_RUN_STATES.includes(run.state);
    runs = (await client.workflowRuns(workflowId)).runs.filter((run) => filter === "all" || (filter === "terminal") === terminal(run));
  }
  if (format === "json") printJson(io, { runs });
  else if (!runs.length) io.stdout.write(`no ${filter === "all" ? "" : `${filter} `}runs\n`);
  else {
    const rows = runs.map((run) => [printable(run.runId), printable(run.workflowId), printable(run.state), printable(run.createdAt), run.question == null ? "" : printable(run.question)]);
    const widths = columnWidths(rows, 4);
    io.stdout.write(rows.map((row) => row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join("  ").trimEnd()).join("\n") + "\n");
  }
  return 0;
}
