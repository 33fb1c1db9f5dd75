/**
 * A hostile HTTP server on 127.0.0.1 for the transport's tests (the client's and the built
 * CLI's): each request is logged (method, path, headers, body) and handed to a handler the
 * test sets, which may answer anything, redirect anywhere, stall, or never answer. `close`
 * destroys every connection still open, so a test never waits on one it left hanging.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Logged {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (request: Logged, response: ServerResponse) => void;

export interface HostileServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  port: number;
  log: Logged[];
  /** Bytes written to answers so far, and how many answers' connections closed before they ended. */
  written: { bytes: number; cutOff: number };
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Answers `value` as JSON with status 200 (or `status`). */
export function json(response: ServerResponse, value: unknown, status = 200): void {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  response.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  response.end(text);
}

/**
 * Streams `chunk` (with `status`) until `total` bytes have gone, or forever when `total` is Infinity, with
 * backpressure, stopping when the client goes away (counted in `written`).
 */
export function stream(server: HostileServer, response: ServerResponse, chunk: Buffer, total = Infinity, headers: Record<string, string | number> = {}, status = 200): void {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  let sent = 0;
  let closed = false;
  response.on("close", () => {
    closed = true;
    if (!response.writableFinished) server.written.cutOff++;
  });
  const pump = () => {
    while (!closed && sent < total) {
      const piece = total - sent < chunk.length ? chunk.subarray(0, total - sent) : chunk;
      sent += piece.length;
      server.written.bytes += piece.length;
      if (!response.write(piece)) return void response.once("drain", pump);
    }
    if (!closed) response.end();
  };
  pump();
}

export async function startHostileServer(handler: Handler = (_request, response) => json(response, {})): Promise<HostileServer> {
  let current = handler;
  const log: Logged[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const logged: Logged = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      log.push(logged);
      current(logged, response);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const hostile: HostileServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    written: { bytes: 0, cutOff: 0 },
    handle: (next) => void (current = next),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return hostile;
}

/** A port on 127.0.0.1 that nothing listens on (one just closed): a connection there is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
