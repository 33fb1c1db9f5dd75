/** The bundle's entry point. */
import { processIo } from "./io.js";
import { main } from "./main.js";

// Writing to a closed pipe (`wfkit check | head`) is not an error worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});
// exitCode rather than exit(): pending output to a pipe is flushed before the process ends.
process.exitCode = await main(process.argv.slice(2), processIo());
