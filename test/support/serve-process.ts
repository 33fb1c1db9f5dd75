/**
 * `wfkit serve` (the built CLI) as a child process on a free loopback port, for tests and the
 * bench: `launch` resolves once it listens (its first stdout line is the --json line) or once
 * it exits, with its stderr either way, optionally under `umask 000`; `serve` must start.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { bin } from "./built-cli.js";

export interface Served {
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
  cwd?: string;
  /** Run under `umask 000` (through sh), so only the modes the service asks for count. */
  umask000?: boolean;
}

/** `wfkit serve --port 0 --json ...args`: resolves once it listens, or once it exits. */
export function launch(args: readonly string[], options: LaunchOptions = {}): Promise<Served | Exited> {
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
      const first = JSON.parse(line) as Pick<Served, "baseUrl" | "signalsBaseUrl" | "keys" | "adminToken">;
      // What it wrote to stderr before this line travels through another pipe: let it arrive.
      setTimeout(
        () =>
          resolve({
            kind: "started",
            pid: child.pid!,
            ...first,
            child,
            stderr: () => stderr,
            stop: (signal = "SIGTERM") => {
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              return exited;
            },
          }),
        100,
      );
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
export async function serve(args: readonly string[], cwd?: string, options: Omit<LaunchOptions, "cwd"> = {}): Promise<Served> {
  const result = await launch(args, { ...options, cwd });
  if (result.kind !== "started") throw new Error(`wfkit serve exited with ${result.code} before it listened; stderr:\n${result.stderr}`);
  return result;
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
