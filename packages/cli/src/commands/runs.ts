/** `wfkit runs list | show RUN | watch RUN | deliver RUN | cancel RUN`. */
import { TERMINAL_RUN_STATES, type RunFilter, type RunSummary, type WorkflowsClient } from "@wfkit/client";
import { choiceFlag, parseCommandArgs, stringFlag, type ParsedArgs } from "../args.js";
import { CliError, UsageError } from "../errors.js";
import { Suggester } from "@wfkit/core";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { columnWidths, connect, printJson, projectRoot, reportingRefusals, type Remote } from "../remote.js";
import { StateFile } from "../state-file.js";
import { describeEnd, followRun, resolveWorkflow } from "./run.js";
import { runsSpec } from "./specs.js";

export async function runRuns(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(runsSpec, argv);
  const [action, ...rest] = args.positionals;
  if (action === "list" && !rest.length) {
    const filter = choiceFlag<RunFilter>(args, "state", ["all", "open", "terminal"], "all", "runs");
    const remote = connect(args, io, "runs");
    return reportingRefusals(io, remote.format, () => list(remote, io, filter, workflowOf(args, io, remote)));
  }
  if (isRunAction(action) && rest.length === 1) {
    if (stringFlag(args, "state") !== undefined) throw new UsageError("--state applies to `runs list` only", "runs");
    const remote = connect(args, io, "runs");
    const runId = rest[0]!;
    return reportingRefusals(io, remote.format, async () => {
      const workflowId = workflowOf(args, io, remote) ?? (await findWorkflow(remote.client, runId));
      const { client, format } = remote;
      if (action === "watch") return followRun(client, io, format, { workflowId, runId, workflow: stringFlag(args, "workflow") ?? workflowId, json: { workflowId } });
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
  throw new UsageError(usageProblem(action, rest), "runs");
}

const RUN_ACTIONS = ["show", "watch", "deliver", "cancel"] as const;
type RunAction = (typeof RUN_ACTIONS)[number];

function isRunAction(action: string | undefined): action is RunAction {
  return (RUN_ACTIONS as readonly (string | undefined)[]).includes(action);
}

/** What is wrong with `runs ACTION REST...`: the missing or extra part named, not the whole usage again. */
function usageProblem(action: string | undefined, rest: readonly string[]): string {
  const all = "`runs list`, `runs show RUN`, `runs watch RUN`, `runs deliver RUN` or `runs cancel RUN`";
  if (action === undefined) return `say what to do: ${all}`;
  if (action === "list") return `\`runs list\` takes no RUN (got \`${rest.join(" ")}\`); to see one run, \`runs show RUN\``;
  if (isRunAction(action))
    return rest.length === 0
      ? `\`runs ${action}\` needs the id of a run, as in \`wfkit runs ${action} run_0123\` (\`wfkit runs list\` shows them)`
      : `\`runs ${action}\` takes one RUN (got ${rest.length}: ${rest.join(" ")})`;
  const close = new Suggester().closest(action, ["list", ...RUN_ACTIONS]);
  return close ? `unknown action \`${action}\`; did you mean \`${close}\`?` : `say what to do: ${all} (\`${action}\` is none of them)`;
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

async function list({ client, format, baseUrl }: Remote, io: Io, filter: RunFilter, workflowId: string | undefined): Promise<number> {
  let runs: RunSummary[];
  if (workflowId === undefined) runs = (await client.runs(filter)).runs;
  else {
    const terminal = (run: RunSummary) => TERMINAL_RUN_STATES.includes(run.state);
    runs = (await client.workflowRuns(workflowId)).runs.filter((run) => filter === "all" || (filter === "terminal") === terminal(run));
  }
  if (format === "json") printJson(io, { runs });
  else if (!runs.length) io.stdout.write(`no ${filter === "all" ? "" : `${filter} `}runs\n`);
  else {
    // A workflow this project deployed is shown by its name (.wfkit/state.json), any other by its id.
    const names = new StateFile(projectRoot(io), baseUrl).namesOrNone();
    const rows = runs.map((run) => [printable(run.runId), printable(names.get(run.workflowId) ?? run.workflowId), printable(run.state), printable(run.createdAt), run.question == null ? "" : printable(run.question)]);
    const widths = columnWidths(rows, 4);
    io.stdout.write(rows.map((row) => row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join("  ").trimEnd()).join("\n") + "\n");
  }
  return 0;
}
