/**
 * Imported first by the server's entry point (main.ts), for its effect: the checker thread is
 * started before the rest of the server's modules are evaluated (modules are evaluated in the
 * order they are imported, and the bundles keep that order), so that the thread starts up
 * beside the server's own start-up instead of after it (see checker-loader.ts).
 */
import { pathToFileURL } from "node:url";
import { prestartChecker } from "./checker-loader.js";

/**
 * The file this code was loaded from: the bundle (`server.mjs`, or the VS Code extension's
 * `server.cjs`), beside which the checker's bundle lies. A CommonJS bundle knows `__filename`;
 * an ES module knows `import.meta.url` (as server.ts's `ownModule`).
 */
function ownFile(): URL | undefined {
  if (typeof __filename === "string" && __filename) return pathToFileURL(__filename);
  try {
    return new URL(import.meta.url);
  } catch {
    return undefined;
  }
}

const own = ownFile();
if (own) prestartChecker(own);
