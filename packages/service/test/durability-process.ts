/**
 * For the durability tests: `wfkit serve --db` (the built CLI) as a child process that either
 * starts (its first stdout line is the --json line) or exits, with its stderr either way, and
 * optionally under `umask 000`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { bin } from "../../../test/support/built-cli.js";

export const V1 = "/api/v1/workflows";
export const secret = (name: string) => `${name}secret0123456789`;
export const key = (id: string) => `wfk_${id}_${secret(id)}`;

/** Two users on a plan with the API; fixed key and alert-token secrets, so a restart knows them. */
export const SEED = {
  accounts: [{ id: "pro", plan: "professional" }],
  users: [
    { id: "alice", account: "pro" },
    { id: "bob", account: "pro" },
  ],
  apiKeys: [
    { id: "read", user: "alice", scopes: ["read:workflows"], role: "read", secret: secret("read") },
    { id: "write", user: "alice", scopes: ["write:workflows"], role: "write", secret: secret("write") },
  ],
  alertTokens: [{ user: "alice", token: `wfat_${secret("alert")}` }],
};

export interface Started {
  kind: "started";
  pid: number;
  baseUrl: string;
  signalsBaseUrl: string;
  keys: { read: string | null; write: string | null; jwt: string | null; alertToken: string | null };
  adminToken: string;
  child: ChildProcess;
  stderr: () => string;
  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface Exited {
  kind: "exited";
  code: number | null;
  stderr: string;
  stdout: string;
}

export interface LaunchOptions {
  cwd: string;
  /** Run under `umask 000` (through sh), so only the modes the service asks for count. */
  umask000?: boolean;
}

/** `wfkit serve --port 0 --json ...args`: resolves once it listens, or once it exits. */
export function launch(args: readonly string[], options: LaunchOptions): Promise<Started | Exited> {
  const argv = [bin, "serve", "--port", "0", "--json", ...args];
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
  const child = options.umask000
    ? spawn("/bin/sh", ["-c", 'umask 000 && exec "$0" "$@"', process.execPath, ...argv], { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"], env })
    : spawn(process.execPath, argv, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"], env });
  let stderr = "";
  let stdout = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`wfkit serve neither started nor exited in 60 s; stderr:\n${stderr}`));
    }, 60_000);
    let started = false;
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (started) return;
      stdout += line + "\n";
      started = true;
      clearTimeout(timer);
      const first = JSON.parse(line) as Pick<Started, "baseUrl" | "signalsBaseUrl" | "keys" | "adminToken">;
      // What it wrote to stderr before this line travels through another pipe: let it arrive.
      setTimeout(() => resolve({
        kind: "started",
        pid: child.pid!,
        ...first,
        child,
        stderr: () => stderr,
        stop: (signal = "SIGTERM") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      }), 100);
    });
    void exited.then(async (code) => {
      if (started) return;
      clearTimeout(timer);
      // Let the streams drain: the message may arrive after the exit event.
      await new Promise((done) => setTimeout(done, 50));
      resolve({ kind: "exited", code, stderr, stdout });
    });
  });
}

/** `launch` that must start. */
export async function start(args: readonly string[], options: LaunchOptions): Promise<Started> {
  const result = await launch(args, options);
  if (result.kind !== "started") throw new Error(`wfkit serve exited with ${result.code}; stderr:\n${result.stderr}`);
  return result;
}

export interface HttpReply {
  status: number;
  body: any; // assertions read any member
}

export async function http(baseUrl: string, method: string, path: string, credential: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<HttpReply> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...(credential ? { Authorization: `Bearer ${credential}` } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Creates a workflow (one transaction, one journal entry) and returns its id once acknowledged. */
export async function createWorkflow(served: Started, name: string): Promise<string> {
  const reply = await http(served.baseUrl, "POST", V1, key("write"), { name });
  if (reply.status !== 201) throw new Error(`creating a workflow: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.workflow.id as string;
}

/** Whether the service knows a workflow (its run list answers 200, else 404). */
export async function knows(served: Started, workflowId: string): Promise<boolean> {
  const status = (await http(served.baseUrl, "GET", `${V1}/${workflowId}/runs`, key("read"))).status;
  if (status !== 200 && status !== 404) throw new Error(`unexpected ${status} for ${workflowId}`);
  return status === 200;
}
