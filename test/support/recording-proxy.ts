/**
 * A loopback proxy in front of a server, recording what passes through it
 * (./recording-fetch.ts), for a client in another process (the built CLI): it sends to the
 * proxy's base URL, the proxy records each request and passes it on unchanged, and the
 * server's answer comes back as it was.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { recordingFetch, type RecordedRequest, type RecordingFetchOptions } from "./recording-fetch.js";

export interface RecordingProxy {
  /** The proxy's address plus the base path: what the client is given. */
  baseUrl: string;
  log: RecordedRequest[];
  close(): Promise<void>;
}

/** Headers of one hop, which each side of the proxy writes for itself. */
const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "host", "upgrade", "proxy-connection", "te", "trailer"]);
function passed(headers: Headers): Headers {
  const kept = new Headers();
  headers.forEach((value, name) => {
    if (!HOP.has(name.toLowerCase())) kept.append(name, value);
  });
  return kept;
}

/** A proxy to `origin` (`http://127.0.0.1:PORT`), recording requests under `options.basePath`. */
export async function recordingProxy(origin: string, options: RecordingFetchOptions): Promise<RecordingProxy> {
  const recorder = recordingFetch(async (request) => {
    const url = new URL(request.url);
    const answer = await fetch(origin + url.pathname + url.search, {
      method: request.method,
      headers: passed(request.headers),
      body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
      redirect: "manual",
    });
    const body = answer.status === 204 || answer.status === 304 ? null : await answer.arrayBuffer();
    return new Response(body, { status: answer.status, headers: passed(answer.headers) });
  }, options);
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: (request) => recorder.fetch(request), port: 0, hostname: "127.0.0.1" }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${options.basePath}`,
    log: recorder.log,
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
