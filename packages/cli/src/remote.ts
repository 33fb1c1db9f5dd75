/**
 * What every command that calls the Workflows API shares: where the service is (`--base-url`,
 * then `WFKIT_BASE_URL`, then `baseUrl` in wfkit.config.json), the credential (`WFKIT_TOKEN`
 * or the file `--token-file` names; never a flag value, which shell history would keep), the
 * `--format`, and what each refusal of the reference's error table tells the user to do.
 *
 * Each request waits at most `--timeout` seconds (else `WFKIT_TIMEOUT`, else 30), its answer's
 * body included; each retry is announced on stderr as it is about to happen.
 *
 * Exit codes: 1 when the service refused or the run failed, 2 for a usage mistake, a missing
 * base URL or credential, a service that could not be reached or did not answer in time, or
 * an answer wfkit did not take (a redirect to another origin, one too large, one not of its
 * endpoint's shape).
 */
import path from "node:path";
import { isWorkflowsError, WorkflowsApiError, WorkflowsClient, WorkflowsNetworkError, WorkflowsProtocolError, type RetryNotice, type WorkflowsError } from "@wfkit/client";
import { isServiceUrl, readRegularFile } from "@wfkit/project";
import type { ParsedArgs } from "./args.js";
import { choiceFlag, stringFlag } from "./args.js";
import { ConfigResolver } from "./config.js";
import { CliError, UsageError } from "./errors.js";
import type { Io } from "./io.js";
import { printable } from "./printable.js";

export type OutputFormat = "text" | "json";

export interface Remote {
  client: WorkflowsClient;
  baseUrl: string;
  format: OutputFormat;
}

export function outputFormat(args: ParsedArgs, command: string): OutputFormat {
  return choiceFlag<OutputFormat>(args, "format", ["text", "json"], "text", command);
}

/** The client for this command line, or a CliError (exit 2) saying what is missing. */
export function connect(args: ParsedArgs, io: Io, command: string, headers?: Record<string, string>): Remote {
  return { ...clientFor(args, io, command, headers), format: outputFormat(args, command) };
}

/** The client alone, for a command with formats of its own (`check --remote`); `headers` go with every request. */
export function clientFor(args: ParsedArgs, io: Io, command: string, headers?: Record<string, string>): Omit<Remote, "format"> {
  const baseUrl = baseUrlOf(args, io, command);
  activeBaseUrl = baseUrl;
  const credential = credentialOf(args, io);
  const client = new WorkflowsClient({ baseUrl, credential, ...transportOptions(args, io, command), ...(headers ? { headers } : {}) });
  return { client, baseUrl };
}

/**
 * What both clients of a command line share: the timeout, the retry budget, the retry
 * announcements and, with WFKIT_DEBUG, the debug lines.
 */
export function transportOptions(args: ParsedArgs, io: Io, command: string) {
  const debug = io.env.WFKIT_DEBUG ? (line: string) => io.stderr.write(`wfkit: debug: ${printable(line)}\n`) : undefined;
  return {
    timeoutMs: timeoutMsOf(args, io, command),
    retry: { budgetMs: retryBudgetMs(io) },
    onRetry: (notice: RetryNotice) => io.stderr.write(`wfkit: retrying in ${(notice.delayMs / 1000).toFixed(1)} s after ${printable(notice.message)}\n`),
    ...(debug ? { debug } : {}),
  };
}

/** The longest `--timeout` or WFKIT_TIMEOUT taken: an hour. */
const MAX_TIMEOUT_SECONDS = 3600;
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** How long one request may wait for its whole answer: `--timeout SECONDS`, else WFKIT_TIMEOUT, else 30 s. */
export function timeoutMsOf(args: ParsedArgs, io: Io, command: string): number {
  const flag = stringFlag(args, "timeout");
  if (flag !== undefined) {
    const seconds = secondsOf(flag);
    if (seconds === undefined) throw new UsageError(`--timeout must be a number of seconds greater than 0 and at most ${MAX_TIMEOUT_SECONDS}, such as 30 or 2.5 (got \`${flag}\`)`, command);
    return seconds * 1000;
  }
  const env = io.env.WFKIT_TIMEOUT;
  if (env !== undefined && env !== "") {
    const seconds = secondsOf(env);
    if (seconds === undefined) throw new CliError(`WFKIT_TIMEOUT must be a number of seconds greater than 0 and at most ${MAX_TIMEOUT_SECONDS}, such as 30 or 2.5`);
    return seconds * 1000;
  }
  return DEFAULT_TIMEOUT_SECONDS * 1000;
}

