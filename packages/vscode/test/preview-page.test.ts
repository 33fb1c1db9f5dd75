/// <reference lib="dom" />
/**
 * The graph preview's page (webview/preview.ts as bundled into dist/preview.js, with the HTML
 * and CSP the extension gives the webview) in a real headless Chromium: `acquireVsCodeApi`
 * stubbed, messages in, clicks and keys out, theme variables applied, and the CSP enforced.
 * The browser comes from @sparticuz/chromium (installed by `npm ci`), or CHROMIUM_PATH; when
 * none starts, the tests fail. One browser for the file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sparticuz from "@sparticuz/chromium";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { defaultCatalogue } from "@wfkit/core";
import { analyzeSource } from "@wfkit/dsl";
import { graphModelOf, renderSvg } from "@wfkit/graph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewHtml, type GraphPreviewNode } from "../src/graph-preview.js";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const NONCE = "0123456789abcdef0123456789abcdef";
const LAUNCH_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let server: Server;
let origin = "";
let context: BrowserContext;
let profile = "";

function pageHtml(extraBody = ""): string {
  return previewHtml({ scriptUri: `${origin}/preview.js`, styleUri: `${origin}/preview.css`, cspSource: origin, nonce: NONCE }).replace("</body>", `${extraBody}</body>`);
}

beforeAll(async () => {
  for (const file of ["preview.js", "preview.css"]) if (!existsSync(path.join(dist, file))) throw new Error(`${dist}${file} is missing: run \`npm run build\` first`);
  server = createServer((request, response) => {
    const routes: Record<string, [string, string]> = {
      "/page.html": ["text/html", pageHtml()],
      "/inline.html": ["text/html", pageHtml('<script>window.__inlineRan = true;</script><div style="color: red" id="styled"></div>')],
      "/preview.js": ["text/javascript", readFileSync(path.join(dist, "preview.js"), "utf8")],
      "/preview.css": ["text/css", readFileSync(path.join(dist, "preview.css"), "utf8")],
    };
    const route = routes[request.url ?? ""];
    response.writeHead(route ? 200 : 404, { "content-type": route?.[0] ?? "text/plain" });
    response.end(route?.[1] ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const executablePath = process.env.CHROMIUM_PATH || (await sparticuz.executablePath());
  profile = mkdtempSync(path.join(tmpdir(), "wfkit-preview-profile-"));
  context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: LAUNCH_FLAGS });
  // The webview's API, as VS Code injects it before the page's scripts run; posted messages are kept.
  await context.addInitScript(() => {
    const state = window as unknown as { __posted: unknown[]; __violations: string[]; acquireVsCodeApi: () => unknown };
    state.__posted = [];
    state.__violations = [];
    document.addEventListener("securitypolicyviolation", (event) => state.__violations.push(event.violatedDirective));
    // The webview's state survives a reload of the page (sessionStorage stands in for VS Code's keeping of it).
    state.acquireVsCodeApi = () => ({
      postMessage: (message: unknown) => state.__posted.push(message),
      getState: () => JSON.parse(sessionStorage.getItem("__state") ?? "null") ?? undefined,
      setState: (value: unknown) => sessionStorage.setItem("__state", JSON.stringify(value)),
    });
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function openPage(name = "page.html"): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/${name}`);
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === "ready"));
  return page;
}

const posted = (page: Page) => page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted);
const send = (page: Page, message: unknown) => page.evaluate((data) => window.postMessage(data, "*"), message);

async function drawing(): Promise<{ svg: string; nodes: GraphPreviewNode[] }> {
  const definition = {
    schemaVersion: 1,
    nodes: [
      { id: "start", kind: "trigger", trigger: { kind: "on_demand" } },
      { id: "report", partId: "pakc", partVersion: "1" },
      { id: "inbox", kind: "destination", destination: { kind: "standalone" } },
    ],
    edges: [
      { from: "start", to: "report" },
      { from: "report", to: "inbox" },
    ],
  };
  const faults = [{ code: "part-unknown", severity: "error" as const, message: "no part `pakc`", nodeId: "report" }];
  const model = graphModelOf({ definition, faults, catalogue: defaultCatalogue });
  const svg = await renderSvg(model, { displayText: (text) => text });
  const nodes = model.nodes.map((node) => ({ key: node.key, id: node.id, kind: node.kind, range: null, selectionRange: null, errors: node.faults.length, warnings: 0 }));
  return { svg, nodes };
}

describe("the graph preview page", () => {
  it("shows the drawing it is sent, highlights the cursor's node, and reports clicks, keys and export", async () => {
    const page = await openPage();
    const { svg, nodes } = await drawing();
    await send(page, { type: "graph", svg, nodes });
    await page.waitForSelector("#graph svg g#wf-n1.wf-error");
    expect(await page.textContent("#status")).toBe("1 error, 0 warnings on nodes");
    expect(await page.getAttribute("#wf-n1", "aria-label")).toBe("report, 1 errors, 0 warnings: go to its declaration");

    await page.click("#wf-n1 polygon");
    await page.focus("#wf-n2");
    await page.keyboard.press("Enter");
    await page.click("#export");
    expect(await posted(page)).toEqual([{ type: "ready" }, { type: "reveal", key: "n1" }, { type: "reveal", key: "n2" }, { type: "export" }]);

    await send(page, { type: "cursor", key: "n2" });
    await page.waitForSelector("#wf-n2.wf-current");
    expect(await page.locator(".wf-current").count()).toBe(1);
    // A new drawing keeps the highlight on the same node.
    await send(page, { type: "graph", svg, nodes });
    await page.waitForSelector("#wf-n2.wf-current");
    await send(page, { type: "cursor", key: null });
    expect(await page.locator(".wf-current").count()).toBe(0);

    await send(page, { type: "error", message: "The document is not open in the language server." });
    expect(await page.textContent("#status")).toBe("The document is not open in the language server.");
    await page.close();
  });

  it("fits every label inside its node's shape in the fonts the drawing asks for", async () => {
    const page = await openPage();
    const text = readFileSync(fileURLToPath(new URL("../../../examples/broken/catalogue-faults.wf", import.meta.url)), "utf8");
    const analysis = analyzeSource(text, "wf", { catalogue: defaultCatalogue });
    const model = graphModelOf({ definition: analysis.definition, faults: analysis.faults, catalogue: defaultCatalogue });
    const nodes = model.nodes.map((node) => ({ key: node.key, id: node.id, kind: node.kind, range: null, selectionRange: null, errors: 0, warnings: 0 }));
    await send(page, { type: "graph", svg: await renderSvg(model, { displayText: (shown) => shown }), nodes });
    await page.waitForSelector("#graph svg g.wf-node");
    const spills = await page.evaluate(() =>
      Array.from(document.querySelectorAll("#graph svg g.wf-node")).flatMap((node) => {
        const shape = (node.querySelector("polygon, path, ellipse") as SVGGraphicsElement).getBBox();
        return Array.from(node.querySelectorAll("text"))
          .map((label) => ({ label: label.textContent, box: label.getBBox() }))
          .filter(({ box }) => box.x < shape.x - 0.5 || box.x + box.width > shape.x + shape.width + 0.5)
          .map(({ label }) => `${node.id}: ${label}`);
      }),
    );
    expect(model.nodes.length).toBeGreaterThan(3);
    expect(spills).toEqual([]);
    await page.close();
  });

  it("draws in the theme's colours (the CSS variables VS Code sets)", async () => {
    const page = await openPage();
    const { svg, nodes } = await drawing();
    await page.evaluate(() => {
      document.documentElement.style.setProperty("--vscode-editor-foreground", "rgb(1, 2, 3)");
      document.documentElement.style.setProperty("--vscode-editorError-foreground", "rgb(200, 0, 1)");
    });
    await send(page, { type: "graph", svg, nodes });
    await page.waitForSelector("#wf-n1");
    const colours = await page.evaluate(() => ({
      text: getComputedStyle(document.querySelector("#wf-n0 text")!).fill,
      faultStroke: getComputedStyle(document.querySelector("#wf-n1 polygon")!).stroke,
    }));
    expect(colours).toEqual({ text: "rgb(1, 2, 3)", faultStroke: "rgb(200, 0, 1)" });
    await page.close();
  });

  it("runs no inline script or style (the CSP), and nothing a drawing carries", async () => {
    const page = await openPage("inline.html");
    const hostile = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60" onload="window.__svgRan = 1"><script>window.__svgRan = 2</script><g id="wf-n0" class="node wf-node"><text x="20" y="30" font-size="20" onclick="window.__svgRan = 3">x</text></g></svg>';
    await send(page, { type: "graph", svg: hostile, nodes: [{ key: "n0", id: "x", kind: "part", range: null, selectionRange: null, errors: 0, warnings: 0 }] });
    await page.waitForSelector("#wf-n0");
    await page.click("#wf-n0 text");
    const state = await page.evaluate(() => {
      const w = window as unknown as { __inlineRan?: boolean; __svgRan?: number; __violations: string[] };
      return { inline: w.__inlineRan ?? false, svg: w.__svgRan ?? 0, violations: w.__violations, styled: getComputedStyle(document.getElementById("styled")!).color };
    });
    expect(state.inline).toBe(false);
    expect(state.svg).toBe(0);
    expect(state.violations).toEqual(expect.arrayContaining(["script-src-elem", "style-src-attr"]));
    expect(state.styled).not.toBe("rgb(255, 0, 0)");
    // The page's own script, loaded by URL with the nonce, did run.
    expect(await posted(page)).toEqual([{ type: "ready" }, { type: "reveal", key: "n0" }]);
    await page.close();
  });

  it("fits a drawing to the panel no smaller than 11 px labels, scrolls past that, and zooms and pans by keyboard, wheel and drag, keeping the view across redraws and reloads", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 520, height: 240 });
    await page.goto(`${origin}/page.html`);
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === "ready"));
    const text = readFileSync(fileURLToPath(new URL("../../../examples/fan-out-fan-in.wf", import.meta.url)), "utf8");
    const analysis = analyzeSource(text, "wf", { catalogue: defaultCatalogue });
    const model = graphModelOf({ definition: analysis.definition, faults: analysis.faults, catalogue: defaultCatalogue });
    const nodes = model.nodes.map((node) => ({ key: node.key, id: node.id, kind: node.kind, range: null, selectionRange: null, errors: 0, warnings: 0 }));
    const svg = await renderSvg(model, { displayText: (shown) => shown });
    await send(page, { type: "graph", svg, nodes });
    await page.waitForSelector("#graph svg g.wf-node");
    const measure = () =>
      page.evaluate(() => {
        const graph = document.getElementById("graph")!;
        const label = document.querySelector("#graph g.wf-node text")!.getBoundingClientRect();
        const drawn = document.querySelector("#graph svg")!.getBoundingClientRect();
        return { label: label.height, width: drawn.width, left: graph.scrollLeft, top: graph.scrollTop, scrolls: graph.scrollWidth > graph.clientWidth, zoom: document.getElementById("zoom-level")!.textContent };
      });
    const fitted = await measure();
    // A label's box is about 1.2 times its font size: 11 px type or more.
    expect(fitted.label).toBeGreaterThanOrEqual(11 * 1.1);
    expect(fitted.scrolls).toBe(true);
    expect(fitted.zoom).toBe("100%");

    await page.focus("#graph");
    for (let press = 0; press < 3; press++) await page.keyboard.press("+");
    const zoomed = await measure();
    expect(zoomed.zoom).toBe("195%");
    expect(zoomed.width / fitted.width).toBeCloseTo(1.953, 2);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    const panned = await measure();
    expect(panned.left - zoomed.left).toBe(40);
    expect(panned.top - zoomed.top).toBe(40);

    // Dragging the drawing pans it, and does not click the node it started on.
    const box = (await page.locator("#graph").boundingBox())!;
    await page.mouse.move(box.x + 150, box.y + 100);
    await page.mouse.down();
    await page.mouse.move(box.x + 200, box.y + 130, { steps: 5 });
    await page.mouse.up();
    const dragged = await measure();
    expect(panned.left - dragged.left).toBe(50);
    expect(panned.top - dragged.top).toBe(30);
    expect((await posted(page)).filter((message) => (message as { type: string }).type === "reveal")).toEqual([]);

    // Ctrl and the wheel zoom around the pointer; the wheel alone scrolls.
    await page.mouse.move(box.x + 100, box.y + 100);
    await page.keyboard.down("Control");
    await page.mouse.wheel(0, 200);
    await page.keyboard.up("Control");
    await page.waitForFunction(() => document.getElementById("zoom-level")!.textContent !== "195%");
    const wheeled = await measure();
    expect(wheeled.width).toBeLessThan(dragged.width);

    // A redraw (the text was edited) keeps the scale and the scroll.
    await send(page, { type: "graph", svg, nodes });
    await page.waitForFunction(() => document.querySelectorAll("#graph svg").length === 1);
    expect(await measure()).toEqual(wheeled);
    // So does a reload of the page (its tab hidden and shown again).
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === "ready"));
    await send(page, { type: "graph", svg, nodes });
    await page.waitForSelector("#graph svg g.wf-node");
    expect(await measure()).toEqual(wheeled);

    // 0 fits again; so does the Fit button, after the buttons zoom.
    await page.focus("#graph");
    await page.keyboard.press("0");
    expect(await measure()).toEqual(fitted);
    await page.click("#zoom-out");
    expect((await measure()).zoom).toBe("80%");
    await page.click("#zoom-fit");
    expect(await measure()).toEqual(fitted);
    await page.close();
  });

  it("enlarges a small drawing to fit a large panel, up to one and a half times", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`${origin}/page.html`);
    await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((message) => message.type === "ready"));
    const { svg, nodes } = await drawing();
    await send(page, { type: "graph", svg, nodes });
    await page.waitForSelector("#graph svg g.wf-node");
    expect(await page.textContent("#zoom-level")).toBe("150%");
    await page.close();
  });
});
