// Bundles the CLI into dist/bundle/ (see bundles.mjs for what is in each bundle and why).
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildCliBundles } from "./bundles.mjs";

const outdir = fileURLToPath(new URL("../dist/bundle/", import.meta.url));
mkdirSync(outdir, { recursive: true });
// A code cache made for the last build (see src/launch.ts) is never shipped.
rmSync(new URL("cli.cjs.cache", `file://${outdir}`), { force: true });

for (const result of await buildCliBundles({ outdir }))
  for (const [file, output] of Object.entries(result.metafile.outputs))
    if (/\.[mc]js$/.test(file)) console.log(`${file.replace(/^.*\/dist\//, "dist/")}  ${(output.bytes / 1024).toFixed(0)} KiB`);
