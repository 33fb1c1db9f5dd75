/**
 * The fidelity tests' harness: the service on a loopback port in this process, on a manual
 * clock (2026-01-01T00:00Z, a Thursday), spoken to over real HTTP, both APIs and the admin
 * surface, with the credentials `wfkit serve --json` prints.
 */
import { Clock, startServer, type RunningServer, type ServerOptions } from "../src/index.js";

export interface Reply {
  status: number;
  body: any; // assertions read any member
  headers: Headers;
}

export interface HttpOptions {
  /** `Authorization: Bearer <credential>`; the write key unless given (null: none). */
  credential?: string | null;
  alertToken?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;
/** The manual clock's start, 2026-01-01T00:00Z; the first weekly period end is Monday 2026-01-05. */
export const START = Date.UTC(2026, 0, 1);

export interface FidelityServer {
  server: RunningServer;
  keys: { read: string; write: string };
  jwt: string;
  alertToken: string;
  /** A request to a path under the base URL (`/api/v1/...`, `/signals/api/...`, `/anya`). */
  http(method: string, path: string, options?: HttpOptions): Promise<Reply>;
  /** A request to the admin surface, with the admin token. */
  admin(method: "GET" | "POST", path: string, body?: unknown): Promise<Reply>;
  /** Moves the service clock through the admin surface. */
  advance(ms: number): Promise<Reply>;
  /** Creates an alert with the seed's alert token (201 expected by the caller). */
  createAlert(body: Record<string, unknown>): Promise<Reply>;
  stop(): Promise<void>;
}

export async function fidelityServer(options: ServerOptions = {}): Promise<FidelityServer> {
  const clock = options.clock ?? new Clock("manual");
  const server = await startServer({ port: 0, ...options, clock });
  const keyOf = (role: "read" | "write") => server.service.issuedKeys.find((key) => key.role === role)?.key ?? "";
  const keys = { read: keyOf("read"), write: keyOf("write") };
  const credentials = server.service.signalsCredentials();
  async function http(method: string, path: string, options: HttpOptions = {}): Promise<Reply> {
    const credential = options.credential === undefined ? keys.write : options.credential;
    const headers: Record<string, string> = {
      ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(credential !== null ? { Authorization: `Bearer ${credential}` } : {}),
      ...(options.alertToken !== undefined ? { "X-Alert-Token": options.alertToken } : {}),
      ...options.headers,
    };
    const response = await fetch(server.baseUrl + path, {
      method,
      headers,
      ...(options.body !== undefined ? { body: typeof options.body === "string" ? options.body : JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }
  const admin = (method: "GET" | "POST", path: string, body?: unknown) =>
    http(method, `/__admin${path}`, { credential: server.service.adminToken, ...(method === "POST" ? { body: body ?? {} } : {}) });
  return {
    server,
    keys,
    jwt: credentials.jwt ?? "",
    alertToken: credentials.alertToken ?? "",
    http,
    admin,
    advance: (ms) => admin("POST", "/clock/advance", { ms }),
    createAlert: (body) => http("POST", "/signals/api/alerts", { credential: null, alertToken: credentials.alertToken ?? "", body }),
    stop: () => server.stop(),
  };
}
