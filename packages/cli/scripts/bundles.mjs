// The CLI's esbuild bundles (@wfkit/*, chevrotain, jsonc-parser, picomatch included):
//
//   wfkit.cjs    what the `wfkit` command loads first (src/launch.ts, a few KB): it runs
//                cli.cjs with V8's code cache, which Node 20 keeps for no ES module (both
//                are CommonJS, so a command that loads no sibling never starts the ES
//                module loader);
//   cli.cjs      the CLI, a CommonJS script so that it can be given that cache: `wfkit check
//                small.wf` reads this one file at start-up instead of resolving hundreds of
//                modules (chevrotain alone is ~650 files and ~400 ms unbundled);
//   lsp.mjs      the language server, loaded only by `wfkit lsp`: it and its protocol library
//                would otherwise be most of what `check` parses; its checker thread runs
//                lsp-checker.cjs (the language server's settings, scripts/checker-bundle.mjs);
//   service.mjs  the local Workflows API, loaded only by `wfkit serve` (hono, and sql.js with
//                its WebAssembly inlined, so there is no .wasm file to find at run time);
//   graph.mjs    @wfkit/graph, loaded only by `wfkit graph` (Graphviz's WebAssembly is inside
//                @hpcc-js/wasm-graphviz's JavaScript: about 800 KB that `check` must not parse).
//   playground.mjs  the playground's page, scripts and stylesheet as strings, loaded only by
//                `wfkit playground`, which serves them (built from packages/playground's sources
//                here, so that prebuilt/ carries them and its stale check covers them).
//
// No code splitting: the CLI stays a single file. The bundles each carry their own copy of
// @wfkit/core (and the first two of @wfkit/dsl), which costs disk space, not start-up time.
//
// The workspace packages are bundled from their TypeScript sources (esbuild strips types
// and maps `./x.js` imports to `./x.ts`), so a bundle never depends on stale `tsc` output
// and tests can rebuild it in a second. Type-checking is `tsc -b`'s job.
//
// Two builds use this: `bundle.mjs` (dist/bundle/, with source maps, what the `wfkit` package
// ships) and the repository's `scripts/prebuilt.mjs` (minified, committed, what the root
// package and so pre-commit and git-URL installs run).
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildPlaygroundFiles } from "../../playground/scripts/build-config.mjs";
import { CHECKER_BUNDLE_OPTIONS } from "../../language-server/scripts/checker-bundle.mjs";
import { lazyChevrotainPath } from "../../dsl/scripts/lazy-chevrotain.mjs";
import { jsoncParserPure } from "../../dsl/scripts/jsonc-parser-pure.mjs";

const root = new URL("..", import.meta.url);
const path = (relative) => fileURLToPath(new URL(relative, root));
export const { version } = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));

const workspaceSource = (name) => path(`../${name}/src/index.ts`);

/** The workspace packages (core, dsl, project, graph, language-server) from their TypeScript sources. */
const workspaceSources = {
  name: "workspace-sources",
  setup(build) {
    build.onResolve({ filter: /^@wfkit\/(core|dsl|project|graph|language-server)$/ }, (args) => ({ path: workspaceSource(args.path.slice("@wfkit/".length)) }));
    build.onResolve({ filter: /^@wfkit\/project\/pure$/ }, () => ({ path: workspaceSource("project").replace(/index\.ts$/, "pure.ts") }));
    build.onResolve({ filter: /^@wfkit\/language-server\/code-cache$/ }, () => ({ path: workspaceSource("language-server").replace(/index\.ts$/, "code-cache.ts") }));
  },
};

/** `wfkit lsp` imports @wfkit/language-server; in the CLI bundle that is the sibling lsp.mjs (see src/siblings.ts). */
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

/** `wfkit graph` imports @wfkit/graph (dynamically); in the CLI bundle that is the sibling graph.mjs. */
const graphBesideCli = {
  name: "graph-beside-cli",
  setup(build) {
    build.onResolve({ filter: /^@wfkit\/graph$/ }, () => ({ path: "./graph.mjs", external: true }));
  },
};

/** `wfkit playground` imports the page's files; in the CLI bundle that is the sibling playground.mjs. */
const playgroundBesideCli = {
  name: "playground-beside-cli",
  setup(build) {
    build.onResolve({ filter: /^wfkit:playground-files$/ }, () => ({ path: "./playground.mjs", external: true }));
  },
};

/** playground.mjs itself: the files `buildPlaygroundFiles` makes, by name. */
const playgroundFiles = {
  name: "playground-files",
  setup(build) {
    build.onResolve({ filter: /^wfkit:playground-files$/ }, () => ({ path: "files", namespace: "wfkit-playground" }));
    build.onLoad({ filter: /.*/, namespace: "wfkit-playground" }, async () => {
      const files = Object.fromEntries((await buildPlaygroundFiles()).map(({ name, contents }) => [name, Buffer.from(contents).toString("utf8")]));
      return { contents: `export const playgroundFiles = ${JSON.stringify(files)};`, loader: "js" };
    });
  },
};

/**
 * Builds the bundles into `outdir`. `minify` drops source maps and comments but keeps the
 * licences (at the end of each file). With `write: false` nothing is written and the
 * results carry the files' contents (`outputFiles`).
 */
export function buildCliBundles({ outdir, minify = false, write = true }) {
  const common = {
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outdir,
    outExtension: { ".js": ".mjs" },
    // Prefer the ESM builds of dependencies (smaller, and chevrotain's is a single file).
    mainFields: ["module", "main"],
    // Bundled CommonJS dependencies call require() for Node built-ins; ESM has none.
    banner: { js: "import { createRequire as __wfkitCreateRequire } from 'node:module'; const require = __wfkitCreateRequire(import.meta.url);" },
    logLevel: "warning",
    metafile: true,
    write,
    ...(minify ? { minify: true, legalComments: "eof" } : { legalComments: "linked", sourcemap: "linked" }),
  };
  const define = { __WFKIT_VERSION__: JSON.stringify(version) };
  return Promise.all([
    build({ ...common, format: "cjs", banner: {}, outExtension: { ".js": ".cjs" }, entryPoints: { wfkit: path("src/launch.ts") }, define, plugins: [workspaceSources] }),
    build({
      ...common,
      format: "cjs",
      banner: {},
      outExtension: { ".js": ".cjs" },
      entryPoints: { cli: path("src/entry.ts") },
      // Minified even beside its source map: reading and decoding half the text is part of
      // every start (about a tenth of `wfkit check small.wf`, measured; see docs/performance.md).
      minify: true,
      define,
      plugins: [languageServerBesideCli, serviceBesideCli, graphBesideCli, playgroundBesideCli, workspaceSources, lazyChevrotainPath, jsoncParserPure],
    }),
    build({ ...common, entryPoints: { lsp: workspaceSource("language-server") }, plugins: [workspaceSources] }),
    build({ ...common, ...CHECKER_BUNDLE_OPTIONS, banner: {}, outExtension: { ".js": ".cjs" }, entryPoints: { "lsp-checker": CHECKER_BUNDLE_OPTIONS.entryPoints[0] }, plugins: [workspaceSources, ...CHECKER_BUNDLE_OPTIONS.plugins] }),
    build({ ...common, entryPoints: { service: workspaceSource("service") }, plugins: [workspaceSources] }),
    build({ ...common, entryPoints: { graph: workspaceSource("graph") }, plugins: [workspaceSources] }),
    // No source map: the bundle is the files as strings.
    build({ ...common, sourcemap: false, entryPoints: { playground: "wfkit:playground-files" }, plugins: [playgroundFiles] }),
  ]);
}