function secondsOf(text: string): number | undefined {
  if (!/^\s*\d{1,4}(\.\d{1,3})?\s*$/.test(text)) return undefined;
  const seconds = Number(text);
  return seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS ? seconds : undefined;
}

/** How long retries may take in all: `WFKIT_RETRY_BUDGET_MS` (for CI), else 20 s. */
export function retryBudgetMs(io: Io): number {
  const value = io.env.WFKIT_RETRY_BUDGET_MS;
  return value !== undefined && /^\d{1,7}$/.test(value) ? Number(value) : 20_000;
}

/** A service's address from `--base-url`, else from the environment variable `env`; undefined when neither is given. */
export function serviceUrlOf(args: ParsedArgs, io: Io, command: string, env: string): string | undefined {
  const flag = stringFlag(args, "base-url");
  if (flag !== undefined) {
    if (!isServiceUrl(flag)) throw new UsageError(`--base-url must be an http or https address such as https://example.test (got \`${flag}\`)`, command);
    return flag;
  }
  const value = io.env[env];
  if (value) {
    if (!isServiceUrl(value)) throw new CliError(`${env} must be an http or https address such as https://example.test`);
    return value;
  }
  return undefined;
}

/** The form a Workflows API base URL takes, for messages. */
const BASE_URL_FORM = "the address its /api/v1 routes hang under, such as http://127.0.0.1:8787 (what `wfkit serve` prints as WFKIT_BASE_URL)";

/**
 * The Workflows API's base URL, from --base-url, WFKIT_BASE_URL or the config's `baseUrl`. One
 * that ends in the API's own prefix (`http://host/api/v1`, as a browser or the docs show the
 * routes) means the same service, so the prefix is dropped here, the one place a base URL is
 * read: the client joins `/api/v1/...` onto it itself. (State in .wfkit/state.json is then kept
 * under the same key whichever way it was written.)
 */
function baseUrlOf(args: ParsedArgs, io: Io, command: string): string {
  const given = serviceUrlOf(args, io, command, "WFKIT_BASE_URL");
  if (given) return withoutApiPrefix(given);
  const config = new ConfigResolver(io.cwd).configFor(path.join(io.cwd, "wfkit.config.json"));
  if (config?.baseUrl) return withoutApiPrefix(config.baseUrl);
  throw new CliError("no Workflows API address: give --base-url URL, set WFKIT_BASE_URL, or add \"baseUrl\" to wfkit.config.json");
}

/** `http://host:8787/api/v1/` → `http://host:8787`; any other URL unchanged but for trailing slashes. */
export function withoutApiPrefix(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
}

/**
 * The base URL this command line connected to (a process runs one command), so that an
 * answer that does not look like the Workflows API can be explained naming it.
 */
let activeBaseUrl: string | undefined;

function credentialOf(args: ParsedArgs, io: Io): string {
  const file = stringFlag(args, "token-file");
  if (file !== undefined) {
    const read = readRegularFile(path.resolve(io.cwd, file));
    if (!read.ok) throw new CliError(`cannot read the credential from ${file}: ${read.reason}`);
    const token = read.text.trim();
    // Never quote the file: it holds (or was meant to hold) a secret.
    if (!token || /\s/.test(token)) throw new CliError(`${file} must hold one credential (an API key, session or OAuth token) and nothing else`);
    return token;
  }
  const token = io.env.WFKIT_TOKEN?.trim();
  if (token) return token;
  throw new CliError("no credential: set WFKIT_TOKEN, or give --token-file FILE (a credential is never taken as a flag value: shell history would keep it)");
}

