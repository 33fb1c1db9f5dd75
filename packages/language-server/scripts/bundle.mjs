// Bundles the language server into one file, `dist/server.mjs`, runnable as
// `node dist/server.mjs --stdio`: one file loads in a few milliseconds, where chevrotain's
// hundreds of source modules take several hundred (see shared notes on start-up).
import { build } from "esbuild";

await build({
  entryPoints: [new URL("../src/main.ts", import.meta.url).pathname],
  outfile: new URL("../dist/server.mjs", import.meta.url).pathname,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  logLevel: "warning",
  // jsonc-parser's UMD build requires its modules dynamically, which a bundle cannot follow: prefer ESM builds.
  mainFields: ["module", "main"],
  // vscode-languageserver is CommonJS and requires Node built-ins: give the ESM bundle a `require`.
  banner: { js: "import { createRequire as __wfkitCreateRequire } from 'node:module'; const require = __wfkitCreateRequire(import.meta.url);" },
});
