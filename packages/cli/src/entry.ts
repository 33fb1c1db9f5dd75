/**
 * The bundle's entry point: a CommonJS script that launch.ts compiles with V8's code cache.
 * The same file serves as the CLI and, when started by parallel.ts with its marker in
 * `workerData`, as a check worker.
 */
import { pathToFileURL } from "node:url";
import { isMainThread, workerData } from "node:worker_threads";
import { processIo } from "./io.js";
import { main } from "./main.js";
import { enableWorkers, WORKER_MARKER } from "./parallel.js";

if (!isMainThread && (workerData as { marker?: string } | null)?.marker === WORKER_MARKER) {
  void import("./worker.js").then((worker) => worker.runWorker());
} else {
  // Workers load this same file (a CommonJS bundle knows its own name).
  if (typeof __filename === "string") enableWorkers(pathToFileURL(__filename));
  // Writing to a closed pipe (`wfkit check | head`) is not an error worth a stack trace.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
  // exitCode rather than exit(): pending output to a pipe is flushed before the process ends.
  void main(process.argv.slice(2), processIo()).then((code) => {
    process.exitCode = code;
  });
}
