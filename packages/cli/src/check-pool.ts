/**
 * Checking many files on more than one core. `wfkit check` over a directory of thousands of
 * definitions spends most of its time parsing and checking each file, one at a time; a pool
 * of worker threads takes some of those files while the main thread walks, reads and checks
 * the rest.
 *
 * - **Nothing changes for a few files.** No thread is started until `START_AFTER` files have
 *   been offered: starting one (Node's bootstrap of a thread, and the CLI's bundle loaded in
 *   it) costs more than checking a few dozen files.
 * - **The main thread never waits for a worker while it has work.** The walk is synchronous,
 *   so a worker's answers only arrive once it ends; how many files each worker has finished
 *   is therefore counted in shared memory (`Atomics`), and a file goes to a worker only while
 *   fewer than `QUEUED_PER_WORKER` of its files are unfinished. Otherwise the main thread
 *   checks it itself. A worker still starting takes its first few files and no more.
 * - **The report is the same.** A worker runs the same `checkJob` on the same job (text,
 *   scan, catalogue path, severities); answers are put back in the order of the files. A job
 *   that fails in a worker (a catalogue that cannot be read, say), or that a worker which
 *   died was holding, is answered `undefined`, and the caller checks it again on the main
 *   thread, in its turn, where its error is reported as it would be without the pool.
 * - **Threads exist only where the CLI runs from its bundle.** The launcher says which file a
 *   worker runs and lends its `require` for `node:worker_threads` (`Symbol.for("wfkit.threads")`,
 *   see launch.ts), which is loaded only when a pool starts: it brings Node's streams, which a
 *   check of a few files never loads (launch.test.ts holds that). In-process callers (tests,
 *   embedders) have no launcher, and check on their own thread.
 */
import { availableParallelism } from "node:os";
import type { CheckJob } from "./check-jobs.js";
import type { FileReport } from "./report.js";

/** Files offered before the first worker is started (fewer are checked on the main thread alone). */
export const START_AFTER = 64;
/** Files a worker may hold unfinished before the main thread checks the next one itself. */
export const QUEUED_PER_WORKER = 6;
/** The most workers a pool starts by default, whatever the machine has. */
export const MAX_DEFAULT_WORKERS = 3;

/** What the main thread sends a worker. */
export interface JobMessage {
  ticket: number;
  job: CheckJob;
  cwd: string;
}

/** What a worker sends back: the report, or `failed` (the main thread checks the job again). */
export type AnswerMessage = { ticket: number; report: FileReport } | { ticket: number; failed: true };

/** What a worker is started with (`workerData`). */
export interface WorkerSetup {
  role: "wfkit-check";
  /** The worker's slot in `finished`, counted up as each job is answered. */
  slot: number;
  finished: SharedArrayBuffer;
}

/** The argument a worker thread is started with, by which the launcher knows it is one. */
export const CHECK_WORKER_ARGUMENT = "--wfkit-check-worker";

/** What a pool starts workers with: the file they run, and Node's worker_threads, loaded when asked for. */
export interface WorkerThreads {
  script: string;
  load(): typeof import("node:worker_threads");
}

/** The launcher's worker file and loader, when the CLI runs from its bundle. */
export function launcherThreads(): WorkerThreads | undefined {
  return (globalThis as { [key: symbol]: WorkerThreads | undefined })[Symbol.for("wfkit.threads")];
}

/** Workers by default: one core is the main thread's; at most `MAX_DEFAULT_WORKERS`. */
export function defaultWorkers(): number {
  return Math.max(0, Math.min(availableParallelism() - 1, MAX_DEFAULT_WORKERS));
}

interface Slot {
  worker: import("node:worker_threads").Worker | undefined;
  sent: number;
  /** False once the worker failed to start or died: it is sent nothing more. */
  usable: boolean;
  /** Tickets sent and not yet answered. */
  pending: Set<number>;
}

