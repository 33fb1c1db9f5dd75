// The playground's files, built in memory: a static page that needs nothing but its own origin.
//
//   index.html      the page (its Content Security Policy in a <meta>; `wfkit playground` also
//                   sends it as a header, which the worker obeys too)
//   playground.css  its stylesheet
//   favicon.svg     so the browser asks for nothing the page does not have
//   playground.js   the page's script: CodeMirror 6 and @codemirror/lsp-client, the examples
//   worker.js       the language server in a Web Worker (@wfkit/language-server/browser), with
//                   @wfkit/graph and Graphviz's WebAssembly inlined in its JavaScript
//
// Both scripts are minified IIFE bundles (a classic worker runs in every browser). The
// workspace packages are bundled from their TypeScript sources, as the CLI's bundles are, so
// the result never depends on stale `tsc` output. The same function serves
// `npm run build` (written to dist/) and the CLI's bundles (embedded in playground.mjs, which
// only `wfkit playground` loads; see packages/cli/scripts/bundles.mjs).
import { build } from "esbuild";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = (relative) => fileURLToPath(new URL(`../${relative}`, import.meta.url));
const packages = here("..");
const examplesDir = here("../../examples");

/** The page's static files, copied as they are. */
const STATIC_FILES = ["index.html", "playground.css", "favicon.svg"];

/** The workspace packages from their TypeScript sources. */
const workspaceSources = {
  name: "workspace-sources",
  setup(build) {
    build.onResolve({ filter: /^@wfkit\/(core|dsl|graph)$/ }, (args) => ({ path: path.join(packages, args.path.slice("@wfkit/".length), "src/index.ts") }));
    build.onResolve({ filter: /^@wfkit\/graph\/pan-zoom$/ }, () => ({ path: path.join(packages, "graph/src/pan-zoom.ts") }));
    build.onResolve({ filter: /^@wfkit\/project\/pure$/ }, () => ({ path: path.join(packages, "project/src/pure.ts") }));
    build.onResolve({ filter: /^@wfkit\/language-server\/browser$/ }, () => ({ path: path.join(packages, "language-server/src/browser.ts") }));
    build.onResolve({ filter: /^@wfkit\/language-server\/protocol$/ }, () => ({ path: path.join(packages, "language-server/src/protocol.ts") }));
    // The server's shared modules import the common API through its Node entry; in a browser,
    // the package's browser entry exports the same API over a message port.
    build.onResolve({ filter: /^vscode-languageserver\/node$/ }, (args) => build.resolve("vscode-languageserver/browser", { kind: args.kind, resolveDir: args.resolveDir }));
  },
};

/**
 * `wfkit:examples`: every workflow under examples/ (the broken ones last), its first comment
 * line as its title, read at build time so that the page loads none of them over the network.
 */
const examples = {
  name: "examples",
  setup(build) {
    build.onResolve({ filter: /^wfkit:examples$/ }, () => ({ path: "examples", namespace: "wfkit-examples" }));
    build.onLoad({ filter: /.*/, namespace: "wfkit-examples" }, () => {
      const list = (dir, prefix) =>
        readdirSync(path.join(examplesDir, dir))
          .filter((name) => name.endsWith(".wf"))
          .sort()
          .map((name) => {
            const text = readFileSync(path.join(examplesDir, dir, name), "utf8");
            const title = /^#\s*(.*)$/m.exec(text)?.[1] ?? "";
            return { name: `${prefix}${name.replace(/\.wf$/, "")}`, title, text };
          });
      const all = [...list(".", ""), ...list("broken", "broken/")];
      return { contents: `export const examples = ${JSON.stringify(all)};`, loader: "js", watchFiles: all.map((e) => path.join(examplesDir, `${e.name}.wf`)) };
    });
  },
};

/** The playground's files, each `{ name, contents }` (contents as bytes), in a fixed order. */
export async function buildPlaygroundFiles() {
  const common = {
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "eof",
    write: false,
    logLevel: "warning",
    metafile: true,
    plugins: [workspaceSources, examples],
  };
  const [page, worker] = await Promise.all([
    build({ ...common, entryPoints: [here("src/main.ts")], outfile: "playground.js" }),
    build({ ...common, entryPoints: [here("src/worker.ts")], outfile: "worker.js" }),
  ]);
  const files = STATIC_FILES.map((name) => ({ name, contents: readFileSync(here(`static/${name}`)) }));
  for (const result of [page, worker]) for (const file of result.outputFiles) files.push({ name: path.basename(file.path), contents: file.contents });
  return files;
}
