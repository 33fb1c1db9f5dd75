/** In-process harness: a service on a manual clock, its app, and a caller that speaks JSON. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Clock, createApp, WorkflowsService, type ServiceOptions } from "../src/index.js";

export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
export const example = (name: string): Record<string, unknown> => JSON.parse(readFileSync(`${repoRoot}examples/${name}.json`, "utf8")) as Record<string, unknown>;

export interface Reply {
  status: number;
  body: any; // assertions read any member
  headers: Headers;
}

export interface CallOptions {
  credential?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export async function harness(options: ServiceOptions = {}) {
  const clock = options.clock ?? new Clock("manual");
  const service = await WorkflowsService.create({ ...options, clock });
  const app = createApp(service);
  const keyOf = (role: "read" | "write") => service.issuedKeys.find((key) => key.role === role)!.key;
  const keys = { read: keyOf("read"), write: keyOf("write") };
  async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    const credential = options.credential === undefined ? keys.write : options.credential;
    const headers: Record<string, string> = { "Content-Type": "application/json", ...(credential !== null ? { Authorization: `Bearer ${credential}` } : {}), ...options.headers };
    const init: RequestInit = { method, headers };
    if (options.rawBody !== undefined) init.body = options.rawBody;
    else if (options.body !== undefined) init.body = JSON.stringify(options.body);
    const env = options.ip === undefined ? undefined : { incoming: { socket: { remoteAddress: options.ip } } };
    const response = await app.request(path, init, env);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }
  const admin = (path: string, body: unknown = {}) => call("POST", `/__admin${path}`, { credential: service.adminToken, body });
  /** A workflow with `definition` saved and published; returns its id. */
  async function published(definition: unknown = example("grocer-compare"), credential = keys.write): Promise<string> {
    const workflow = await call("POST", "/api/v1/workflows", { body: { name: "test" }, credential });
    const id = workflow.body.workflow.id as string;
    const version = await call("POST", `/api/v1/workflows/${id}/versions`, { body: { scope: { graph: definition } }, credential });
    await call("POST", `/api/v1/workflows/${id}/versions/${version.body.version.id}/publish`, { credential });
    return id;
  }
  return { service, app, clock, keys, call, admin, published };
}
