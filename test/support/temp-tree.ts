/** Temporary directory trees for tests, removed after each test. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

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
