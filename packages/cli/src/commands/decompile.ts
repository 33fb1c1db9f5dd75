/** `wfkit decompile`: a JSON definition to `.wf` source. */
import { decompile } from "@wfkit/dsl";
import { parseCommandArgs, stringFlag } from "../args.js";
import { decompileSpec } from "./specs.js";
import { checkSource } from "../check-file.js";
import { defaultCatalogue } from "@wfkit/core";
import type { Io } from "../io.js";
import { outputTarget, writeOutput } from "../output-target.js";
import { printableKeepingLineBreaks } from "../printable.js";
import { errorCount, printFaults } from "../single-source.js";
import { readSourceInput, singleFileArgument } from "../source-input.js";
import { DSL_CODE_SEVERITY } from "@wfkit/project";

export async function runDecompile(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(decompileSpec, argv);
  const source = await readSourceInput(singleFileArgument(args.positionals, "decompile"), io, stringFlag(args, "stdin-filename"));
  const target = await outputTarget(stringFlag(args, "output"), io, source.fromStdin ? [] : [source.absolutePath]);
  // Only the JSON's own faults matter here (syntax, repeated keys), not the rules.
  const checked = checkSource(source.displayPath, source.text, "json", { catalogue: defaultCatalogue, severity: new Map() });
  const report = { ...checked.report, faults: checked.report.faults.filter((fault) => DSL_CODE_SEVERITY.has(fault.code)) };
  printFaults(io, report);
  if (errorCount(report) > 0 || checked.definition === undefined) return 1;
  await writeOutput(printableKeepingLineBreaks(decompile(checked.definition)), target, io);
  return 0;
}

