/**
 * `wfkit run WORKFLOW`: start a run that cannot be started twice. The Idempotency-Key is saved
 * in .wfkit/state.json before the request leaves, so a re-run after a crash or a timeout sends
 * the same key and gets the run the service already started; once the answer is recorded the
 * key is forgotten, and the next `wfkit run` is a new run.
 */
import { WorkflowsApiError, type Run, type WorkflowsClient } from "@wfkit/client";
import { booleanFlag, parseCommandArgs, stringFlag } from "../args.js";
import { UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { connect, printJson, projectRoot, reportingRefusals, type OutputFormat } from "../remote.js";
import { StateFile } from "../state-file.js";
import { WORKFLOW_ID } from "./deploy.js";
import { runSpec } from "./specs.js";

export async function runRun(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(runSpec, argv);
  if (args.positionals.length !== 1) throw new UsageError("give one WORKFLOW (a name deployed from this project, or a workflow id)", "run");
  const workflow = args.positionals[0]!;
  const question = stringFlag(args, "question");
  const givenKey = stringFlag(args, "idempotency-key");
  if (givenKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(givenKey)) throw new UsageError("--idempotency-key must be 1 to 255 visible ASCII characters", "run");
  const mockCase = stringFlag(args, "mock-case");
  if (mockCase !== undefined && !/^[\x21-\x7e]{1,200}$/.test(mockCase)) throw new UsageError("--mock-case must be 1 to 200 visible ASCII characters (a case name of the service's mock file)", "run");
  // Sent with each request of this command; the service reads it on the run start alone.
  const { client, format, baseUrl } = connect(args, io, "run", mockCase === undefined ? undefined : { [MOCK_CASE_HEADER]: mockCase });
  const state = new StateFile(projectRoot(io), baseUrl);
  const workflowId = resolveWorkflow(state, workflow);
  const note = (line: string) => io.stderr.write(`wfkit: ${line}\n`);

  return reportingRefusals(
    io,
    format,
    async () => {
      // The same command line is the same request: same workflow, same question.
      // (A mock case is part of the request for wfkit serve, which compares it on a replay.)
      const request = `${workflowId} ${question ?? ""}${mockCase === undefined ? "" : ` mock-case=${mockCase}`}`;
      const pending = givenKey === undefined ? state.pendingRunKey(request) : undefined;
      const key = givenKey ?? pending ?? globalThis.crypto.randomUUID();
      if (pending) note(`reusing Idempotency-Key ${key} from an earlier attempt that got no answer: the service returns that run rather than starting a second one`);
      else {
        await state.savePendingRun(request, key);
        note(`Idempotency-Key ${key} (saved in ${state.displayPath} first: if this command is interrupted, running it again reuses the key and cannot start or charge a second run)`);
      }
      const started = await client.startRun(workflowId, { idempotencyKey: key, ...(question !== undefined ? { question } : {}) }).catch(async (error: unknown) => {
        // A refusal is an answer: no run was started, and the next attempt is a new request.
        // Without an answer (network, abort) the key stays, for the re-run to send again.
        if (error instanceof WorkflowsApiError) await state.clearPendingRun(request);
        throw error;
      });
      await state.clearPendingRun(request);
      const replay = started.replayed ? " (already started by an earlier attempt with this key; not started again)" : "";
      if (format === "text") io.stdout.write(`Run ${printable(started.runId)} started${replay}; it reserves ${started.estimate.costMinorUnits} minor units\n`);
      if (!booleanFlag(args, "wait")) {
        if (format === "json") printJson(io, { ...started, workflowId });
        return 0;
      }
      return followRun(client, io, format, { workflowId, runId: started.runId, workflow, json: { ...started, workflowId } });
    },
    { workflow },
  );
}

/** The header `wfkit serve` picks a mock test case by (its mock file's `cases`); a real service ignores it. */
export const MOCK_CASE_HEADER = "Wfkit-Mock-Case";

/** What Ctrl-C ends `run --wait` and `runs watch` with: 128 + SIGINT, as a shell reports it. */
export const INTERRUPTED = 130;

export interface Followed {
  workflowId: string;
  runId: string;
  /** The workflow as the user named it (for the commands suggested). */
  workflow: string;
  /** With --format json: what the final document carries besides `ok` and `run`. */
  json: Record<string, unknown>;
}

/**
 * Follows a run until it ends or a hold gate holds it, then prints its outputs: `run --wait`
 * and `runs watch` both end here. Exit 0 when it succeeded, 1 when it failed, was cancelled
 * or is held. Ctrl-C (SIGINT) stops the following, not the run: it says so, with the run's
 * id and the command that follows it again, and exits 130.
 */
export async function followRun(client: WorkflowsClient, io: Io, format: OutputFormat, followed: Followed): Promise<number> {
  const { workflowId, runId, workflow } = followed;
  const progress = progressPrinter(io, format);
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.on("SIGINT", onSigint);
  let run: Run;
  try {
    run = await client.waitForRun(workflowId, runId, { onProgress: progress.update, signal: interrupt.signal });
  } catch (error) {
    // A progress line left mid-line is ended first, so the note starts a line of its own.
    progress.done();
    if (!interrupt.signal.aborted) throw error;
    const again = `wfkit runs watch ${printable(runId)}`;
    if (format === "json") printJson(io, { ...followed.json, ok: false, interrupted: true, runId, workflowId, follow: again });
    io.stderr.write(
      `wfkit: stopped following; run ${printable(runId)} continues on the service (Ctrl-C neither cancels nor pauses it). Follow it again with \`${again}\`, or cancel it with \`wfkit runs cancel ${printable(runId)}\`.\n`,
    );
    return INTERRUPTED;
  } finally {
    process.off("SIGINT", onSigint);
  }
  progress.done();
  if (format === "json") printJson(io, { ...followed.json, ok: run.state === "succeeded", run });
  else io.stdout.write(describeEnd(run, workflow));
  return run.state === "succeeded" ? 0 : 1;
}

export function resolveWorkflow(state: StateFile, workflow: string): string {
  return WORKFLOW_ID.test(workflow) ? workflow : (state.workflowId(workflow) ?? workflow);
}

/** One line per change when not a terminal; one line rewritten in place on a terminal. */
function progressPrinter(io: Io, format: "text" | "json") {
  let last = "";
  const live = io.stderr.isTTY && format === "text";
  return {
    update: (run: Run) => {
      const line = `${run.runId}: ${run.state}${run.childRuns.length ? ` (${run.childRuns.map((child) => `${child.nodeId} ${child.state}`).join(", ")})` : ""}`;
      if (line === last) return;
      last = line;
      if (live) io.stderr.write(`\r\x1b[2K${printable(line)}`);
      else io.stderr.write(`${printable(line)}\n`);
    },
    done: () => {
      if (live && last) io.stderr.write("\n");
      last = "";
    },
  };
}

export function describeEnd(run: Run, workflow: string): string {
  const lines = [`Run ${printable(run.runId)} ${printable(run.state)}; drew ${run.usage.drawnMinorUnits} of ${run.usage.reservedMinorUnits} minor units reserved`];
  for (const node of run.nodes) {
    if (node.failure) lines.push(`  ${printable(node.nodeId)}: failed: ${printable(node.failure.code)}: ${printable(node.failure.message)}`);
    else if (node.output) lines.push(`  ${printable(node.nodeId)}${node.belowFloor ? " (below the quality floor)" : ""}: ${printable(JSON.stringify(node.output))}`);
  }
  if (run.state === "held") lines.push(`A hold gate is holding a below-floor result. Review it, then release it with \`wfkit runs deliver ${printable(run.runId)} --workflow ${printable(workflow)}\` (or cancel the run).`);
  return lines.join("\n") + "\n";
}
