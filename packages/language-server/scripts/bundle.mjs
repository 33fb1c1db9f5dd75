// Bundles the language server into `dist/server.mjs`, runnable as `node dist/server.mjs --stdio`
// (one file loads in a few milliseconds, where chevrotain's hundreds of source modules take
// several hundred), and the checker thread's code into `dist/lsp-checker.cjs` beside it.
import { build } from "esbuild";
import { CHECKER_BUNDLE_OPTIONS } from "./checker-bundle.mjs";

const dist = (name) => new URL(`../dist/${name}`, import.meta.url).pathname;

await build({
  entryPoints: [new URL("../src/main.ts", import.meta.url).pathname],
  outfile: dist("server.mjs"),
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
await build({ ...CHECKER_BUNDLE_OPTIONS, outfile: dist("lsp-checker.cjs"), sourcemap: true, logLevel: "warning" });
