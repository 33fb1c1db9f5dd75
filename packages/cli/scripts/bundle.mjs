// Bundles the CLI with esbuild (@wfkit/*, chevrotain, jsonc-parser, picomatch included):
//
//   dist/bundle/wfkit.mjs  the CLI: `wfkit check small.wf` reads this one file at start-up
//                          instead of resolving hundreds of modules (chevrotain alone is ~650
//                          files and ~400 ms unbundled);
//   dist/bundle/lsp.mjs    the language server, loaded only by `wfkit lsp`: it and its
//                          protocol library would otherwise be most of what `check` parses.
//   dist/bundle/service.mjs the local Workflows API, loaded only by `wfkit serve` (sql.js's
//                          WebAssembly is inlined in it, so there is no .wasm file to find).
//
// No code splitting: the CLI stays a single file. The bundles each carry their own copy
// of @wfkit/core and @wfkit/dsl, which costs disk space, not start-up time.
//
// The workspace packages are bundled from their TypeScript sources (esbuild strips types
// and maps `./x.js` imports to `./x.ts`), so the bundle never depends on stale `tsc`
// output and tests can rebuild it in a second. Type-checking is `tsc -b`'s job.
import { build } from "esbuild";
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("..", import.meta.url);
const path = (relative) => fileURLToPath(new URL(relative, root));
const { version } = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
const outdir = path("dist/bundle/");
mkdirSync(outdir, { recursive: true });

const common = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outExtension: { ".js": ".mjs" },
  // Prefer the ESM builds of dependencies (smaller, and chevrotain's is a single file).
  mainFields: ["module", "main"],
  // Bundled CommonJS dependencies call require() for Node built-ins; ESM has none.
  banner: { js: "import { createRequire as __wfkitCreateRequire } from 'node:module'; const require = __wfkitCreateRequire(import.meta.url);" },
  legalComments: "linked",
  sourcemap: "linked",
  logLevel: "warning",
  metafile: true,
};

const workspaceSource = (name) => path(`../${name}/src/index.ts`);

/** @wfkit/core and @wfkit/dsl from their sources. */
const workspaceSources = {
  name: "workspace-sources",
  setup(build) {
    build.onResolve({ filter: /^@wfkit\/(core|dsl|language-server)$/ }, (args) => ({ path: workspaceSource(args.path.slice("@wfkit/".length)) }));
  },
};

/** `wfkit lsp` imports @wfkit/language-server; in the CLI bundle that is the sibling lsp.mjs. */
const languageServerBesideCli = {
  name: "language-server-beside-cli",
  setup(build) {
    build.onResolve({ filter: /^@wfkit\/language-server$/ }, () => ({ path: "./lsp.mjs", external: true }));
  },
};

/** `wfkit serve` imports @wfkit/service; in the CLI bundle that is the sibling service.mjs. */
const serviceBesideCli = {
  name: "service-beside-cli",
  setup(build) {
    build.onResolve({ filter: /^@wfkit\/service$/ }, () => ({ path: "./service.mjs", external: true }));
  },
};

const results = await Promise.all([
  build({
    ...common,
    entryPoints: { wfkit: path("src/entry.ts") },
    outdir,
    define: { __WFKIT_VERSION__: JSON.stringify(version) },
    plugins: [languageServerBesideCli, serviceBesideCli, workspaceSources],
  }),
  // The local service (hono, sql.js with its WebAssembly inlined), loaded only by `wfkit serve`.
  build({ ...common, entryPoints: { service: path("../service/src/index.ts") }, outdir, plugins: [workspaceSources] }),
  build({ ...common, entryPoints: { lsp: workspaceSource("language-server") }, outdir, plugins: [workspaceSources] }),
]);

for (const result of results)
  for (const [file, output] of Object.entries(result.metafile.outputs))
    if (file.endsWith(".mjs")) console.log(`${file.replace(/^.*\/dist\//, "dist/")}  ${(output.bytes / 1024).toFixed(0)} KiB`);
