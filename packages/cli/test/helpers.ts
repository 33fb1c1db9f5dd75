/** Shared test helpers: temporary directory trees and in-process I/O. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import type { Io } from "../src/io.js";

const made: string[] = [];
afterEach(() => {
  while (made.length) rmSync(made.pop()!, { recursive: true, force: true });
});

/** Creates a temporary directory holding `files` (path → content); removed after each test. */
export function tempTree(files: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "wfkit-cli-"));
  made.push(root);
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return root;
}

export interface CapturedIo extends Io {
  out: () => string;
  err: () => string;
}

export function captureIo(cwd: string, options: { env?: Record<string, string>; stdin?: string; tty?: boolean } = {}): CapturedIo {
  let out = "";
  let err = "";
  return {
    stdout: { write: (text) => void (out += text), isTTY: options.tty ?? false },
    stderr: { write: (text) => void (err += text), isTTY: options.tty ?? false },
    cwd,
    env: options.env ?? {},
    readStdin: async () => options.stdin ?? "",
    out: () => out,
    err: () => err,
  };
}
