// Builds what the .vsix ships, all under dist/: the extension (CommonJS, `vscode` left to the
// host), the language server bundled beside it (started over node IPC), and copies of the
// TextMate grammar and the Definition JSON schema, which live elsewhere in the repository; and
// the graph preview's page script and stylesheet.
import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { CHECKER_BUNDLE_OPTIONS } from "../../language-server/scripts/checker-bundle.mjs";

const here = (path) => new URL(`../${path}`, import.meta.url).pathname;
// mainFields: jsonc-parser's UMD build requires its modules dynamically, which a bundle cannot follow.
// minify: the extension host loads these files on activation; smaller loads faster.
const common = { bundle: true, platform: "node", target: "node20", format: "cjs", sourcemap: true, minify: true, logLevel: "warning", mainFields: ["module", "main"] };

await build({ ...common, entryPoints: [here("src/extension.ts")], outfile: here("dist/extension.cjs"), external: ["vscode"] });
await build({ ...common, entryPoints: [here("../language-server/src/main.ts")], outfile: here("dist/server.cjs") });
await build({ ...common, ...CHECKER_BUNDLE_OPTIONS, outfile: here("dist/lsp-checker.cjs") });
// The graph preview's page script: for the webview (a browser), one file loaded by URL under its CSP.
await build({ ...common, platform: "browser", target: "es2022", format: "iife", entryPoints: [here("webview/preview.ts")], outfile: here("dist/preview.js"), sourcemap: false });

const copies = [
  [here("../../grammar/wf.tmLanguage.json"), here("dist/syntaxes/wf.tmLanguage.json")],
  [here("../core/schema/definition.schema.json"), here("dist/schemas/definition.schema.json")],
  [here("media/preview.css"), here("dist/preview.css")],
];
for (const [from, to] of copies) {
  if (!existsSync(from)) throw new Error(`bundle: ${from} is missing; the extension cannot ship without it`);
  mkdirSync(new URL(".", `file://${to}`).pathname, { recursive: true });
  copyFileSync(from, to);
}
