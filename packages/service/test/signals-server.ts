/**
 * The service on a loopback port in this process, on a manual clock, with callers for the
 * Consumer Signals API that speak real HTTP: the credentials are the ones `wfkit serve --json`
 * prints (`signalsCredentials()`).
 */
import { Clock, startServer, type RunningServer, type ServerOptions } from "../src/index.js";

export interface SignalsReply {
  status: number;
  body: any; // assertions read any member
  text: string;
  headers: Headers;
}

export interface SignalsCall {
  /** `Authorization: Bearer <jwt>`; the seed's JWT unless given (null: none). */
  jwt?: string | null;
  /** `X-Alert-Token`; none unless given. */
  alertToken?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface SignalsServer {
  server: RunningServer;
  clock: Clock;
  jwt: string;
  alertToken: string;
  call(method: string, path: string, options?: SignalsCall): Promise<SignalsReply>;
  /** A call with the seed's alert token. */
  withToken(method: string, path: string, body?: unknown, alertToken?: string): Promise<SignalsReply>;
  admin(path: string, body?: unknown): Promise<SignalsReply>;
  stop(): Promise<void>;
}

export async function signalsServer(options: ServerOptions = {}): Promise<SignalsServer> {
  const clock = options.clock ?? new Clock("manual");
  const server = await startServer({ port: 0, ...options, clock });
  const credentials = server.service.signalsCredentials();
  const jwt = credentials.jwt!;
  const alertToken = credentials.alertToken ?? "";
  async function fetchReply(url: string, method: string, headers: Record<string, string>, body: unknown): Promise<SignalsReply> {
    const response = await fetch(url, {
      method,
      headers: { ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined; // an event stream
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  }
  const call = (method: string, path: string, options: SignalsCall = {}) => {
    const bearer = options.jwt === undefined ? jwt : options.jwt;
    const headers = { ...(bearer !== null ? { Authorization: `Bearer ${bearer}` } : {}), ...(options.alertToken !== undefined ? { "X-Alert-Token": options.alertToken } : {}), ...options.headers };
    return fetchReply(server.signalsBaseUrl + path, method, headers, options.body);
  };
  return {
    server,
    clock,
    jwt,
    alertToken,
    call,
    withToken: (method, path, body, token = alertToken) => call(method, path, { jwt: null, alertToken: token, body }),
    admin: (path, body = {}) => fetchReply(`${server.baseUrl}/__admin${path}`, "POST", { Authorization: `Bearer ${server.service.adminToken}` }, body),
    stop: () => server.stop(),
  };
}
