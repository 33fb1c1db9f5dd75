/**
 * A launcher for the built server (this package's dist) whose checker thread is a stand-in:
 * the worker runs `thread` (lines of JavaScript, with `parentPort` in scope) instead of the
 * real checker, so a test can make the thread silent, answer with made-up verdicts, or crash.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export function launcherWithFakeChecker(directory: string, name: string, thread: readonly string[]): string {
  const serverIndex = pathToFileURL(fileURLToPath(new URL("../../dist/index.js", import.meta.url))).href;
  const languageServer = fileURLToPath(new URL("../../package.json", import.meta.url));
  const launcher = path.join(directory, name);
  writeFileSync(
    launcher,
    [
      'import { createRequire } from "node:module";',
      'import { isMainThread, parentPort } from "node:worker_threads";',
      `const lsp = createRequire(${JSON.stringify(languageServer)})("vscode-languageserver/node");`,
      `const { listen } = await import(${JSON.stringify(serverIndex)});`,
      "if (isMainThread) listen(lsp.createConnection(process.stdin, process.stdout), { checker: { module: new URL(import.meta.url) } });",
      "else {",
      ...thread.map((line) => `  ${line}`),
      "}",
    ].join("\n"),
  );
  return launcher;
}
