// The committed build of the `wfkit` command, in prebuilt/: what the repository's root
// package runs, so that installing straight from the repository (pre-commit's hooks,
// `npm install -g git+https://...`) needs no build step and no dependency at all.
// See docs/install.md for why it is committed.
//
// prebuilt/package.json makes the directory a package of its own, `wfkit`, with no
// workspaces and no scripts: what `npm install -g "git+https://...#COMMIT::path:prebuilt"`
// installs. (The root package, which pre-commit installs, has workspaces; for a git
// dependency with workspaces npm first runs `npm install` in its temporary clone, which under
// `-g` links that clone into the global prefix, and the link is left pointing at a deleted
// directory: docs/install.md.) Its version is packages/cli's.
//
//   node scripts/prebuilt.mjs            write prebuilt/wfkit.cjs, cli.cjs, lsp.mjs, lsp-checker.cjs, service.mjs, graph.mjs,
//                                        playground.mjs (the playground's files) and package.json
//   node scripts/prebuilt.mjs --check    exit 1 if they differ from a build of the sources
//                                        (a test runs this; `--dir DIR` checks another copy)
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildCliBundles } from "../packages/cli/scripts/bundles.mjs";

const { values } = parseArgs({ options: { check: { type: "boolean", default: false }, dir: { type: "string" } } });
const committed = fileURLToPath(new URL("../prebuilt/", import.meta.url));
const directory = values.dir ? path.resolve(values.dir) : committed;

const results = await buildCliBundles({ outdir: committed, minify: true, write: false });
const files = results.flatMap((result) => result.outputFiles).map((file) => ({ name: path.basename(file.path), contents: file.contents }));
files.push({ name: "package.json", contents: Buffer.from(JSON.stringify(prebuiltManifest(), null, 2) + "\n") });

/** prebuilt/ as a package: the `wfkit` command and nothing that would make npm prepare it (no scripts, no workspaces, no dependencies). */
function prebuiltManifest() {
  const cli = JSON.parse(readFileSync(new URL("../packages/cli/package.json", import.meta.url), "utf8"));
  return {
    name: cli.name,
    version: cli.version,
    description: `${cli.description} (the committed, minified build; install with npm install -g "git+https://github.com/wfkit/wfkit.git#COMMIT::path:prebuilt")`,
    license: cli.license,
    repository: { ...cli.repository, directory: "prebuilt" },
    homepage: cli.homepage,
    bin: { wfkit: "wfkit.cjs" },
    files: ["*.cjs", "*.mjs", "*.wasm"],
    engines: cli.engines,
  };
}

if (values.check) {
  const stale = files.filter(({ name, contents }) => {
    try {
      return !Buffer.from(contents).equals(readFileSync(path.join(directory, name)));
    } catch {
      return true;
    }
  });
  if (stale.length) {
    console.error(`prebuilt: ${stale.map(({ name }) => name).join(", ")} in ${directory} differ from a build of the sources: run \`npm run update-prebuilt\` and commit prebuilt/`);
    process.exit(1);
  }
} else {
  for (const { name, contents } of files) {
    const target = path.join(directory, name);
    writeFileSync(`${target}.tmp`, contents);
    renameSync(`${target}.tmp`, target);
    console.error(`prebuilt/${name}  ${(contents.length / 1024).toFixed(0)} KiB`);
  }
}
