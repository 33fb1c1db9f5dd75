/**
 * Checking files on worker threads. Each worker is the CLI bundle itself started with a
 * marker in `workerData` (see entry.ts), so there is no second file to ship or find.
 *
 * Work is handed out in small batches, each thread taking the next when it is done, so one
 * large file does not leave the others idle; results are put back in the order of the
 * files so output does not depend on timing.
 */
import { Worker } from "node:worker_threads";
import { CliError } from "./errors.js";
import type { CheckJob } from "./check-jobs.js";
import type { FileReport } from "./report.js";

export const WORKER_MARKER = "wfkit-check-worker";
/** Files per message to a worker: few enough to share work out evenly, enough to amortise a message. */
export const BATCH_SIZE = 8;

export interface WorkerRequest {
  batch: number;
  jobs: CheckJob[];
  cwd: string;
}

export type WorkerResponse =
  | { batch: number; reports: FileReport[] }
  | { batch: number; error: { kind: "cli" | "internal"; message: string } };

let workerScript: URL | undefined;

/**
 * Called by the bundle's entry point with its own URL: workers are available only when
 * running from the bundle, which a worker can load (TypeScript sources under test cannot be).
 */
export function enableWorkers(script: URL): void {
  workerScript = script;
}

export function workersAvailable(): boolean {
  return workerScript !== undefined;
}

/**
 * Checks `jobs` on `threads` threads: the main thread and `threads - 1` workers, all taking
 * batches from one queue. The main thread works too, so on a 2-core machine one worker
 * (one extra start-up) already halves the checking.
 */
export async function runInWorkers(jobs: readonly CheckJob[], cwd: string, threads: number): Promise<FileReport[]> {
  const batches: CheckJob[][] = [];
  for (let i = 0; i < jobs.length; i += BATCH_SIZE) batches.push(jobs.slice(i, i + BATCH_SIZE));
  const results: FileReport[][] = new Array(batches.length);
  let next = 0;
  const workers: Worker[] = [];

  const inWorker = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(workerScript!, { workerData: { marker: WORKER_MARKER } });
      workers.push(worker);
      const send = () => {
        if (next >= batches.length) return resolve();
        const batch = next++;
        worker.postMessage({ batch, jobs: batches[batch]!, cwd } satisfies WorkerRequest);
      };
      worker.on("message", (response: WorkerResponse) => {
        if ("error" in response) return reject(response.error.kind === "cli" ? new CliError(response.error.message) : new Error(response.error.message));
        results[response.batch] = response.reports;
        send();
      });
      worker.on("error", reject);
      worker.on("exit", (code) => reject(new Error(`a check worker stopped early (exit code ${code})`)));
      send();
    });

  const onMainThread = async () => {
    const { runCheckJob } = await import("./check-jobs.js");
    while (next < batches.length) {
      const batch = next++;
      const reports: FileReport[] = [];
      for (const job of batches[batch]!) reports.push(await runCheckJob(job, cwd));
      results[batch] = reports;
      // Let the workers' messages in between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };

  try {
    await Promise.all([onMainThread(), ...Array.from({ length: Math.max(0, Math.min(threads - 1, batches.length - 1)) }, inWorker)]);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results.flat();
}
