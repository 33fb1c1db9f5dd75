/**
 * Checking files on worker threads. Each worker is the CLI bundle itself started with a
 * marker in `workerData` (see entry.ts), so there is no second file to ship or find.
 *
 * Work is handed out in small batches, each worker asking for the next when it is done,
 * so one large file does not leave the other workers idle; results are put back in the
 * order of the files so output does not depend on timing.
 */
import { Worker } from "node:worker_threads";
import { CliError } from "./errors.js";
import type { CheckJob } from "./check-jobs.js";
import type { FileReport } from "./report.js";

export const WORKER_MARKER = "wfkit-check-worker";
const BATCH_SIZE = 8;

export interface WorkerRequest {
  batch: number;
  jobs: CheckJob[];
  cwd: string;
}

export type WorkerResponse =
  | { batch: number; reports: FileReport[] }
  | { batch: number; error: { kind: "cli" | "internal"; message: string } };

declare const __WFKIT_BUNDLED__: boolean | undefined;

/** True when this code runs from the bundle, which a worker can load (sources cannot be). */
export const workersAvailable = typeof __WFKIT_BUNDLED__ === "boolean" && __WFKIT_BUNDLED__;

export async function runInWorkers(jobs: readonly CheckJob[], cwd: string, workerCount: number): Promise<FileReport[]> {
  const batches: CheckJob[][] = [];
  for (let i = 0; i < jobs.length; i += BATCH_SIZE) batches.push(jobs.slice(i, i + BATCH_SIZE));
  const results: FileReport[][] = new Array(batches.length);
  let next = 0;
  const workers: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: Math.min(workerCount, batches.length) }, () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), { workerData: { marker: WORKER_MARKER } });
          workers.push(worker);
          const send = () => {
            if (next >= batches.length) {
              resolve();
              return;
            }
            const batch = next++;
            worker.postMessage({ batch, jobs: batches[batch]!, cwd } satisfies WorkerRequest);
          };
          worker.on("message", (response: WorkerResponse) => {
            if ("error" in response) {
              reject(response.error.kind === "cli" ? new CliError(response.error.message) : new Error(response.error.message));
              return;
            }
            results[response.batch] = response.reports;
            send();
          });
          worker.on("error", reject);
          worker.on("exit", (code) => {
            if (next < batches.length || code !== 0) reject(new Error(`a check worker stopped early (exit code ${code})`));
          });
          send();
        }),
      ),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results.flat();
}
