/**
 * `wfkit playground`: the playground page (packages/playground) served on loopback. The page's
 * files are embedded in the sibling bundle playground.mjs (see scripts/bundles.mjs), loaded
 * only here; the server answers GET and HEAD for those files and nothing else. The page runs
 * the language server in the browser and sends the text nowhere, this server included.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { booleanFlag, countFlag, parseCommandArgs } from "../args.js";
import { CliError, UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { loadPlaygroundFiles } from "../siblings.js";
import { playgroundSpec } from "./specs.js";

const DEFAULT_PLAYGROUND_PORT = 8788;
/** Loopback only: the page is for the person at this machine. */
const HOST = "127.0.0.1";

const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
};

/**
 * The page's Content Security Policy, as its <meta> states it (the one place it is written),
 * sent as a header too: a worker obeys the policy of its own response, not the page's <meta>.
 */
function policyOf(indexHtml: string): string {
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(indexHtml)?.[1];
  if (!policy) throw new Error("the playground's index.html states no Content-Security-Policy");
  return `${policy}; frame-ancestors 'none'`;
}

export function playgroundHandler(files: Readonly<Record<string, string>>): (request: IncomingMessage, response: ServerResponse) => void {
  const index = files["index.html"];
  if (index === undefined) throw new Error("the playground's files have no index.html");
  const headers = { "content-security-policy": policyOf(index), "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cache-control": "no-cache" };
  return (request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { ...headers, allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Only GET and HEAD: the playground is a static page.\n");
      return;
    }
    const name = new URL(request.url ?? "/", "http://playground.invalid").pathname.slice(1) || "index.html";
    const body = Object.hasOwn(files, name) ? files[name] : undefined;
    if (body === undefined) {
      response.writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" }).end("Not a file of the playground.\n");
      return;
    }
    const type = CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
    response.writeHead(200, { ...headers, "content-type": type, "content-length": Buffer.byteLength(body) });
    response.end(request.method === "HEAD" ? undefined : body);
  };
}

export async function runPlayground(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(playgroundSpec, argv);
  if (args.positionals.length) throw new UsageError(`playground takes no paths (got \`${args.positionals[0]}\`); open a file's text in the page, or pick an example there`, "playground");
  const port = countFlag(args, "port", "playground") ?? DEFAULT_PLAYGROUND_PORT;
  if (port > 65535) throw new UsageError(`--port must be at most 65535 (got ${port})`, "playground");
  const json = booleanFlag(args, "json");

  // Loaded only here: the page's scripts are about 2 MB.
  const { playgroundFiles } = await loadPlaygroundFiles();
  const server = createServer(playgroundHandler(playgroundFiles));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, HOST, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new CliError(`port ${port} on ${HOST} is already in use; pick another with --port (0 takes a free one)`);
    if (code === "EACCES") throw new CliError(`not allowed to listen on port ${port} (ports below 1024 need privileges)`);
    throw error;
  }
  const url = `http://${HOST}:${(server.address() as AddressInfo).port}/`;
  io.stdout.write(json ? `${JSON.stringify({ url })}\n` : `wfkit playground: ${url}\n  The page checks what you type in the browser and sends it nowhere. Stop with Ctrl-C.\n`);

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop).off("SIGTERM", stop);
      if (!json) io.stderr.write(`wfkit playground: ${signal}: stopping\n`);
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.on("SIGINT", stop).on("SIGTERM", stop);
  });
  return 0;
}
