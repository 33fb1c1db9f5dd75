/**
 * `wfkit check --remote`: each definition wfkit checked is also sent to the service's
 * validate-definition, and every difference between the two verdicts is reported: an error
 * only one side finds (code and place), a verdict that differs, or a different estimate. A
 * difference means the local catalogue is older than the service's, or a bug in one of them.
 */
import { readFile } from "./fs-lazy.js";
import { defaultCatalogue, type Fault } from "@wfkit/core";
import { WorkflowsApiError, type WorkflowsClient } from "@wfkit/client";
import { checkSource } from "./check-file.js";
import { languageOf } from "./files.js";
import type { CheckJob } from "./check-jobs.js";
import type { Io } from "./io.js";
import { printable } from "./printable.js";
import type { FileReport } from "./report.js";

interface Verdict {
  errors: Set<string>;
  cost: number | undefined;
}

const errorKeys = (faults: readonly Pick<Fault, "code" | "severity" | "pointer">[]) =>
  new Set(faults.filter((fault) => fault.severity === "error").map((fault) => `${fault.code} at ${fault.pointer === "" ? "/" : fault.pointer}`));

/** Reports the differences on stderr; returns how many files differ. Refusals other than a verdict propagate. */
export async function reportRemoteDifferences(client: WorkflowsClient, jobs: readonly CheckJob[], files: readonly FileReport[], io: Io): Promise<number> {
  let differing = 0;
  for (const [i, job] of jobs.entries()) {
    const local = files[i]!;
    const text = job.text ?? (await readFile(job.absolutePath, "utf8"));
    const language = languageOf(job.languageName, text);
    // Only the definition is needed here; the verdict compared is the one already reported.
    const { definition, bodyKind } = checkSource(job.displayPath, text, language, { catalogue: defaultCatalogue, severity: new Map() });
    if (definition === undefined) continue; // it does not parse: nothing to send
    if (bodyKind) continue; // an alert or view body: the workflows service has no verdict on it
    let remote: Verdict;
    try {
      const answer = await client.validateDefinition(definition);
      remote = { errors: new Set(), cost: answer.estimate.costMinorUnits };
    } catch (error) {
      if (!(error instanceof WorkflowsApiError && error.kind === "validation_failed")) throw error;
      remote = { errors: errorKeys(error.faults ?? []), cost: undefined };
    }
    const mine: Verdict = { errors: errorKeys(local.faults), cost: local.estimate?.costMinorUnits };
    const lines: string[] = [];
    for (const key of remote.errors) if (!mine.errors.has(key)) lines.push(`the service finds ${key}, wfkit does not`);
    for (const key of mine.errors) if (!remote.errors.has(key)) lines.push(`wfkit finds ${key}, the service does not`);
    if (!lines.length && (mine.errors.size === 0) !== (remote.errors.size === 0)) lines.push(`wfkit says ${mine.errors.size ? "invalid" : "valid"}, the service says ${remote.errors.size ? "invalid" : "valid"}`);
    if (!lines.length && mine.cost !== undefined && remote.cost !== undefined && mine.cost !== remote.cost)
      lines.push(`the estimate differs: wfkit ${mine.cost}, the service ${remote.cost} minor units (is the catalogue current? \`wfkit catalogue pull\`)`);
    if (lines.length) differing++;
    for (const line of lines) io.stderr.write(`${printable(job.displayPath)}: remote: ${printable(line)}\n`);
  }
  io.stderr.write(differing ? `wfkit: the service's verdict differs on ${differing} of ${jobs.length} file(s)\n` : `wfkit: the service agrees on all ${jobs.length} file(s)\n`);
  return differing;
}
