/** `wfkit graph`: the workflow as a Mermaid or DOT diagram, or an SVG drawing with its faults. */
import { choiceFlag, parseCommandArgs, stringFlag } from "../args.js";
import { graphSpec } from "./specs.js";
import { GRAPH_FORMATS, renderGraph, type GraphFormat } from "../graph-render.js";
import type { Io } from "../io.js";
import { outputTarget, writeOutput } from "../output-target.js";
import { checkSingleSource, errorCount, printFaults } from "../single-source.js";
import { readSourceInput, singleFileArgument } from "../source-input.js";
import { plural } from "../report.js";
import { printable } from "../printable.js";

export async function runGraph(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(graphSpec, argv);
  const format = choiceFlag<GraphFormat>(args, "format", GRAPH_FORMATS, "mermaid", "graph");
  const source = await readSourceInput(singleFileArgument(args.positionals, "graph"), io, stringFlag(args, "stdin-filename"));
  const target = await outputTarget(stringFlag(args, "output"), io, source.fromStdin ? [] : [source.absolutePath]);
  const checked = checkSingleSource(source, io, { catalogue: stringFlag(args, "catalogue"), config: stringFlag(args, "config") });
  if (checked.definition === undefined) {
    printFaults(io, checked.report);
    return 1;
  }
  const errors = errorCount(checked.report);
  const shownPath = printable(source.displayPath);
  if (errors) io.stderr.write(`wfkit: note: ${shownPath} has ${plural(errors, "error")}; run \`wfkit check ${shownPath}\` to see them\n`);
  const { faults } = checked.report;
  const drawing = await renderGraph(checked.definition, format, { faults, catalogue: checked.catalogue, ...(checked.estimate ? { estimate: checked.estimate } : {}) });
  await writeOutput(drawing, target, io);
  return 0;
}
