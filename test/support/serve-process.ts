/** `wfkit serve` (the built CLI) as a child process on a free loopback port, for tests and the bench. */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { bin } from "./built-cli.js";

export interface Served {
  baseUrl: string;
  signalsBaseUrl: string;
  keys: { read: string | null; write: string | null; jwt: string | null; alertToken: string | null };
  adminToken: string;
  child: ChildProcess;
  stderr: () => string;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `wfkit serve --port 0 --json ...args` and waits for its first line. */
export function serve(args: readonly string[], cwd?: string): Promise<Served> {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", "--json", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`wfkit serve did not start in 30 s; stderr:\n${stderr}`));
    }, 30_000);
    lines.once("line", (line) => {
      clearTimeout(timer);
      const first = JSON.parse(line) as Pick<Served, "baseUrl" | "signalsBaseUrl" | "keys" | "adminToken">;
      resolve({
        ...first,
        child,
        stderr: () => stderr,
        stop: (signal = "SIGTERM") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`wfkit serve exited with ${code} before it listened; stderr:\n${stderr}`));
    });
  });
}

export interface HttpReply {
  status: number;
  body: any; // assertions read any member
  headers: Headers;
}

/** One JSON request over real HTTP. */
export async function http(baseUrl: string, method: string, path: string, credential: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<HttpReply> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...(credential ? { Authorization: `Bearer ${credential}` } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}
