/// <reference lib="dom" />
/**
 * The playground as a person uses it: the page `wfkit playground` serves (the built CLI as a
 * child process), in a real headless Chromium, with the language server in its Web Worker.
 * One browser and one server for the file; a fresh page per test.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shareFragment } from "../src/share.js";
import { ensureBuilt } from "../../../test/support/built-cli.js";
import { launchChromium, servePlayground, type Browser, type ServedPlayground } from "../scripts/browser.mjs";

const example = (name: string) => readFileSync(fileURLToPath(new URL(`../../../examples/${name}.wf`, import.meta.url)), "utf8");
/** What the page shows first: see FIRST_EXAMPLE in src/main.ts. */
const FIRST = example("grocer-compare");
const UI_TIMEOUT = 20_000;

let served: ServedPlayground;
let browser: Browser;

beforeAll(async () => {
  ensureBuilt();
  served = await servePlayground();
  browser = await launchChromium();
  // Content Security Policy violations, kept per page.
  await browser.context.addInitScript(() => {
    const state = window as unknown as { __violations: string[] };
    state.__violations = [];
    document.addEventListener("securitypolicyviolation", (event) => state.__violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

/** A page on `path` of the served playground once its first check is shown; page errors are kept. */
async function open(fragment = ""): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${served.url}${fragment ? `#${fragment}` : ""}`);
  await page.waitForFunction(() => /problem|error|warning/.test(document.getElementById("status")!.textContent ?? ""), undefined, { timeout: UI_TIMEOUT });
  return { page, errors };
}

const editorText = (page: Page) => page.evaluate(() => Array.from(document.querySelectorAll(".cm-content .cm-line"), (line) => line.textContent).join("\n"));
const status = (page: Page) => page.textContent("#status");

async function replaceText(page: Page, text: string): Promise<void> {
  await page.click(".cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}

async function waitForStatus(page: Page, pattern: RegExp): Promise<void> {
  await page.waitForFunction((source) => new RegExp(source).test(document.getElementById("status")!.textContent ?? ""), pattern.source, { timeout: UI_TIMEOUT });
}

/** The ids the graph draws, in drawing order. */
const graphNodeIds = (page: Page) => page.$$eval("#graph svg g.wf-node", (groups) => groups.map((group) => group.getAttribute("aria-label")?.split(/[,:]/)[0] ?? ""));

async function waitForGraphNodes(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll("#graph svg g.wf-node").length === n, count, { timeout: UI_TIMEOUT });
}

describe("the playground page", () => {
  it("opens on an example, checked, drawn and costed", async () => {
    const { page, errors } = await open();
    expect(await editorText(page)).toBe(FIRST);
    await waitForStatus(page, /^No problems; estimated cost 220 minor units\.$/);
    await waitForGraphNodes(page, 5);
    expect(await graphNodeIds(page)).toEqual(["start", "compare", "report", "floor", "inbox"]);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
    await page.close();
  });

  it("shows a typo's diagnostic as it is typed, with its code, and clears it when fixed", async () => {
    const { page } = await open();
    await replaceText(page, FIRST.replace("pack@1", "pakc@1"));
    await page.waitForSelector(".cm-lintRange-error", { timeout: UI_TIMEOUT });
    await waitForStatus(page, /^1 error, 0 warnings;/);
    expect(await page.textContent(".cm-lintRange-error")).toBe("pakc");
    await page.hover(".cm-lintRange-error");
    const tooltip = await page.waitForSelector(".cm-tooltip-lint", { timeout: UI_TIMEOUT });
    expect(await tooltip.textContent()).toMatch(/part-unknown/);
    expect(await tooltip.textContent()).toMatch(/pack/);

    await replaceText(page, FIRST);
    await waitForStatus(page, /^No problems;/);
    expect(await page.$(".cm-lintRange-error")).toBeNull();
    await page.close();
  });

  it("completes a part id from the catalogue", async () => {
    const { page } = await open();
    await replaceText(page, FIRST);
    await page.keyboard.type("part extra = pa");
    const option = page.locator(".cm-tooltip-autocomplete li", { hasText: "pack" }).first();
    await option.waitFor({ timeout: UI_TIMEOUT });
    // The first matching option is selected: Enter accepts it.
    expect(await page.textContent(".cm-tooltip-autocomplete li[aria-selected]")).toMatch(/^pack/);
    // CodeMirror ignores Enter for the first 75 ms of a list (its interactionDelay, against
    // accepting by accident while typing fast); a person reads the list first.
    await page.waitForTimeout(250);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => /^part extra = pack@1/m.test(Array.from(document.querySelectorAll(".cm-content .cm-line"), (line) => line.textContent).join("\n")), undefined, { timeout: UI_TIMEOUT });
    await page.close();
  });

  it("redraws the graph as the text changes, and a click on a node selects its name", async () => {
    const { page } = await open();
    await waitForGraphNodes(page, 5);
    await replaceText(page, FIRST.replace("part report = pack@1", "part report = pack@1\npart audit = pack@1").replace("report -> floor", "report -> audit -> floor"));
    await waitForGraphNodes(page, 6);
    expect(await graphNodeIds(page)).toContain("audit");

    await page.click("#graph svg g.wf-node[aria-label^='audit'] text");
    await page.keyboard.type("review");
    await page.waitForFunction(() => document.querySelector("#graph svg g.wf-node[aria-label^='review']") !== null, undefined, { timeout: UI_TIMEOUT });
    expect(await editorText(page)).toContain("part review = pack@1");
    await page.close();
  });

  it("draws the graph with labels at least 11 px high in a normal pane, zooms and pans it, and keeps the view as the text changes", async () => {
    const { page } = await open();
    await page.setViewportSize({ width: 1280, height: 800 });
    await replaceText(page, example("analyst-review"));
    await waitForGraphNodes(page, 6);
    const view = () =>
      page.evaluate(() => {
        const panel = document.getElementById("panel-graph")!;
        const text = document.querySelector("#graph svg g.wf-node text") as SVGTextElement;
        const matrix = text.getScreenCTM()!;
        return {
          labelPx: Math.hypot(matrix.a, matrix.b) * Number.parseFloat(text.getAttribute("font-size") ?? "0"),
          zoom: document.querySelector(".graph-zoom-level")?.textContent,
          left: panel.scrollLeft,
          top: panel.scrollTop,
        };
      });
    const fitted = await view();
    expect(fitted.labelPx).toBeGreaterThanOrEqual(11);
    expect(fitted.zoom).toBe("100%");

    await page.focus("#panel-graph");
    await page.keyboard.press("+");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    const zoomed = await view();
    expect(zoomed.zoom).toBe("125%");
    expect(zoomed.labelPx).toBeCloseTo(fitted.labelPx * 1.25, 1);
    expect(zoomed.left).toBeGreaterThan(0);

    await replaceText(page, example("analyst-review").replace("gate quality hold", "gate quality hold\ngate extra hold"));
    await waitForGraphNodes(page, 7);
    expect(await view()).toEqual(zoomed);

    await page.click("#graph .graph-zoom button[aria-label='Fit to the pane']");
    expect(await view()).toEqual({ ...fitted, left: 0, top: 0 });
    await page.close();
  });

  it("formats the text, and shows a part's description on hover", async () => {
    const { page } = await open();
    await replaceText(page, FIRST.replace("part report = pack@1", "part   report=pack@1"));
    await waitForStatus(page, /^No problems;/);
    await page.click("#format");
    await page.waitForFunction(() => Array.from(document.querySelectorAll(".cm-content .cm-line"), (line) => line.textContent).includes("part report = pack@1"), undefined, { timeout: UI_TIMEOUT });

    await page.hover(".cm-line:has-text('part report') .wf-token-part");
    const tooltip = await page.waitForSelector(".cm-tooltip-hover", { timeout: UI_TIMEOUT });
    expect(await tooltip.textContent()).toMatch(/pack/);
    await page.close();
  });

  it("shows the estimate and the compiled JSON in their tabs", async () => {
    const { page } = await open();
    await page.click("#tab-estimate");
    await page.waitForSelector("#estimate tr.total", { timeout: UI_TIMEOUT });
    expect(await page.textContent("#estimate tr.total")).toBe("Total220");
    await page.click("#tab-json");
    await page.waitForFunction(() => (document.getElementById("json")!.textContent ?? "").includes('"schemaVersion"'), undefined, { timeout: UI_TIMEOUT });
    const json = JSON.parse((await page.textContent("#json")) ?? "") as { nodes: { id: string }[] };
    expect(json.nodes.map((node) => node.id)).toEqual(["start", "compare", "report", "floor", "inbox"]);
    expect(await page.isVisible("#panel-graph")).toBe(false);
    await page.close();
  });

  it("opens a share link with the same text, and says so when a link is damaged", async () => {
    const text = `${FIRST}# ünïcödé, "quotes" & <angle brackets> 🙂\n`;
    const { page } = await open();
    await replaceText(page, text);
    await page.click("#share");
    await page.waitForFunction(() => location.hash.startsWith("#wf1="), undefined, { timeout: UI_TIMEOUT });
    const link = page.url();
    expect(await page.inputValue("#share-link")).toBe(link);
    await page.close();

    const { page: shared } = await open(new URL(link).hash.slice(1));
    expect(await editorText(shared)).toBe(text);
    await shared.close();

    const { page: damaged } = await open(new URL(link).hash.slice(1, -6));
    expect(await damaged.textContent("#notice")).toMatch(/^The share link is damaged \(it may have been cut short/);
    expect(await editorText(damaged)).toBe(FIRST);
    await damaged.close();
  });

  it("is usable from the keyboard alone: into the editor, an example, the JSON tab", async () => {
    const { page } = await open();
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.className || "");
    // Tab from the top of the page reaches the editor within a few stops.
    const stops: string[] = [];
    for (let i = 0; i < 8 && !stops.includes("cm-content"); i++) {
      await page.keyboard.press("Tab");
      stops.push(String(await focused()));
    }
    expect(stops).toEqual(["example", "format", "share", "cm-content"]);
    await page.keyboard.press("Control+End");
    await page.keyboard.type("# typed without a mouse");
    expect(await editorText(page)).toContain("# typed without a mouse");

    // Back to the example picker, and the next example by arrow key.
    for (let i = 0; i < 3; i++) await page.keyboard.press("Shift+Tab");
    expect(await focused()).toBe("example");
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowDown");
    const picked = await page.inputValue("#example");
    expect(picked).toBe("company-profile");
    await page.waitForFunction((expected) => Array.from(document.querySelectorAll(".cm-content .cm-line"), (line) => line.textContent).join("\n") === expected, example(picked), { timeout: UI_TIMEOUT });

    // Through the editor (Tab leaves it) to the tabs, and along them with the arrow keys.
    for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
    expect(await focused()).toBe("tab-graph");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await focused()).toBe("tab-json");
    expect(await page.getAttribute("#tab-json", "aria-selected")).toBe("true");
    await page.waitForFunction(() => (document.getElementById("json")!.textContent ?? "").includes('"cmp_cost"'), undefined, { timeout: UI_TIMEOUT });
    await page.close();
  });

  it("asks for nothing but its own files, and keeps working offline once loaded", async () => {
    const requests: string[] = [];
    const record = (request: Request) => requests.push(request.url());
    browser.context.on("request", record);
    try {
      const { page, errors } = await open();
      await waitForGraphNodes(page, 5);
      await browser.context.setOffline(true);
      await page.selectOption("#example", "fan-out-fan-in");
      await page.waitForFunction(() => document.querySelector("#graph svg g.wf-node[aria-label^='compare']") !== null && document.querySelectorAll("#graph svg g.wf-node").length !== 5, undefined, { timeout: UI_TIMEOUT });
      await replaceText(page, FIRST.replace("pack@1", "pakc@1"));
      await waitForStatus(page, /^1 error/);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
      await page.close();
    } finally {
      await browser.context.setOffline(false);
      browser.context.off("request", record);
    }
    const own = new Set(["", "playground.css", "playground.js", "worker.js", "favicon.svg"].map((name) => `${served.url}${name}`));
    expect(requests.filter((url) => !own.has(url))).toEqual([]);
    expect(requests).toContain(`${served.url}worker.js`);
  });

  it("runs nothing that a shared text carries", async () => {
    const hostile = 'workflow "x"\ntrigger start on_demand\npart "<img src=x onerror=window.__ran=1>" = pack@1\ndestination inbox standalone\nstart -> "<img src=x onerror=window.__ran=1>" -> inbox\n';
    const { page } = await open(await shareFragment(hostile));
    await waitForGraphNodes(page, 3);
    expect(await page.textContent("#graph svg")).toContain("<img src=x onerror=window.__ran=1>");
    await page.hover(".cm-line:has-text('part') .wf-token-node");
    await page.waitForSelector(".cm-tooltip-hover", { timeout: UI_TIMEOUT });
    expect(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran)).toBeUndefined();
    expect(await page.$$("#graph img, .cm-tooltip-hover img")).toEqual([]);
    await page.close();
  });
});
