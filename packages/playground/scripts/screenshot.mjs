// Regenerates docs/images/playground.png: the playground as `wfkit playground` serves it (the
// built CLI: run `npm run build` first), on an example with a typo in it, the fault shown in
// the text, the status line and the graph. `npm run screenshots` runs this and the VS Code
// preview's script.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, servePlayground } from "./browser.mjs";

const images = fileURLToPath(new URL("../../../docs/images/", import.meta.url));
const served = await servePlayground();
const browser = await launchChromium({ viewport: { width: 1280, height: 640 } });
try {
  const page = await browser.context.newPage();
  await page.goto(served.url);
  await page.waitForSelector("#graph svg g.wf-node");
  // A typo in a part id, typed as a person would.
  await page.click(".cm-line:has-text('part report') .wf-token-part");
  await page.keyboard.press("End");
  for (let i = 0; i < "pack@1".length; i++) await page.keyboard.press("Backspace");
  await page.keyboard.type("pakc@1");
  await page.waitForSelector(".cm-lintRange-error");
  await page.waitForSelector("#graph svg g.wf-error");
  await page.hover(".cm-lintRange-error");
  await page.waitForSelector(".cm-tooltip-lint");
  await page.screenshot({ path: path.join(images, "playground.png") });
} finally {
  await browser.close();
  await served.stop();
}
console.error("wrote docs/images/playground.png");
