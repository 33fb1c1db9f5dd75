/**
 * The service on a port (@hono/node-server), with a clean stop: on `stop()` the server stops
 * accepting connections, lets requests in flight finish (each acknowledged write is already
 * on disk, since a transaction is durable before its response is sent), then folds the
 * journal into the snapshot and closes the database.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createApp } from "./app.js";
import { WorkflowsService, type ServiceOptions } from "./service.js";
import { SIGNALS_BASE_PATH } from "./signals/policy.js";

export interface ServerOptions extends ServiceOptions {
  port?: number;
  hostname?: string;
}

export interface RunningServer {
  service: WorkflowsService;
  baseUrl: string;
  /** `{signals_base_url}` of the Consumer Signals API: the base URL plus its base path. */
  signalsBaseUrl: string;
  port: number;
  stop(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const service = await WorkflowsService.create(options);
  const app = createApp(service);
  const hostname = options.hostname ?? "127.0.0.1";
  let server: ServerType;
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server = serve({ fetch: app.fetch, port: options.port ?? 8787, hostname }, (info) => resolve(info));
    server.once("error", reject);
  });
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let stopping: Promise<void> | undefined;
  return {
    service,
    baseUrl: `http://${host}:${address.port}`,
    signalsBaseUrl: `http://${host}:${address.port}${SIGNALS_BASE_PATH}`,
    port: address.port,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        server.close(() => {
          service.close();
          resolve();
        });
        (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      })),
  };
}
