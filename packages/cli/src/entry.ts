/** The bundle's entry point: a CommonJS script that launch.ts compiles with V8's code cache. */
import { processIo } from "./io.js";
import { main } from "./main.js";

// exitCode rather than exit(): pending output to a pipe is flushed before the process ends.
void main(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
