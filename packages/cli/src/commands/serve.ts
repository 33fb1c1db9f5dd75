/** `wfkit serve`: the Workflows API and the Consumer Signals API (sample data) on a local port (@wfkit/service). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { booleanFlag, countFlag, parseCommandArgs, stringFlag } from "../args.js";
import { catalogueAt } from "../catalogue-file.js";
import { CliError, describeFsError, UsageError } from "../errors.js";
import { displayPathOf } from "../files.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { loadService } from "../siblings.js";
import { serveSpec } from "./specs.js";

type ServiceModule = typeof import("@wfkit/service");
type AiLimit = import("@wfkit/service").AiLimit;

function readJsonFile(file: string, what: string, io: Io): { value: unknown; shown: string } {
  const shown = displayPathOf(file, io.cwd);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read the ${what}: ${describeFsError(error, shown)}`);
  }
  try {
    return { value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text), shown };
  } catch (error) {
    throw new CliError(`${shown}: the ${what} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

export async function runServe(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(serveSpec, argv);
  if (args.positionals.length) throw new UsageError(`serve takes no paths (got \`${args.positionals[0]}\`)`, "serve");
  const port = countFlag(args, "port", "serve") ?? 8787;
  if (port > 65535) throw new UsageError(`--port must be at most 65535 (got ${port})`, "serve");
  const hostname = stringFlag(args, "host") ?? "127.0.0.1";
  const json = booleanFlag(args, "json");
  const recover = booleanFlag(args, "recover");
  const resolve = (flag: string) => {
    const value = stringFlag(args, flag);
    return value === undefined ? undefined : path.resolve(io.cwd, value);
  };
  const limitText = stringFlag(args, "signals-ai-limit");
  const dbFile = resolve("db");
  if (recover && !dbFile) throw new UsageError("--recover repairs the journal of a --db FILE; give --db", "serve");
  const catalogueFile = resolve("catalogue");

  // Loaded only here: the HTTP server and the WebAssembly SQLite are most of its weight.
  const service: ServiceModule = await loadService();
  const catalogue = catalogueAt(catalogueFile, io.cwd);
  const load = <T>(flag: string, what: string, loader: (value: unknown, shown: string) => T): T | undefined => {
    const file = resolve(flag);
    if (file === undefined) return undefined;
    const { value, shown } = readJsonFile(file, what, io);
    try {
      return loader(value, shown);
    } catch (error) {
      if (error instanceof service.ConfigFileError) throw new CliError(error.message);
      throw error;
    }
  };
  const seed = load("seed", "seed file", service.loadSeed);
  const mocks = load("mocks", "mock file", (value, shown) => service.loadMocks(value, shown, catalogue));
  let signalsAiLimit: AiLimit | undefined;
  if (limitText !== undefined) {
    const parsed = service.parseAiLimit(limitText);
    if (!parsed.ok) throw new UsageError(`--signals-ai-limit: ${parsed.message}`, "serve");
    signalsAiLimit = parsed.limit;
  }

  // What the operator should hear about the database: a recovery, a torn last entry dropped,
  // a stale lock taken over (one line each, on stderr, also with --json).
  const notices: string[] = [];
  if (recover && dbFile) {
    // Recovered on its own, then opened as on any start: the journal is set aside and the
    // snapshot holds every intact entry before the service sees the file.
    try {
      const store = await service.Store.open(dbFile, undefined, { recover: true });
      notices.push(...store.notices);
      store.close();
    } catch (error) {
      if (error instanceof service.StoreError) throw new CliError(error.message);
      throw error;
    }
  }

  let server: Awaited<ReturnType<ServiceModule["startServer"]>>;
  try {
    server = await service.startServer({ port, hostname, ...(dbFile ? { db: dbFile } : {}), ...(seed ? { seed } : {}), catalogue, ...(mocks ? { mocks } : {}), ...(signalsAiLimit ? { signalsAiLimit } : {}) });
  } catch (error) {
    if (error instanceof service.StoreError) throw new CliError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new CliError(`port ${port} on ${hostname} is already in use; pick another with --port (0 takes a free one)`);
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") throw new CliError(`cannot listen on ${hostname}: no such local address`);
    if (code === "EACCES") throw new CliError(`not allowed to listen on port ${port} (ports below 1024 need privileges)`);
    throw error;
  }

  // Listening for SIGINT and SIGTERM before saying it is ready: a script that stops it as
  // soon as it reads the first line gets a clean stop, not the default kill.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop).off("SIGTERM", stop);
      if (!json) io.stderr.write(`wfkit serve: ${signal}: stopping\n`);
      void server.stop().then(resolve);
    };
    process.on("SIGINT", stop).on("SIGTERM", stop);
  });
  for (const notice of [...notices, ...server.service.store.notices]) io.stderr.write(`wfkit serve: ${printable(notice)}\n`);

  const keys = server.service.issuedKeys;
  const keyFor = (role: "read" | "write") => keys.find((key) => key.role === role)?.key ?? null;
  const signals = server.service.signalsCredentials();
  const limit = server.service.signals.limiter.limit;
  if (json) {
    io.stdout.write(
      JSON.stringify({
        baseUrl: server.baseUrl,
        signalsBaseUrl: server.signalsBaseUrl,
        keys: { read: keyFor("read"), write: keyFor("write"), jwt: signals.jwt, alertToken: signals.alertToken },
        adminToken: server.service.adminToken,
      }) + "\n",
    );
  } else {
    const persistence = dbFile ? `${displayPathOf(dbFile, io.cwd)} (every acknowledged change is on disk)` : "in memory (gone when it stops; --db FILE keeps it)";
    // The addresses as the commands take them (base URLs: the clients add /api/v1 and /api
    // themselves), then the lines to paste into the shell that runs them.
    const exports = [
      `export WFKIT_BASE_URL=${server.baseUrl}`,
      `export WFKIT_SIGNALS_URL=${server.signalsBaseUrl}`,
      ...(keyFor("write") ? [`export WFKIT_TOKEN=${keyFor("write")}`] : []),
      ...(signals.jwt ? [`export WFKIT_SIGNALS_JWT=${signals.jwt}`] : []),
      ...(signals.alertToken ? [`export WFKIT_ALERT_TOKEN=${signals.alertToken}`] : []),
    ];
    const lines = [
      `wfkit serve: the Workflows API at ${server.baseUrl} (its routes under /api/v1)`,
      `  Consumer Signals API (SAMPLE data) at ${server.signalsBaseUrl} (its routes under /api); AI endpoints limited to ${limit.max} per ${formatWindow(limit.windowMs)} per user`,
      `  data:        ${persistence}`,
      `  admin token: ${server.service.adminToken}  (${server.baseUrl}/__admin, loopback only)`,
      keys.length ? "  API keys (shown once; only their hash is kept):" : "  API keys: none new (keys seeded earlier were shown when they were made)",
      ...keys.map((key) => `    ${(key.role ?? key.id).padEnd(6)} ${key.key}`),
      `  signals JWT (12 hours): ${signals.jwt ?? "none (the seed has no users)"}`,
      `  alert token: ${signals.alertToken ?? "none new (a token seeded earlier was shown when it was made)"}`,
      "For wfkit in another shell (deploy, run, signals...):",
      ...exports.map((line) => `  ${line}`),
      "Stop with Ctrl-C.",
    ];
    io.stdout.write(lines.join("\n") + "\n");
  }
  if (!isLoopbackHost(hostname)) io.stderr.write(`wfkit serve: warning: listening on ${hostname}, not loopback; anyone who can reach it can use the seeded keys\n`);

  await stopped;
  return 0;
}

function formatWindow(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}
