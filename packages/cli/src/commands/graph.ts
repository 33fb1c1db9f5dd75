/** `wfkit graph`: the workflow as a Mermaid or DOT diagram. */
import { choiceFlag, parseCommandArgs, stringFlag } from "../args.js";
import { graphSpec } from "./specs.js";
import { renderGraph, type GraphFormat } from "../graph-render.js";
import type { Io } from "../io.js";
import { writeOutput } from "../output-target.js";
import { checkSingleSource, errorCount, printFaults } from "../single-source.js";
import { readSourceInput, singleFileArgument } from "../source-input.js";
import { plural } from "../report.js";

export async function runGraph(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(graphSpec, argv);
  const format = choiceFlag<GraphFormat>(args, "format", ["mermaid", "dot"], "mermaid", "graph");
  const source = await readSourceInput(singleFileArgument(args.positionals, "graph"), io, stringFlag(args, "stdin-filename"));
  const checked = checkSingleSource(source, io, { catalogue: stringFlag(args, "catalogue"), config: stringFlag(args, "config") });
  if (checked.definition === undefined) {
    printFaults(io, checked.report);
    return 1;
  }
  const errors = errorCount(checked.report);
  if (errors) io.stderr.write(`wfkit: note: ${source.displayPath} has ${plural(errors, "error")}; run \`wfkit check ${source.displayPath}\` to see them\n`);
  await writeOutput(renderGraph(checked.definition, format), stringFlag(args, "output"), io);
  return 0;
}
