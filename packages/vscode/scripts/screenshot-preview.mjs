// Regenerates the editor's pictures in docs/images/ (`npm run screenshots` runs this after the
// playground's script; `npm run build` first):
//
// - graph-catalogue-faults.svg: examples/broken/catalogue-faults.wf as `wfkit graph --format
//   svg` draws it (docs/cli.md shows it);
// - vscode-*.png: the extension in a real VS Code, from the screenshots the end-to-end suite
//   (test/vscode/real-vscode.test.ts) saves in test-results/vscode/. The suite is run here, so
//   the pictures are what it checked; it prepares code-server first if it is not cached.
//
//   node packages/vscode/scripts/screenshot-preview.mjs
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultCatalogue } from "../../core/dist/index.js";
import { analyzeSource } from "../../dsl/dist/index.js";
import { graphModelOf, renderSvg } from "../../graph/dist/index.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const images = path.join(root, "docs/images");
const shots = path.join(root, "test-results/vscode");
const example = path.join(root, "examples/broken/catalogue-faults.wf");

const analysis = analyzeSource(readFileSync(example, "utf8"), "wf", { catalogue: defaultCatalogue });
const model = graphModelOf({ definition: analysis.definition, faults: analysis.faults, estimate: analysis.estimate, catalogue: defaultCatalogue });
mkdirSync(images, { recursive: true });
writeFileSync(path.join(images, "graph-catalogue-faults.svg"), await renderSvg(model, { displayText: (text) => text }));
console.error("wrote docs/images/graph-catalogue-faults.svg");

/** docs/images name ← the suite's screenshot (docs/editor.md shows each). */
const PICTURES = {
  "vscode-problems.png": "05-problems-undeclared.png",
  "vscode-estimate.png": "09-estimate.png",
  "vscode-graph-preview.png": "11-graph.png",
  "vscode-export-svg.png": "15-export-svg.png",
};

const suite = spawnSync(process.execPath, [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "test/vscode/real-vscode.test.ts"], { cwd: root, stdio: "inherit" });
if (suite.status !== 0) {
  console.error(`screenshots: the real VS Code suite failed (exit ${suite.status ?? suite.signal}); docs/images left as they were`);
  process.exit(1);
}
for (const [name, from] of Object.entries(PICTURES)) {
  const source = path.join(shots, from);
  if (!existsSync(source)) {
    console.error(`screenshots: ${source} is missing; the suite no longer takes it`);
    process.exit(1);
  }
  copyFileSync(source, path.join(images, name));
  console.error(`wrote docs/images/${name}`);
}
