/**
 * Helpers for the hostile-input tests: running the BUILT CLI on a file in a temporary
 * directory and reading its JSON report, with the checks every hostile file shares.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect } from "vitest";
import { runCli, type RunResult } from "../support/built-cli.js";

export { ensureBuilt, runCli } from "../support/built-cli.js";

/** A preload that reports, on exit, whether the process changed Object.prototype and friends. */
export const pollutionProbe = path.join(import.meta.dirname, "pollution-probe.mjs");

const made: string[] = [];
afterEach(() => {
  while (made.length) rmSync(made.pop()!, { recursive: true, force: true });
});

/** A temporary directory holding `files` (name → text or bytes); removed after the test. */
export function tempDir(files: Record<string, string | Uint8Array> = {}): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "wfkit-hostile-"));
  made.push(root);
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(root, name), content);
  return root;
}

export interface JsonFault {
  code: string;
  severity: "error" | "warning";
  message: string;
  range: { start: { line: number; column: number }; end: { line: number; column: number } };
}

export interface CheckRun extends RunResult {
  faults: JsonFault[];
}

/**
 * `wfkit check FILE --format json` in `cwd`, asserting what holds for any user file: exit 0
 * or 1 (never 2: that means usage or an internal error), no stack trace, parseable JSON.
 */
export function checkFile(cwd: string, file: string, extraArgs: string[] = [], env: Record<string, string> = {}): CheckRun {
  const result = runCli(["check", file, "--format", "json", ...extraArgs], { cwd, env });
  expect([0, 1], `exit status of wfkit check ${file}; stderr: ${result.stderr.slice(0, 500)}`).toContain(result.status);
  expect(result.stderr).not.toMatch(/\n\s+at |internal error/);
  const report = JSON.parse(result.stdout) as { files: { faults: JsonFault[] }[] };
  expect(report.files).toHaveLength(1);
  return { ...result, faults: report.files[0]!.faults };
}
