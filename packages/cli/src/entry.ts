/**
 * The bundle's entry point. The same file serves as the CLI and, when started by
 * parallel.ts with its marker in `workerData`, as a check worker.
 */
import { isMainThread, workerData } from "node:worker_threads";
import { processIo } from "./io.js";
import { main } from "./main.js";
import { enableWorkers, WORKER_MARKER } from "./parallel.js";

if (!isMainThread && (workerData as { marker?: string } | null)?.marker === WORKER_MARKER) {
  (await import("./worker.js")).runWorker();
} else {
  enableWorkers(new URL(import.meta.url));
  // Writing to a closed pipe (`wfkit check | head`) is not an error worth a stack trace.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
  // exitCode rather than exit(): pending output to a pipe is flushed before the process ends.
  process.exitCode = await main(process.argv.slice(2), processIo());
}
