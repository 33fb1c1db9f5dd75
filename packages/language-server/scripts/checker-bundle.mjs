// The esbuild settings of the checker thread's bundle, `lsp-checker.cjs`, which every build
// that ships the language server puts beside the server's bundle (this package's, the CLI's
// and the VS Code extension's): the server starts its checker thread on it when it is there.
// CommonJS, so that the thread can compile it with V8's code cache (src/server/checker-loader.ts);
// minified, since compiling it is on the way to a document's first diagnostics; chevrotain
// loaded only when a document needs it (lazy-chevrotain.mjs); and none of jsonc-parser but
// its parser (jsonc-parser-pure.mjs).
import { lazyChevrotainPath } from "../../dsl/scripts/lazy-chevrotain.mjs";
import { jsoncParserPure } from "../../dsl/scripts/jsonc-parser-pure.mjs";

export const CHECKER_BUNDLE_OPTIONS = {
  entryPoints: [new URL("../src/checker-main.ts", import.meta.url).pathname],
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  minify: true,
  mainFields: ["module", "main"],
  plugins: [lazyChevrotainPath, jsoncParserPure],
};
