/** The bundle's entry point: a CommonJS script that launch.ts compiles with V8's code cache. */
import { processIo } from "./io.js";
import { COMMANDS, main } from "./main.js";

/** The commands' names, for the launcher: the code cache keeps a record of which have run (launch.ts). */
export const commandNames: readonly string[] = COMMANDS.map((command) => command.spec.name);

// exitCode rather than exit(): pending output to a pipe is flushed before the process ends.
void main(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
