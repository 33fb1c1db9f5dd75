/** `wfkit compile`: `.wf` source to the JSON definition the service takes. */
import { booleanFlag, parseCommandArgs, stringFlag } from "../args.js";
import { compileSpec } from "./specs.js";
import type { Io } from "../io.js";
import { outputTarget, writeOutput } from "../output-target.js";
import { printableKeepingLineBreaks } from "../printable.js";
import { checkSingleSource, errorCount, printFaults } from "../single-source.js";
import { readSourceInput, singleFileArgument } from "../source-input.js";

export async function runCompile(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(compileSpec, argv);
  const source = await readSourceInput(singleFileArgument(args.positionals, "compile"), io, stringFlag(args, "stdin-filename"));
  const target = await outputTarget(stringFlag(args, "output"), io, source.fromStdin ? [] : [source.absolutePath]);
  const checked = checkSingleSource(source, io, { catalogue: stringFlag(args, "catalogue"), config: stringFlag(args, "config") });
  printFaults(io, checked.report);
  // --no-check: the service's verdict is the last word (a local catalogue can be older than
  // its own), but only a definition that parsed can be written.
  if (checked.definition === undefined || (errorCount(checked.report) > 0 && !booleanFlag(args, "no-check"))) return 1;
  await writeOutput(printableKeepingLineBreaks(JSON.stringify(checked.definition, null, 2)) + "\n", target, io);
  return 0;
}
