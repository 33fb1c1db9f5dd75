/** `wfkit catalogue pull`: the service's part catalogue, saved where offline checks read it. */
import { loadCatalogue } from "@wfkit/core";
import { booleanFlag, parseCommandArgs, stringFlag } from "../args.js";
import { CliError, UsageError } from "../errors.js";
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
    const answer = await client.parts();
    // The response is the catalogue's own format (`catalogueVersion`, `parts`): what --catalogue
    // reads. It is judged as --catalogue would judge it before a byte is written, so a bad
    // answer never replaces a good file.
    const loaded = loadCatalogue(answer);
    if (!loaded.ok) {
      const first = loaded.problems[0]!;
      throw new CliError(`the service's catalogue (GET /api/v1/workflows/catalogue/parts) is not a catalogue wfkit can check against (${first.pointer || "the document"}: ${first.message}${loaded.problems.length > 1 ? `, and ${loaded.problems.length - 1} more problems` : ""}); nothing was written`);
    }
    const catalogue = loaded.catalogue;
    const outcome = await writeOutput(JSON.stringify(catalogue, null, 2) + "\n", target, io, { guard: true, force: booleanFlag(args, "force") });
    if (target.kind === "file") {
      const summary = { ok: true, path: target.displayPath, parts: catalogue.parts.length, changed: outcome === "written" };
      if (format === "json") printJson(io, summary);
      else io.stderr.write(`wfkit: ${target.displayPath}: ${catalogue.parts.length} parts${outcome === "written" ? "" : " (unchanged)"}\n`);
    }
    return 0;
  });
}
