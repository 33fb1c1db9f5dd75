/**
 * What the commands that call the Consumer Signals API share (`signals`, `alerts`, `views`):
 * where the service is (`--base-url`, then `WFKIT_SIGNALS_URL`), the credential its endpoints
 * take (the JWT, `WFKIT_SIGNALS_JWT`, for data; the alert token, `WFKIT_ALERT_TOKEN`, for
 * alerts and views; or the file `--token-file` names, never a flag value, which shell history
 * would keep), the output format (`--json` is `--format json`), and what each refusal tells
 * the user to do.
 *
 * Timeouts, retry announcements and the retry budget are `remote.ts`'s (`--timeout`,
 * WFKIT_TIMEOUT, WFKIT_RETRY_BUDGET_MS), as for the Workflows commands.
 *
 * Exit codes: 1 when the service refused; 2 for a usage mistake (a parameter the client
 * refused to send included), a missing address or credential, a service not reached or not
 * answering in time, or an answer wfkit did not take (`bad_answer`).
 */
import path from "node:path";
import {
  isSignalsError,
  SIGNALS_REQUEST_CODES,
  SignalsApiError,
  SignalsClient,
  SignalsNetworkError,
  SignalsProtocolError,
  SignalsRateLimitError,
  SignalsRequestError,
  type SignalsError,
} from "@wfkit/client";
import { readRegularFile } from "@wfkit/project";
import { booleanFlag, stringFlag, type ParsedArgs } from "./args.js";
import { CliError, UsageError } from "./errors.js";
import type { Io } from "./io.js";
import { printable } from "./printable.js";
import { explainBadAnswer, explainNoAnswer, outputFormat, printJson, serviceUrlOf, transportOptions, type OutputFormat } from "./remote.js";

/** Which credential a command's endpoints take. */
export type SignalsCredential = "jwt" | "alert-token";

const CREDENTIALS: Record<SignalsCredential, { env: string; what: string }> = {
  jwt: { env: "WFKIT_SIGNALS_JWT", what: "the JWT" },
  "alert-token": { env: "WFKIT_ALERT_TOKEN", what: "the alert token" },
};

export interface SignalsRemote {
  client: SignalsClient;
  format: OutputFormat;
  credential: SignalsCredential;
}

/** `--json`, or `--format text|json`. */
export function signalsFormat(args: ParsedArgs, command: string): OutputFormat {
  const format = outputFormat(args, command);
  if (booleanFlag(args, "json")) {
    if (stringFlag(args, "format") === "text") throw new UsageError("--json and --format text contradict each other; give one", command);
    return "json";
  }
  return format;
}

/** The client for this command line, or a CliError (exit 2) saying what is missing. */
export function connectSignals(args: ParsedArgs, io: Io, command: string, credential: SignalsCredential): SignalsRemote {
  const format = signalsFormat(args, command);
  const baseUrl = signalsBaseUrl(args, io, command);
  const secret = credentialOf(args, io, credential);
  const client = new SignalsClient({
    baseUrl,
    ...(credential === "jwt" ? { jwt: secret } : { alertToken: secret }),
    ...transportOptions(args, io, command),
  });
  return { client, format, credential };
}

function signalsBaseUrl(args: ParsedArgs, io: Io, command: string): string {
  const given = serviceUrlOf(args, io, command, "WFKIT_SIGNALS_URL");
  if (given) return given;
  throw new CliError("no Consumer Signals API address: give --base-url URL or set WFKIT_SIGNALS_URL (`wfkit serve --json` prints the local one as `signalsBaseUrl`)");
}

function credentialOf(args: ParsedArgs, io: Io, credential: SignalsCredential): string {
  const { env, what } = CREDENTIALS[credential];
  const file = stringFlag(args, "token-file");
  if (file !== undefined) {
    const read = readRegularFile(path.resolve(io.cwd, file));
    if (!read.ok) throw new CliError(`cannot read ${what} from ${file}: ${read.reason}`);
    const token = read.text.trim();
    // Never quote the file: it holds (or was meant to hold) a secret.
    if (!token || /\s/.test(token)) throw new CliError(`${file} must hold ${what} and nothing else`);
    return token;
  }
  const token = io.env[env]?.trim();
  if (token) return token;
  throw new CliError(`no credential: this command needs ${what}; set ${env}, or give --token-file FILE (never a flag value: shell history would keep it)`);
}

