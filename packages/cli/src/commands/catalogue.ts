/** `wfkit catalogue pull`: the service's part catalogue, saved where offline checks read it. */
import { parseCommandArgs, stringFlag } from "../args.js";
import { UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { outputTarget, writeOutput } from "../output-target.js";
import { connect, printJson, reportingRefusals } from "../remote.js";
import { catalogueSpec } from "./specs.js";

export async function runCatalogue(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(catalogueSpec, argv);
  const [action, ...rest] = args.positionals;
  if (action !== "pull" || rest.length) throw new UsageError(action === undefined ? "say what to do: `wfkit catalogue pull [-o FILE]`" : `unknown action \`${[action, ...rest].join(" ")}\`; the only one is \`pull\``, "catalogue");
  const { client, format } = connect(args, io, "catalogue");
  const target = await outputTarget(stringFlag(args, "output"), io, []);
  return reportingRefusals(io, format, async () => {
    const catalogue = await client.parts();
    // The response is the catalogue's own format (`catalogueVersion`, `parts`): what --catalogue reads.
    const outcome = await writeOutput(JSON.stringify(catalogue, null, 2) + "\n", target, io);
    if (target.kind === "file") {
      const summary = { ok: true, path: target.displayPath, parts: catalogue.parts.length, changed: outcome === "written" };
      if (format === "json") printJson(io, summary);
      else io.stderr.write(`wfkit: ${target.displayPath}: ${catalogue.parts.length} parts${outcome === "written" ? "" : " (unchanged)"}\n`);
    }
    return 0;
  });
}