/** Where `.wfkit/` lives: beside the nearest wfkit.config.json, else the working directory. */
export function projectRoot(io: Io): string {
  const config = new ConfigResolver(io.cwd).configFor(path.join(io.cwd, "wfkit.config.json"));
  return config ? path.dirname(config.path) : io.cwd;
}

/** What happened and what to do, for each row of the error table. One line, no credential. */
export function explain(error: WorkflowsError, subject: { workflow?: string } = {}): string {
  if (error instanceof WorkflowsNetworkError) return explainNoAnswer(error);
  if (error instanceof WorkflowsProtocolError)
    return error.reason === "not_json" || error.reason === "shape" ? `${error.message} A Workflows API base URL is ${BASE_URL_FORM}.` : explainBadAnswer(error);
  if (!(error instanceof WorkflowsApiError)) return "stopped: the wait was interrupted";
  if (isForeign(error)) {
    const where = activeBaseUrl ?? "the base URL";
    return `${where} does not look like the Workflows API: ${error.request} answered ${error.status} without the service's error body ({"error", "message"}), as some other server would. A Workflows API base URL is ${BASE_URL_FORM}; check --base-url, WFKIT_BASE_URL or "baseUrl" in wfkit.config.json.`;
  }
  const tag = `(${error.status} ${error.code})`;
  switch (error.kind) {
    case "unauthenticated":
      return `the credential was refused ${tag}: it is unknown, revoked or expired. Check WFKIT_TOKEN or the --token-file file.`;
    case "insufficient_scope":
      return error.requiredScope === "write:workflows"
        ? `refused ${tag}: this needs the write:workflows scope and the key is read-only. Use a write key (one with write:workflows) to deploy, run, deliver or cancel.`
        : `refused ${tag}: this needs the ${error.requiredScope ?? "missing"} scope, which the key does not have. Use a key with that scope.`;
    case "plan_required":
      return error.requiredFeature === "workflows_api"
        ? `refused ${tag}: the account's plan lacks the \`workflows_api\` feature (API access is on the two higher plans only). Upgrade the plan, or use the browser application.`
        : `refused ${tag}: the account's plan lacks the \`${error.requiredFeature ?? "workflows"}\` feature. Upgrade to a plan with Workflows.`;
    case "allowance_exhausted":
      return `refused ${tag}: the usage allowance for this period is exhausted, so no run was started and nothing was charged. It clears only when the period resets or the plan changes; retrying will not help.${amounts(error)}`;
    case "gate_required":
      return `refused ${tag}: an acceptance (such as updated terms) is outstanding on the account. Accept it in the browser application, then run the command again.`;
    case "no_published_version": {
      const workflow = subject.workflow ?? "the workflow";
      return `refused ${tag}: ${workflow} has no published version, and only a published version runs. Publish one with \`wfkit deploy FILE --workflow ${workflow} --publish\`.`;
    }
    case "usage_unavailable":
      return `refused ${tag}: the usage system could not be reached (${error.reason ?? "unknown reason"}); wfkit retried and gave up. No run was started and nothing was charged; run the command again later.`;
    case "workflows_unavailable":
      return `refused ${tag}: Workflows is not available in the account's region${typeof error.body.region === "string" ? ` (${error.body.region})` : ""}. Nothing was changed; use an account in a region that offers Workflows.`;
    case "validation_failed":
      return `the service refused the definition ${tag}: ${error.faults?.filter((f) => f.severity === "error").length ?? 0} error(s)${firstFaults(error)}. \`wfkit check --remote\` shows where it differs from wfkit's verdict.`;
    default:
      return `refused ${tag}: ${error.message}`;
  }
}

/** An answer not from the Workflows API at all (no error body of its shape): the base URL is wrong, which is exit 2 like no answer. */
function isForeign(error: WorkflowsError): boolean {
  return error instanceof WorkflowsApiError && error.foreign && error.kind === "other";
}

