/** The bundle's entry point: a CommonJS script that launch.ts compiles with V8's code cache. */
import { checkWorkerSetup, serveCheckJobs } from "./check-worker.js";
import { CHECK_WORKER_ARGUMENT, launcherThreads } from "./check-pool.js";
import { processIo } from "./io.js";
import { main } from "./main.js";

// The same bundle runs `wfkit check`'s worker threads (check-pool.ts), started with an argument
// of their own; worker_threads is loaded only then (it brings Node's streams with it).
const threads = process.argv.includes(CHECK_WORKER_ARGUMENT) ? launcherThreads()?.load() : undefined;
const workerSetup = threads && !threads.isMainThread && threads.parentPort ? checkWorkerSetup(threads.workerData) : undefined;
if (threads?.parentPort && workerSetup) {
  serveCheckJobs(threads.parentPort, workerSetup);
} else {
  // exitCode rather than exit(): pending output to a pipe is flushed before the process ends.
  void main(process.argv.slice(2), processIo()).then((code) => {
    process.exitCode = code;
  });
}
