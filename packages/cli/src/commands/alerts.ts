/** `wfkit alerts create FILE`: check the alert body as `wfkit check` would, then create the alert. */
import { parseCommandArgs } from "../args.js";
import { UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { createFromBodyFile } from "../signals-body.js";
import { alertsSpec } from "./specs.js";

export async function runAlerts(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(alertsSpec, argv);
  const [action, ...files] = args.positionals;
  if (action !== "create") throw new UsageError("say what to do: `alerts create FILE`", "alerts");
  return createFromBodyFile(
    args,
    io,
    files,
    "alert",
    "alerts",
    (client, body) => client.createAlert(body),
    (alert) => {
      // The alert record's fields beyond those listed are not shown: print what is there, as text.
      const field = (name: string) => printable(String(alert[name]));
      const threshold = typeof alert.threshold === "number" ? ` ${alert.threshold}` : "";
      const text = `Created alert ${field("id")} (${field("name")}): ${field("type")} ${field("condition")}${threshold}, notifying ${field("email")}${alert.active === false ? " (inactive)" : ""}\n`;
      return { json: { ok: true, alert }, text };
    },
  );
}