export class CheckPool {
  private offered = 0;
  private slots: Slot[] = [];
  private readonly finished: Int32Array;
  private readonly answers = new Map<number, FileReport | undefined>();
  private nextTicket = 0;
  private settled: Promise<void> | undefined;
  private resolveSettled: (() => void) | undefined;
  private outstanding = 0;

  /** A pool of up to `workers` threads; none until `START_AFTER` files are offered. */
  constructor(
    private readonly threads: WorkerThreads,
    private readonly workers: number,
    private readonly cwd: string,
  ) {
    this.finished = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, workers)));
  }

  /**
   * Hands `job` to a worker and returns its ticket, or undefined: the caller checks it itself
   * (the pool has not started yet, or every worker is busy or gone).
   */
  offer(job: CheckJob): number | undefined {
    if (++this.offered <= START_AFTER || this.workers === 0) return undefined;
    if (!this.slots.length) this.start();
    for (let slot = 0; slot < this.slots.length; slot++) {
      const entry = this.slots[slot]!;
      if (!entry.usable || !entry.worker) continue;
      if (entry.sent - Atomics.load(this.finished, slot) >= QUEUED_PER_WORKER) continue;
      const ticket = this.nextTicket++;
      try {
        entry.worker.postMessage({ ticket, job, cwd: this.cwd } satisfies JobMessage);
      } catch {
        // A job that cannot be sent (it holds something that cannot be copied) is checked here.
        return undefined;
      }
      entry.sent++;
      entry.pending.add(ticket);
      this.outstanding++;
      return ticket;
    }
    return undefined;
  }

  /**
   * Every answer, by ticket (undefined: check the job again on this thread), once every
   * worker has answered all it was sent or died; the workers are then stopped.
   */
  async finish(): Promise<Map<number, FileReport | undefined>> {
    for (const entry of this.slots) entry.worker?.ref();
    if (this.outstanding > 0) {
      this.settled ??= new Promise<void>((resolve) => (this.resolveSettled = resolve));
      await this.settled;
    }
    // For tests and benchmarks: how the files were shared out.
    if (process.env.WFKIT_POOL_DEBUG) process.stderr.write(`wfkit: pool: ${this.slots.length} workers, offered ${this.offered}, sent ${this.slots.map((entry) => entry.sent).join(",")}\n`);
    await this.stop();
    return this.answers;
  }

  /** Stops every worker, answered or not. */
  async stop(): Promise<void> {
    const running = this.slots.filter((entry) => entry.worker !== undefined);
    for (const entry of running) entry.usable = false;
    await Promise.all(running.map((entry) => entry.worker!.terminate()));
  }

  private start(): void {
    const { Worker } = this.threads.load();
    for (let slot = 0; slot < this.workers; slot++) {
      const entry: Slot = { worker: undefined, sent: 0, usable: true, pending: new Set() };
      this.slots.push(entry);
      try {
        const worker = new Worker(this.threads.script, { argv: [CHECK_WORKER_ARGUMENT], workerData: { role: "wfkit-check", slot, finished: this.finished.buffer as SharedArrayBuffer } satisfies WorkerSetup});
        // Unreferenced until `finish` waits for it: a check that stops early (an error in the
        // walk) must not be kept alive by its workers.
        worker.unref();
        entry.worker = worker;
        worker.on("message", (message: AnswerMessage) => this.answer(entry, message));
        worker.on("error", () => this.lose(entry));
        worker.on("exit", () => this.lose(entry));
      } catch {
        entry.usable = false;
      }
    }
  }

  private answer(entry: Slot, message: AnswerMessage): void {
    if (!entry.pending.delete(message.ticket)) return;
    this.answers.set(message.ticket, "report" in message ? message.report : undefined);
    this.settleOne();
  }

  /** A worker that died or failed: whatever it held is checked again on the main thread. */
  private lose(entry: Slot): void {
    entry.usable = false;
    for (const ticket of entry.pending) {
      this.answers.set(ticket, undefined);
      this.settleOne();
    }
    entry.pending.clear();
  }

  private settleOne(): void {
    if (--this.outstanding === 0) this.resolveSettled?.();
  }
}
