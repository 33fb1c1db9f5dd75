/** `wfkit alerts create FILE`: check the alert body as `wfkit check` would, then create the alert. */
import { parseCommandArgs, stringFlag } from "../args.js";
import { UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { printJson } from "../remote.js";
import { checkedBodyFile } from "../signals-body.js";
import { connectSignals, reportingSignalsRefusals } from "../signals-remote.js";
import { alertsSpec } from "./specs.js";

export async function runAlerts(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(alertsSpec, argv);
  const [action, ...files] = args.positionals;
  if (action !== "create") throw new UsageError("say what to do: `alerts create FILE`", "alerts");
  // The body first: its faults need no service, nor a credential.
  const body = await checkedBodyFile(files, io, "alert", "alerts", stringFlag(args, "config"));
  if (!body) return 1;
  const remote = connectSignals(args, io, "alerts", "alert-token");
  return reportingSignalsRefusals(io, remote, "alerts", async () => {
    const alert = await remote.client.createAlert(body);
    if (remote.format === "json") printJson(io, { ok: true, alert });
    else {
      const threshold = typeof alert.threshold === "number" ? ` ${alert.threshold}` : "";
      io.stdout.write(`Created alert ${printable(String(alert.id))} (${printable(String(alert.name))}): ${printable(String(alert.type))} ${printable(String(alert.condition))}${threshold}, notifying ${printable(String(alert.email))}${alert.active === false ? " (inactive)" : ""}\n`);
    }
    return 0;
  });
}
