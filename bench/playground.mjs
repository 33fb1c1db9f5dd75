// The playground in a browser: what it downloads (each file raw and gzipped, as a server that
// compresses sends it) and how soon a fresh page shows its first diagnostics and its first
// graph (from the start of navigation: the page, the worker and the language server load,
// the example is opened and checked; the graph also loads Graphviz's WebAssembly). The page
// comes from `wfkit playground` (the built CLI: run `npm run build` first), over loopback,
// in headless Chromium; each load is a new page, and the server sends no cache validators,
// so each downloads every file again.
//   node bench/playground.mjs
import { gzipSync } from "node:zlib";
import { buildPlaygroundFiles } from "../packages/playground/scripts/build-config.mjs";
import { launchChromium, servePlayground } from "../packages/playground/scripts/browser.mjs";
import { median } from "./measure.mjs";

const kib = (bytes) => Math.round(bytes / 102.4) / 10;

export async function benchPlayground({ loads = 7 } = {}) {
  const sizes = (await buildPlaygroundFiles()).map(({ name, contents }) => ({ file: name, rawKiB: kib(contents.length), gzipKiB: kib(gzipSync(contents).length) }));
  sizes.push({ file: "total", rawKiB: kib(sizes.reduce((sum, row) => sum + row.rawKiB * 1024, 0)), gzipKiB: kib(sizes.reduce((sum, row) => sum + row.gzipKiB * 1024, 0)) });
  const served = await servePlayground();
  const browser = await launchChromium();
  const times = { domContentLoadedMs: [], firstDiagnosticsMs: [], firstGraphMs: [] };
  try {
    for (let load = 0; load < loads; load++) {
      const page = await browser.context.newPage();
      await page.goto(served.url);
      await page.waitForFunction(() => performance.getEntriesByName("wfkit:diagnostics").length > 0 && performance.getEntriesByName("wfkit:graph").length > 0, undefined, { timeout: 60_000 });
      const marks = await page.evaluate(() => ({
        domContentLoadedMs: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
        firstDiagnosticsMs: performance.getEntriesByName("wfkit:diagnostics")[0].startTime,
        firstGraphMs: performance.getEntriesByName("wfkit:graph")[0].startTime,
      }));
      // The first load also warms the browser itself: left out of the medians.
      if (load > 0) for (const [key, value] of Object.entries(marks)) times[key].push(value);
      await page.close();
    }
  } finally {
    await browser.close();
    await served.stop();
  }
  const timing = Object.fromEntries(Object.entries(times).map(([key, values]) => [key, Math.round(median(values))]));
  return { sizes, timing: { loads: loads - 1, ...timing } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { sizes, timing } = await benchPlayground();
  console.table(sizes);
  console.table([timing]);
}
