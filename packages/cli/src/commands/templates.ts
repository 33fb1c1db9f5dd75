/** `wfkit templates list | pull NAME -o FILE.wf`: the service's gallery, as .wf source. */
import { decompile } from "@wfkit/dsl";
import { booleanFlag, parseCommandArgs, stringFlag } from "../args.js";
import { CliError, UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { outputTarget, writeOutput } from "../output-target.js";
import { printable, printableKeepingLineBreaks } from "../printable.js";
import { connect, printJson, reportingRefusals } from "../remote.js";
import { templatesSpec } from "./specs.js";

export async function runTemplates(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(templatesSpec, argv);
  const [action, ...rest] = args.positionals;
  if (action === "list" && !rest.length) {
    const { client, format } = connect(args, io, "templates");
    return reportingRefusals(io, format, async () => {
      const templates = await client.templates();
      if (format === "json") printJson(io, templates.map(({ id, name, description }) => ({ id, name, description })));
      else {
        const width = Math.max(0, ...templates.map((t) => printable(t.id).length));
        io.stdout.write(templates.map((t) => `${printable(t.id).padEnd(width)}  ${printable(t.description || t.name)}`).join("\n") + "\n");
      }
      return 0;
    });
  }
  if (action === "pull" && rest.length === 1) {
    const wanted = rest[0]!;
    const { client, format } = connect(args, io, "templates");
    const target = await outputTarget(stringFlag(args, "output"), io, []);
    return reportingRefusals(io, format, async () => {
      const templates = await client.templates();
      const template = templates.find((t) => t.id === wanted) ?? templates.find((t) => t.name === wanted);
      if (!template) throw new CliError(`the gallery has no template \`${wanted}\` (it has: ${templates.map((t) => t.id).join(", ")})`);
      await writeOutput(printableKeepingLineBreaks(decompile(template.definition, { workflowName: template.id })), target, io, { guard: true, force: booleanFlag(args, "force") });
      if (target.kind === "file") {
        if (format === "json") printJson(io, { ok: true, template: template.id, path: target.displayPath });
        else io.stderr.write(`wfkit: ${target.displayPath}: template ${printable(template.id)}\n`);
      }
      return 0;
    });
  }
  throw new UsageError("say what to do: `wfkit templates list` or `wfkit templates pull NAME -o FILE.wf`", "templates");
}
