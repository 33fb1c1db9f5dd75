/**
 * `wfkit alerts list`: the caller's alerts (with the alert token). The reference shows that
 * `GET /api/alerts` exists but not its answer, so the answer is read leniently: a list of
 * alert records (or an object holding one under `alerts`), each field shown only if there.
 * `wfkit alerts create FILE`: check the alert body as `wfkit check` would, then create the alert.
 * `wfkit alerts notifications`: what a local `wfkit serve`'s alerts triggered, which it records
 * instead of sending (its admin surface, with the admin token).
 */
import path from "node:path";
import { isSignalsError, listNotifications, SignalsApiError, SignalsNetworkError, SignalsProtocolError, type AlertNotification } from "@wfkit/client";
import { readRegularFile } from "@wfkit/project";
import { parseCommandArgs, stringFlag, type ParsedArgs } from "../args.js";
import { CliError, UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { columnWidths, printJson, retryBudgetMs, serviceUrlOf, timeoutMsOf } from "../remote.js";
import { createFromBodyFile } from "../signals-body.js";
import { connectSignals, reportingSignalsRefusals, signalsFormat } from "../signals-remote.js";
import { alertsSpec } from "./specs.js";

const USAGE = "say what to do: `alerts list`, `alerts create FILE` or `alerts notifications`";

export async function runAlerts(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(alertsSpec, argv);
  const [action, ...files] = args.positionals;
  if (action === "notifications") {
    if (files.length) throw new UsageError(`\`alerts notifications\` takes no arguments (got ${files.join(" ")})`, "alerts");
    if (stringFlag(args, "config") !== undefined) throw new UsageError("--config applies to `alerts create` only", "alerts");
    return notifications(args, io);
  }
  if (action === "list") {
    if (files.length) throw new UsageError(`\`alerts list\` takes no arguments (got ${files.join(" ")})`, "alerts");
    if (stringFlag(args, "config") !== undefined) throw new UsageError("--config applies to `alerts create` only", "alerts");
    return list(args, io);
  }
  if (action !== "create") throw new UsageError(USAGE, "alerts");
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

/** wfkit serve's base URL: `--base-url`, else WFKIT_SIGNALS_URL, with the Consumer Signals base path (`/signals`) taken off. */
function serviceUrl(args: ParsedArgs, io: Io): string {
  const given = serviceUrlOf(args, io, "alerts", "WFKIT_SIGNALS_URL");
  if (!given) throw new CliError("no service address: give --base-url URL or set WFKIT_SIGNALS_URL (`wfkit serve --json` prints the local one as `signalsBaseUrl`; its `baseUrl` works too)");
  return given.replace(/\/+$/, "").replace(/\/signals$/, "");
}

/** The admin token: the file `--token-file` names, else WFKIT_ADMIN_TOKEN (never a flag value). */
function adminToken(args: ParsedArgs, io: Io): string {
  const file = stringFlag(args, "token-file");
  if (file !== undefined) {
    const read = readRegularFile(path.resolve(io.cwd, file));
    if (!read.ok) throw new CliError(`cannot read the admin token from ${file}: ${read.reason}`);
    const token = read.text.trim();
    // Never quote the file: it holds (or was meant to hold) a secret.
    if (!token || /\s/.test(token)) throw new CliError(`${file} must hold the admin token and nothing else`);
    return token;
  }
  const token = io.env.WFKIT_ADMIN_TOKEN?.trim();
  if (token) return token;
  throw new CliError("no admin token: set WFKIT_ADMIN_TOKEN (`wfkit serve` prints it at start, and `--json` as `adminToken`), or give --token-file FILE");
}

async function notifications(args: ParsedArgs, io: Io): Promise<number> {
  const format = signalsFormat(args, "alerts");
  const url = serviceUrl(args, io);
  const token = adminToken(args, io);
  try {
    const answer = await listNotifications({ serviceUrl: url, adminToken: token, timeoutMs: timeoutMsOf(args, io, "alerts"), retry: { budgetMs: retryBudgetMs(io) } });
    if (format === "json") printJson(io, answer);
    else io.stdout.write(renderNotifications(answer.notifications));
    return 0;
  } catch (error) {
    if (!isSignalsError(error)) throw error;
    const message = explain(error, url);
    if (format === "json") printJson(io, { error: { ok: false, kind: error.kind, message, ...(error instanceof SignalsApiError ? { status: error.status } : {}) } });
    io.stderr.write(`wfkit: ${printable(message)}\n`);
    return error instanceof SignalsApiError ? 1 : 2;
  }
}

function explain(error: unknown, url: string): string {
  if (error instanceof SignalsNetworkError) return `${error.message}; is wfkit serve running there?`;
  if (error instanceof SignalsProtocolError) return `${error.message} (notifications are recorded by a local wfkit serve only)`;
  if (!(error instanceof SignalsApiError)) return "stopped: the request was interrupted";
  const tag = `(${error.status} on ${error.request})`;
  if (error.status === 403) return `the admin surface refused ${tag}: ${error.message} Check WFKIT_ADMIN_TOKEN or the --token-file file.`;
  if (error.status === 404) return `${url} has no admin surface ${tag}: notifications are recorded by a local wfkit serve only, not by a real service. Give wfkit serve's address.`;
  return `refused ${tag}: ${error.message}`;
}

/** One line per notification: when, the alert, what it watched, the value, the address(es); then what was seen. */
function renderNotifications(list: readonly AlertNotification[]): string {
  if (!list.length) return "no notifications (alerts are judged at the end of each period on the service clock)\n";
  const rows = list.map((n) => [
    printable(n.notifiedAt),
    printable(n.alertId),
    `${printable(n.type)} ${printable(n.condition)}${n.threshold !== undefined ? ` ${n.threshold}` : ""}`,
    n.value === null ? "-" : String(n.value),
    [n.email, ...(n.whatsappNumber !== undefined ? [n.whatsappNumber] : [])].map((address) => printable(address)).join(", "),
  ]);
  const widths = columnWidths(rows, 4);
  const lines = rows.map((row, i) => `${row.map((cell, column) => (column < 4 ? cell.padEnd(widths[column]!) : cell)).join("  ")}\n    ${printable(list[i]!.detail)}`);
  return `${lines.join("\n")}\n${list.length} notification(s), recorded, not sent\n`;
}

async function list(args: ParsedArgs, io: Io): Promise<number> {
  const remote = connectSignals(args, io, "alerts", "alert-token");
  return reportingSignalsRefusals(io, remote, "alerts", async () => {
    const answer = await remote.client.alerts();
    const alerts = Array.isArray(answer) ? answer : isRecord(answer) && Array.isArray(answer.alerts) ? answer.alerts : undefined;
    if (remote.format === "json") printJson(io, { alerts: alerts ?? answer });
    else if (!alerts) io.stderr.write("wfkit: the service's answer to GET /api/alerts is not a list of alerts; `wfkit alerts list --json` shows it as it came\n");
    else io.stdout.write(renderAlerts(alerts));
    return alerts || remote.format === "json" ? 0 : 2;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One line per alert: id, active or not, what it watches, its name, who it notifies. Fields the answer lacks are left out. */
function renderAlerts(alerts: readonly unknown[]): string {
  if (!alerts.length) return "no alerts (`wfkit alerts create FILE.alert.json` makes one)\n";
  const text = (value: unknown) => (value === undefined || value === null ? "" : printable(typeof value === "string" ? value : JSON.stringify(value)));
  const rows = alerts.map((alert) => {
    const record = isRecord(alert) ? alert : {};
    const watches = [record.type, record.condition, record.threshold, record.geography].filter((part) => part !== undefined && part !== null).map(text).join(" ");
    const addresses = [record.email, record.whatsapp_number].filter((part) => typeof part === "string").map(text).join(", ");
    return [text(record.id), record.active === false ? "inactive" : record.active === true ? "active" : "", watches, text(record.name), addresses];
  });
  const widths = columnWidths(rows, 4);
  return rows.map((row) => row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join("  ").trimEnd()).join("\n") + `\n${alerts.length} alert(s)\n`;
}
