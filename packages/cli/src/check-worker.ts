/**
 * A worker thread of `wfkit check` (see check-pool.ts): it checks each job it is sent with the
 * main thread's own `checkJob`, answers with the report, and counts the job finished in the
 * shared memory the main thread reads while its walk runs. A job that throws is answered
 * `failed`: the main thread checks it again, and reports its error in its turn.
 */
import type { MessagePort } from "node:worker_threads";
import { checkJob } from "./check-jobs.js";
import type { AnswerMessage, JobMessage, WorkerSetup } from "./check-pool.js";

export function serveCheckJobs(port: MessagePort, setup: WorkerSetup): void {
  const finished = new Int32Array(setup.finished);
  port.on("message", ({ ticket, job, cwd }: JobMessage) => {
    let answer: AnswerMessage;
    try {
      answer = { ticket, report: checkJob(job, cwd) };
    } catch {
      answer = { ticket, failed: true };
    }
    port.postMessage(answer);
    Atomics.add(finished, setup.slot, 1);
  });
}

/** The setup of this thread when it is a check worker, else undefined. */
export function checkWorkerSetup(data: unknown): WorkerSetup | undefined {
  return typeof data === "object" && data !== null && (data as { role?: unknown }).role === "wfkit-check" ? (data as WorkerSetup) : undefined;
}
