// Regenerates the pictures of the graph preview in docs/images/: the preview page (as the
// extension builds it, dist/preview.js and dist/preview.css) showing examples/broken/
// catalogue-faults.wf in a dark theme, screenshotted in headless Chromium, and the same
// drawing as `wfkit graph --format svg` writes it. Needs `npm run build` first.
//   node packages/vscode/scripts/screenshot-preview.mjs
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sparticuz from "@sparticuz/chromium";
import { chromium } from "playwright-core";
import { defaultCatalogue } from "../../core/dist/index.js";
import { analyzeSource } from "../../dsl/dist/index.js";
import { graphModelOf, renderSvg } from "../../graph/dist/index.js";
import { previewHtml } from "../dist/graph-preview.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const images = path.join(root, "docs/images");
const example = path.join(root, "examples/broken/catalogue-faults.wf");
const origin = "https://preview.invalid";

const analysis = analyzeSource(readFileSync(example, "utf8"), "wf", { catalogue: defaultCatalogue });
const model = graphModelOf({ definition: analysis.definition, faults: analysis.faults, estimate: analysis.estimate, catalogue: defaultCatalogue });
const svg = await renderSvg(model, { displayText: (text) => text });
const nodes = model.nodes.map((node) => ({ key: node.key, id: node.id, kind: node.kind, range: null, selectionRange: null, errors: node.faults.filter((f) => f.severity === "error").length, warnings: node.faults.filter((f) => f.severity === "warning").length }));
mkdirSync(images, { recursive: true });
writeFileSync(path.join(images, "graph-catalogue-faults.svg"), svg);

// VS Code's Dark Modern colours for the variables the page's stylesheet reads.
const dark = {
  "--vscode-foreground": "#cccccc", "--vscode-editor-foreground": "#cccccc", "--vscode-editor-background": "#1f1f1f",
  "--vscode-editorWidget-background": "#202020", "--vscode-editorWidget-border": "#454545", "--vscode-descriptionForeground": "#9d9d9d",
  "--vscode-editorError-foreground": "#f85149", "--vscode-editorWarning-foreground": "#cca700", "--vscode-focusBorder": "#0078d4",
  "--vscode-button-background": "#0078d4", "--vscode-button-foreground": "#ffffff", "--vscode-font-family": "sans-serif", "--vscode-font-size": "13px",
};

const profile = mkdtempSync(path.join(tmpdir(), "wfkit-screenshot-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH || (await sparticuz.executablePath()),
  headless: true,
  viewport: { width: 1200, height: 360 },
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  await context.addInitScript(() => (window.acquireVsCodeApi = () => ({ postMessage() {} })));
  const files = {
    "/page.html": ["text/html", previewHtml({ scriptUri: `${origin}/preview.js`, styleUri: `${origin}/preview.css`, cspSource: origin, nonce: "screenshot" })],
    "/preview.js": ["text/javascript", readFileSync(path.join(dist, "preview.js"), "utf8")],
    "/preview.css": ["text/css", readFileSync(path.join(dist, "preview.css"), "utf8")],
  };
  await context.route(`${origin}/**`, (route) => {
    const [contentType, body] = files[new URL(route.request().url()).pathname] ?? ["text/plain", ""];
    return route.fulfill({ status: 200, contentType, body });
  });
  const page = await context.newPage();
  await page.goto(`${origin}/page.html`);
  await page.evaluate((vars) => Object.entries(vars).forEach(([name, value]) => document.documentElement.style.setProperty(name, value)), dark);
  await page.evaluate((message) => window.postMessage(message, "*"), { type: "graph", svg, nodes });
  await page.evaluate((key) => window.postMessage({ type: "cursor", key }, "*"), nodes[1]?.key ?? null);
  await page.waitForSelector("#graph svg");
  await page.screenshot({ path: path.join(images, "vscode-graph-preview.png"), fullPage: true });
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.error("wrote docs/images/graph-catalogue-faults.svg and docs/images/vscode-graph-preview.png");
