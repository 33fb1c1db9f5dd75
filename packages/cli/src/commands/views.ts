/** `wfkit views list | create FILE | delete ID`: saved views, a body checked as `wfkit check` would before it is sent. */
import type { SavedView } from "@wfkit/client";
import { parseCommandArgs, stringFlag } from "../args.js";
import { UsageError } from "../errors.js";
import { Suggester } from "@wfkit/core";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { columnWidths, printJson } from "../remote.js";
import { createFromBodyFile } from "../signals-body.js";
import { connectSignals, reportingSignalsRefusals } from "../signals-remote.js";
import { viewsSpec } from "./specs.js";

export async function runViews(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(viewsSpec, argv);
  const [action, ...rest] = args.positionals;
  if (!(action === "list" && !rest.length) && action !== "create" && !(action === "delete" && rest.length === 1)) throw new UsageError(usageProblem(action, rest), "views");
  if (action !== "create" && stringFlag(args, "config") !== undefined) throw new UsageError("--config applies to `views create` only", "views");
  if (action === "create")
    return createFromBodyFile(
      args,
      io,
      rest,
      "view",
      "views",
      (client, body) => client.createView(body),
      (view) => ({ json: { ok: true, view }, text: `Saved view ${printable(view.id)} (${printable(view.name)}, ${printable(view.geography)})\n` }),
    );
  const remote = connectSignals(args, io, "views", "alert-token");
  const { client, format } = remote;
  if (action === "delete") {
    const id = rest[0]!;
    return reportingSignalsRefusals(io, remote, "views", async () => {
      await client.deleteView(id);
      if (format === "json") printJson(io, { ok: true, deleted: id });
      else io.stdout.write(`Deleted saved view ${printable(id)}\n`);
      return 0;
    });
  }
  return reportingSignalsRefusals(io, remote, "views", async () => {
    const views = await client.views();
    if (format === "json") printJson(io, { views });
    else io.stdout.write(renderViews(views));
    return 0;
  });
}

/** What is wrong with `views ACTION REST...`: the missing or extra part named, not the whole usage again. */
function usageProblem(action: string | undefined, rest: readonly string[]): string {
  const all = "`views list`, `views create FILE` or `views delete ID`";
  if (action === undefined) return `say what to do: ${all}`;
  if (action === "list") return `\`views list\` takes nothing more (got \`${rest.join(" ")}\`)`;
  if (action === "delete")
    return rest.length === 0
      ? "`views delete` needs the id of the saved view to delete, as in `wfkit views delete view_123` (`wfkit views list` shows them)"
      : `\`views delete\` takes one ID (got ${rest.length}: ${rest.join(" ")})`;
  const close = new Suggester().closest(action, ["list", "create", "delete"]);
  return close ? `unknown action \`${action}\`; did you mean \`${close}\`?` : `say what to do: ${all} (\`${action}\` is none of them)`;
}

function renderViews(views: SavedView[]): string {
  if (!views.length) return "no saved views\n";
  const rows = views.map((view) => [printable(view.id), printable(view.geography), printable(view.name), view.driver_ids.map((id) => printable(id)).join(","), printable(view.question)]);
  const widths = columnWidths(rows, 4);
  return rows.map((row) => row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join("  ").trimEnd()).join("\n") + "\n";
}