/** A request that got no answer, with what to check. Shared with the Consumer Signals commands. */
export function explainNoAnswer(error: { message: string; reason: string }, retried = "retried where safe"): string {
  if (error.reason === "blocked_port") return `${error.message}; is the service running, and is the base URL right? (not retried)`;
  if (error.reason === "timeout") return `${error.message}; is the service overloaded, or the address one that never answers? (${retried}; --timeout SECONDS or WFKIT_TIMEOUT allows longer)`;
  return `${error.message}; is the service running, and is the base URL right? (${retried})`;
}

/** An answer wfkit did not take (the message names the request and why). Shared with the Consumer Signals commands. */
export function explainBadAnswer(error: { message: string; reason: string }): string {
  return error.reason === "too_large" ? `${error.message}; is the base URL the service's?` : error.message;
}

function amounts(error: WorkflowsApiError): string {
  const details = error.body.details as { requiredMinorUnits?: unknown; availableMinorUnits?: unknown } | undefined;
  if (typeof details?.requiredMinorUnits !== "number" || typeof details.availableMinorUnits !== "number") return "";
  return ` (the run needs ${details.requiredMinorUnits} minor units; ${details.availableMinorUnits} are left)`;
}

function firstFaults(error: WorkflowsApiError): string {
  const faults = (error.faults ?? []).filter((f) => f.severity === "error").slice(0, 3);
  return faults.length ? `: ${faults.map((f) => `${f.code}${f.nodeId ? ` at node ${f.nodeId}` : ""}`).join("; ")}` : "";
}

/** The JSON a `--format json` command prints for a refusal. */
export function errorJson(error: WorkflowsError, message: string): Record<string, unknown> {
  const base: Record<string, unknown> = { ok: false, kind: error.kind, message };
  if (error instanceof WorkflowsNetworkError || error instanceof WorkflowsProtocolError) Object.assign(base, { reason: error.reason, request: error.request, retryable: error.retryable });
  if (error instanceof WorkflowsApiError) {
    Object.assign(base, { status: error.status, code: error.code, retryable: error.retryable });
    if (error.requiredScope) base.requiredScope = error.requiredScope;
    if (error.requiredFeature) base.requiredFeature = error.requiredFeature;
    if (error.reason) base.reason = error.reason;
    if (error.faults) base.faults = error.faults;
  }
  return { error: base };
}

/**
 * Runs a command's calls, turning a refusal into one line on stderr (or JSON on stdout with
 * `--format json`) and its exit code: 1 refused, 2 unreachable, timed out, an answer not
 * taken (`bad_answer`), or an answer from something that is not the Workflows API.
 */
export async function reportingRefusals(io: Io, format: OutputFormat, work: () => Promise<number>, subject: { workflow?: string } = {}): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!isWorkflowsError(error)) throw error;
    const message = explain(error, subject);
    if (format === "json") io.stdout.write(JSON.stringify(errorJson(error, message), null, 2) + "\n");
    io.stderr.write(`wfkit: ${printable(message)}\n`);
    return error instanceof WorkflowsNetworkError || error instanceof WorkflowsProtocolError || isForeign(error) ? 2 : 1;
  }
}

/**
 * The widest cell of each of the first `count` columns, by a loop: an answer's rows can be
 * hundreds of thousands, too many to spread into `Math.max` (a RangeError past ~100,000).
 */
export function columnWidths(rows: readonly (readonly string[])[], count: number): number[] {
  const widths = new Array<number>(count).fill(0);
  for (const row of rows) for (let i = 0; i < count; i++) widths[i] = Math.max(widths[i]!, row[i]?.length ?? 0);
  return widths;
}

/** The largest (or, with `smallest`, the smallest) of `values` by a loop, never a spread; `empty` when there are none. */
export function extremeOf(values: Iterable<number>, smallest = false, empty = 0): number {
  let found: number | undefined;
  for (const value of values) if (found === undefined || (smallest ? value < found : value > found)) found = value;
  return found ?? empty;
}

/** Appends `items` to `lines` one by one (never `push(...items)`, which overflows the stack for a large list). */
export function append<T>(lines: T[], items: readonly T[]): T[] {
  for (const item of items) lines.push(item);
  return lines;
}

export function printJson(io: Io, value: unknown): void {
  io.stdout.write(JSON.stringify(value, null, 2) + "\n");
}
