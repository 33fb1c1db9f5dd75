/**
 * Running the BUILT CLI (bin/wfkit.cjs → dist/bundle/wfkit.cjs) as a child process, the way
 * users and CI run it. The bundle is rebuilt first when any source it contains is newer
 * (esbuild takes about a second), so these tests never pass against stale code.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const cliRoot = fileURLToPath(new URL("../../packages/cli/", import.meta.url));
export const repoRoot = path.resolve(cliRoot, "../..");
export const bin = path.join(cliRoot, "bin", "wfkit.cjs");
export const fixtures = path.join(cliRoot, "test", "fixtures");
const bundle = path.join(cliRoot, "dist", "bundle", "wfkit.cjs");

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith(".ts") || entry.name.endsWith(".json")) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function isFresh(): boolean {
  const sources = ["cli/src", "cli/scripts", "api/src", "client/src", "core/src", "dsl/src", "graph/src", "project/src", "language-server/src", "service/src", "playground/src"].map((dir) => path.join(repoRoot, "packages", dir)).filter(existsSync);
  const newest = Math.max(...sources.map(newestSource));
  return existsSync(bundle) && statSync(bundle).mtimeMs >= newest;
}

/**
 * Rebuilds the bundle when stale. Test files run in parallel, so a lock file makes sure one
 * builds while the others wait, and none runs the CLI while it is being written.
 */
export function ensureBuilt(): void {
  if (isFresh()) return;
  mkdirSync(path.join(cliRoot, "dist"), { recursive: true });
  const lock = path.join(cliRoot, "dist", ".bundle.lock");
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock} (delete it if no build is running)`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    if (isFresh()) return;
    const result = spawnSync(process.execPath, [path.join(cliRoot, "scripts", "bundle.mjs")], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`bundling the CLI failed:\n${result.stderr}`);
  } finally {
    unlinkSync(lock);
  }
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  stdin?: string;
  env?: Record<string, string>;
}

export function runCli(args: readonly string[], options: RunOptions = {}): RunResult {
  // A clean environment: no colour settings or CI variables leak in from the test runner.
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env };
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: options.cwd ?? fixtures, input: options.stdin ?? "", encoding: "utf8", env });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
