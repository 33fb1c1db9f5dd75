/**
 * Reading and checking the alert or saved-view body that `wfkit alerts create` and `wfkit
 * views create` send: the same analysis, config policy and fault display as `wfkit check`,
 * so a file gets one verdict from check, the editor and these commands. A body with errors
 * is never sent (exit 1). The file must be recognised as that body the way `wfkit check`
 * recognises it (core's `bodyKindOf`: its name, then `$schema`).
 */
import type { SignalsClient } from "@wfkit/client";
import { defaultCatalogue } from "@wfkit/core";
import { stringFlag, type ParsedArgs } from "./args.js";
import { checkSource } from "./check-file.js";
import { ConfigResolver } from "./config.js";
import { CliError, UsageError } from "./errors.js";
import type { Io } from "./io.js";
import { printable } from "./printable.js";
import { printJson } from "./remote.js";
import { connectSignals, reportingSignalsRefusals } from "./signals-remote.js";
import { errorCount, printFaults } from "./single-source.js";
import { readSourceInput } from "./source-input.js";

export type BodyFileKind = "alert" | "view";

const NAMES: Record<BodyFileKind, { body: string; suffix: string; schema: string; command: string }> = {
  alert: { body: "an alert body", suffix: ".alert.json", schema: "https://wfkit.dev/schema/alert.schema.json", command: "wfkit alerts create" },
  view: { body: "a saved-view body", suffix: ".view.json", schema: "https://wfkit.dev/schema/view.schema.json", command: "wfkit views create" },
};

/** The checked body, ready to send; or undefined after its faults were printed (exit 1). Problems reading it throw (exit 2). */
export async function checkedBodyFile(positionals: readonly string[], io: Io, kind: BodyFileKind, command: string, config: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (positionals.length !== 1) throw new UsageError(`give the one ${NAMES[kind].suffix} file to send${positionals.length > 1 ? ` (got ${positionals.length}: ${positionals.join(" ")})` : ""}`, command);
  const source = await readSourceInput(positionals[0]!, io, undefined);
  const { policy } = new ConfigResolver(io.cwd, config).fileProject(source.absolutePath, undefined);
  const checked = checkSource(source.displayPath, source.text, source.language, { catalogue: defaultCatalogue, severity: policy.severity });
  const shown = printable(source.displayPath);
  const recognised = checked.bodyKind === kind;
  // A file that does not parse has no kind yet: its syntax errors say more than its name would.
  if (!recognised && checked.definition !== undefined) {
    const { body, suffix, schema } = NAMES[kind];
    const other = checked.bodyKind ? NAMES[checked.bodyKind] : undefined;
    throw new CliError(
      other
        ? `${shown} is ${other.body}, not ${body}; send it with \`${other.command}\``
        : `${shown} is not recognised as ${body}, so \`wfkit check\` would judge it as a workflow definition: name it *${suffix}, or add "$schema": "${schema}"`,
    );
  }
  printFaults(io, checked.report);
  if (errorCount(checked.report) > 0 || !recognised) {
    io.stderr.write(`wfkit: ${shown} has errors; nothing was sent (the service would refuse it too)\n`);
    return undefined;
  }
  return checked.definition as Record<string, unknown>;
}

/**
 * `alerts create FILE` and `views create FILE`: check the body (its faults need neither the
 * service nor a credential), then send it with the alert token and show what was made.
 */
export async function createFromBodyFile<T>(
  args: ParsedArgs,
  io: Io,
  files: readonly string[],
  kind: BodyFileKind,
  command: string,
  send: (client: SignalsClient, body: Record<string, unknown>) => Promise<T>,
  show: (created: T) => { json: Record<string, unknown>; text: string },
): Promise<number> {
  const body = await checkedBodyFile(files, io, kind, command, stringFlag(args, "config"));
  if (!body) return 1;
  const remote = connectSignals(args, io, command, "alert-token");
  return reportingSignalsRefusals(io, remote, command, async () => {
    const shown = show(await send(remote.client, body));
    if (remote.format === "json") printJson(io, shown.json);
    else io.stdout.write(shown.text);
    return 0;
  });
}
