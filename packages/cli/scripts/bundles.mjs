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
//   graph.mjs    @wfkit/graph, loaded only by `wfkit graph`, with Graphviz's WebAssembly in
//                graphvizlib.wasm beside it: @hpcc-js/wasm-graphviz carries it compressed inside
//                its JavaScript (about 730 KB of text to parse, then 57 ms to decompress), and
//                this bundle reads the bytes from disk instead (see graphvizWasmBeside).
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
import { createRequire } from "node:module";
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

/**
 * The parts of @hpcc-js/wasm-graphviz's bundled JavaScript that hold its WebAssembly: the
 * emscripten factory is called as `X??=inflate(decode(DATA)),factory({wasmBinary:X,...})`,
 * where DATA is a string literal of the compressed module. Found by their shape, as the
 * pinned version (packages/graph/package.json) minifies them; a version that differs fails
 * the build here rather than at run time.
 */
function graphvizParts(source) {
  const calls = [...source.matchAll(/(\w+)\?\?=(\w+)\((\w+)\((\w+)\)\),(\w+)\(\{wasmBinary:\1,locateFile:\(\)=>""\}\)/g)];
  if (calls.length !== 1) throw new Error(`@hpcc-js/wasm-graphviz: expected one wasmBinary load, found ${calls.length}; see graphvizWasmBeside in bundles.mjs`);
  const [call, , inflate, decode, data] = calls[0];
  const declarations = [...source.matchAll(new RegExp(`[,\\s]${data}='`, "g"))];
  if (declarations.length !== 1) throw new Error(`@hpcc-js/wasm-graphviz: expected one literal ${data}='...', found ${declarations.length}`);
  const literalStart = declarations[0].index + declarations[0][0].length - 1;
  const literalEnd = source.indexOf("'", literalStart + 1);
  const literal = source.slice(literalStart, literalEnd + 1);
  if (literal.length < 100_000 || literal.includes("\\")) throw new Error("@hpcc-js/wasm-graphviz: the WebAssembly literal is not the plain string expected");
  return { call, decoded: `${inflate}(${decode}(${data}))`, literalStart, literalEnd };
}

let graphvizCache;
/** The library's source with the literal and its decoding replaced by a call, and the WebAssembly's bytes. */
async function graphvizSplit() {
  if (!graphvizCache) {
    const file = createRequire(import.meta.url).resolve("@hpcc-js/wasm-graphviz");
    const source = readFileSync(file, "utf8");
    const { call, decoded, literalStart, literalEnd } = graphvizParts(source);
    // The bytes, decoded by the library's own code, once, at build time.
    const probe = `${source}\nexport const __wfkitWasmBytes = () => ${decoded};\n`;
    const { __wfkitWasmBytes } = await import(`data:text/javascript;base64,${Buffer.from(probe).toString("base64")}`);
    const wasm = __wfkitWasmBytes();
    if (!WebAssembly.validate(wasm)) throw new Error("@hpcc-js/wasm-graphviz: the decoded WebAssembly does not validate");
    const withoutLiteral = `${source.slice(0, literalStart)}""${source.slice(literalEnd + 1)}`;
    // Its source map maps the literal, which is gone: the bundle's map points into this text instead.
    const patched = withoutLiteral.replace(call, call.replace(decoded, "__wfkitGraphvizWasm()")).replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
    graphvizCache = { file, wasm, contents: `import { graphvizWasm as __wfkitGraphvizWasm } from "wfkit:graphviz-wasm";\n${patched}` };
  }
  return graphvizCache;
}

/**
 * What graph.mjs compiles Graphviz from: graphvizlib.wasm beside it (esbuild's file loader
 * writes it, so prebuilt/ gets it too), read synchronously when the first layout loads the
 * engine. Before compiling, two V8 settings for a process that draws once (`wfkit graph`;
 * measured in docs/performance.md, "Pictures of small graphs"): lazy validation (a function is
 * validated when it is first compiled, not all 1.6 MB up front: compiling took 7-20 ms
 * instead of about 55) and Liftoff only (no optimising tier-up: the first layout of 100 nodes
 * took 62 ms of CPU instead of 276 with TurboFan compiling hot functions beside it, 1,000
 * nodes 228 instead of 750; 10,000 nodes take 6-12% more CPU, and less wall time). Set only on
 * the V8 versions of the Node releases wfkit supports (Node 20, 22, 24): V8 prints an unknown
 * flag's error on standard output, which is where the drawing goes.
 */
const GRAPHVIZ_WASM_READER = `import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import wasmFile from "wfkit:graphvizlib.wasm";
export function graphvizWasm() {
  const v8Major = Number(process.versions.v8.split(".")[0]);
  if (v8Major >= 11 && v8Major <= 13) {
    setFlagsFromString("--wasm-lazy-validation");
    setFlagsFromString("--liftoff-only");
    // V8 stamps a code cache with a hash of its flags: the launcher's cli.cjs.cache, written
    // as the process exits, must carry the flags the next command starts with (the defaults;
    // --liftoff-only also turned tier-up off).
    process.prependListener("exit", () => {
      for (const flag of ["--no-wasm-lazy-validation", "--no-liftoff-only", "--wasm-tier-up", "--wasm-dynamic-tiering"]) setFlagsFromString(flag);
    });
  }
  return readFileSync(new URL(wasmFile, import.meta.url));
}
`;

const graphvizWasmBeside = {
  name: "graphviz-wasm-beside",
  setup(build) {
    build.onLoad({ filter: /[\\/]@hpcc-js[\\/]wasm-graphviz[\\/]dist[\\/]index\.js$/ }, async () => ({ contents: (await graphvizSplit()).contents, loader: "js" }));
    build.onResolve({ filter: /^wfkit:graphviz-wasm$/ }, () => ({ path: "graphviz-wasm.js", namespace: "wfkit-graphviz" }));
    build.onResolve({ filter: /^wfkit:graphvizlib\.wasm$/ }, () => ({ path: "graphvizlib.wasm", namespace: "wfkit-graphviz" }));
    build.onLoad({ filter: /^graphviz-wasm\.js$/, namespace: "wfkit-graphviz" }, () => ({ contents: GRAPHVIZ_WASM_READER, loader: "js" }));
    build.onLoad({ filter: /^graphvizlib\.wasm$/, namespace: "wfkit-graphviz" }, async () => ({ contents: (await graphvizSplit()).wasm, loader: "file" }));
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
    build({ ...common, entryPoints: { graph: workspaceSource("graph") }, assetNames: "[name]", plugins: [workspaceSources, graphvizWasmBeside] }),
    // No source map: the bundle is the files as strings.
    build({ ...common, sourcemap: false, entryPoints: { playground: "wfkit:playground-files" }, plugins: [playgroundFiles] }),
  ]);
}