/** The flag (or argument) a client parameter comes from, for usage errors. */
const FLAG_OF: Readonly<Record<string, string>> = { geography: "--geography", severity: "--severity", category: "--category", periods: "--periods", from: "--from", to: "--to", id: "ID" };

/** What happened and what to do, in one line without a credential. */
export function explainSignals(error: SignalsError, credential: SignalsCredential): string {
  if (error instanceof SignalsNetworkError) return explainNoAnswer(error, "reads were retried");
  if (error instanceof SignalsProtocolError) return explainBadAnswer(error);
  if (error instanceof SignalsRateLimitError) return error.message;
  if (error instanceof SignalsRequestError) return error.message;
  if (!(error instanceof SignalsApiError)) return "stopped: the request was interrupted";
  const tag = `(${error.status} on ${error.request})`;
  const { env, what } = CREDENTIALS[credential];
  switch (error.kind) {
    case "unauthenticated":
      return `the service refused ${what} ${tag}: it is missing, unknown or expired. Check ${env} or the --token-file file.`;
    case "forbidden":
      return `refused ${tag}: ${what} is not allowed to do this: ${error.message}`;
    case "not_found":
      return `not found ${tag}: ${error.message}`;
    case "bad_request":
      return `the service refused the request ${tag}: ${error.message}`;
    case "rate_limited":
      return `rate limited ${tag}: ${error.message}${error.rateLimit?.retryAfterSeconds !== undefined ? ` Try again in ${error.rateLimit.retryAfterSeconds} s.` : ""}`;
    case "unavailable":
      return `the service is unavailable ${tag}, and wfkit retried until its budget ran out: ${error.message} Try again later.`;
    default:
      return `refused ${tag}: ${error.message}`;
  }
}

/**
 * Runs a command's calls, turning a refusal into one line on stderr (and, with `--json`, a
 * JSON error on stdout) and its exit code. A parameter the client would not send is a usage
 * error naming its flag.
 */
export async function reportingSignalsRefusals(io: Io, remote: SignalsRemote, command: string, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (!isSignalsError(error)) throw error;
    if (error instanceof SignalsRequestError && error.code !== SIGNALS_REQUEST_CODES.bodyInvalid) {
      const flag = FLAG_OF[error.parameter];
      throw new UsageError(`${flag ? `${flag}: ` : ""}${error.message}`, command);
    }
    const message = explainSignals(error, remote.credential);
    if (remote.format === "json") printJson(io, { error: errorJson(error, message) });
    io.stderr.write(`wfkit: ${printable(message)}\n`);
    return error instanceof SignalsNetworkError || error instanceof SignalsProtocolError ? 2 : 1;
  }
}

function errorJson(error: SignalsError, message: string): Record<string, unknown> {
  const json: Record<string, unknown> = { ok: false, kind: error.kind, message };
  if (error instanceof SignalsNetworkError || error instanceof SignalsProtocolError) Object.assign(json, { reason: error.reason, request: error.request, retryable: error.retryable });
  if (error instanceof SignalsApiError) Object.assign(json, { status: error.status, request: error.request, retryable: error.retryable });
  if ((error instanceof SignalsApiError || error instanceof SignalsRateLimitError) && error.rateLimit) json.rateLimit = error.rateLimit;
  if (error instanceof SignalsRequestError) Object.assign(json, { code: error.code, parameter: error.parameter, ...(error.faults ? { faults: error.faults } : {}) });
  return json;
}

/** The columns to draw in: `--width`, else the terminal's, else `COLUMNS`, else 80. */
export function outputWidth(args: ParsedArgs, io: Io, command: string): number {
  const flag = stringFlag(args, "width");
  if (flag !== undefined) {
    if (!/^\d{1,4}$/.test(flag) || Number(flag) < 20) throw new UsageError(`--width must be a whole number of columns, 20 or more (got \`${flag}\`)`, command);
    return Number(flag);
  }
  if (io.stdout.columns && io.stdout.columns > 0) return io.stdout.columns;
  const env = io.env.COLUMNS;
  return env && /^\d{1,4}$/.test(env) && Number(env) >= 20 ? Number(env) : 80;
}
