/** The worker side of parallel.ts: checks the batches it is sent, one at a time. */
import { parentPort } from "node:worker_threads";
import { runCheckJob } from "./check-jobs.js";
import { CliError } from "./errors.js";
import type { WorkerRequest, WorkerResponse } from "./parallel.js";
import type { FileReport } from "./report.js";

export function runWorker(): void {
  const port = parentPort!;
  port.on("message", async (request: WorkerRequest) => {
    let response: WorkerResponse;
    try {
      const reports: FileReport[] = [];
      for (const job of request.jobs) reports.push(await runCheckJob(job, request.cwd));
      response = { batch: request.batch, reports };
    } catch (error) {
      response = { batch: request.batch, error: { kind: error instanceof CliError ? "cli" : "internal", message: error instanceof Error ? error.message : String(error) } };
    }
    port.postMessage(response);
  });
}
