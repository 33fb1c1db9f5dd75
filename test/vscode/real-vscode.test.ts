/// <reference lib="dom" />
/**
 * The VS Code extension in a real VS Code, driven as a user drives it.
 *
 * The VS Code is code-server 4.100.3 (VS Code 1.100.3: its web workbench and its Node
 * extension host), prepared once into a cache outside the work tree by
 * `node packages/vscode/scripts/real-vscode.mjs prepare` (this file runs it when the cache is
 * absent: about 90 s and 310 MB). The built .vsix (`npm run build`;
 * WFKIT_VSIX names another) is installed into a fresh extensions directory, one code-server is
 * started for the file in a process group of its own, and a headless Chromium
 * (@sparticuz/chromium, as the playground's tests launch it) opens a workspace of copies of
 * the examples. Everything is done through the keyboard, the mouse and what the page shows:
 * the command palette, Quick Open, the Problems panel, hovers, the suggest widget, quick
 * fixes, rename, Format Document, the code lens, the graph preview's webview and the save
 * dialog. What wfkit's CLI says about the same files is the reference.
 *
 * A screenshot of each step is written to test-results/vscode/ (`npm run screenshots` copies
 * some into docs/images), with the extension host's logs under test-results/vscode/logs/.
 * Nothing is skipped: a missing build, cache or browser fails the file with a message.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchChromium, type Browser } from "../../packages/playground/scripts/browser.mjs";
import { logFiles, preparedCodeServer, startCodeServer, type RunningCodeServer } from "../../packages/vscode/scripts/real-vscode.mjs";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const prepareScript = path.join(repoRoot, "packages/vscode/scripts/real-vscode.mjs");
const vsix = process.env.WFKIT_VSIX ? path.resolve(process.env.WFKIT_VSIX) : path.join(repoRoot, "packages/vscode/dist/wfkit-vscode.vsix");
const cli = path.join(repoRoot, "packages/cli/bin/wfkit.cjs");
const artefacts = path.join(repoRoot, "test-results/vscode");
/** The longest any one thing the page does may take. */
const UI = 20_000;
const PREPARE_MS = 6 * 60_000;

let work = "";
let ws = "";
let codeServer: RunningCodeServer | undefined;
let browser: Browser | undefined;
let page: Page;

/** `prepare` as a child process (so this worker's event loop and its timeouts keep running), at most PREPARE_MS. */
async function prepare(): Promise<void> {
  const child = spawn(process.execPath, [prepareScript, "prepare"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | string>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGTERM"), PREPARE_MS);
    child.once("exit", (status, signal) => {
      clearTimeout(timer);
      resolve(status ?? signal ?? "unknown");
    });
  });
  if (code !== 0) throw new Error(`preparing code-server failed (${code}); run \`node packages/vscode/scripts/real-vscode.mjs prepare\` to see why:\n${output.slice(-3000)}`);
}

/** The CLI's answer for a file of the workspace. */
function wfkit(args: string[]): { stdout: string; status: number | null } {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: "utf8" });
  if (result.error) throw result.error;
  return { stdout: result.stdout, status: result.status };
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(artefacts, `${name}.png`) });
}

/** Waits until `probe` gives something truthy; fails naming `what` and the last value seen. */
async function until<T>(what: string, probe: () => Promise<T> | T, timeout = UI): Promise<Exclude<T, undefined | null | false | 0 | "">> {
  const deadline = Date.now() + timeout;
  let last: T | undefined;
  let failure: unknown;
  for (;;) {
    try {
      last = await probe();
      failure = undefined;
      if (last) return last as Exclude<T, undefined | null | false | 0 | "">;
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) throw new Error(`waited ${timeout} ms for ${what}; last seen: ${failure instanceof Error ? failure.message : JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Runs a command from the palette (F1), by its title. */
async function command(title: string): Promise<void> {
  await page.keyboard.press("F1");
  await page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: UI });
  await page.keyboard.type(title);
  await page.waitForSelector(`.quick-input-list .monaco-list-row[data-index="0"][aria-label*="${title}"]`, { timeout: UI });
  await page.keyboard.press("Enter");
}

/** Closes whatever widget a step left open (a hover, a list, a dialog), as Escape does. */
async function settle(): Promise<void> {
  for (let press = 0; press < 2; press++) await page.keyboard.press("Escape");
}

/** Opens a file of the workspace with Quick Open (Ctrl+P), as its editor's active tab. */
async function openFile(relative: string): Promise<void> {
  const name = path.basename(relative);
  await page.keyboard.press("Control+P");
  await page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: UI });
  await page.keyboard.type(relative);
  // The list follows the typing: Enter only once its first row is the file.
  await page.waitForSelector(`.quick-input-list .monaco-list-row[data-index="0"][aria-label*="${name}"]`, { timeout: UI });
  await page.keyboard.press("Enter");
  await page.waitForSelector(`.tab.active[aria-label*="${name}"]`, { timeout: UI });
  await page.waitForSelector(".editor-group-container.active .monaco-editor .view-lines", { timeout: UI });
}

/** Moves the cursor with Go to Line (Ctrl+G): 1-based line and column. */
async function goTo(line: number, column: number): Promise<void> {
  await page.keyboard.press("Control+G");
  await page.waitForSelector(".quick-input-widget input", { state: "visible", timeout: UI });
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press("Enter");
  await until(`the cursor at ${line}:${column}`, async () => (await cursorText()).startsWith(`Ln ${line}, Col ${column}`));
}

/** The status bar's cursor item: `Ln 10, Col 12 (6 selected)`. */
async function cursorText(): Promise<string> {
  return ((await page.textContent('[id="status.editor.selection"]', { timeout: UI })) ?? "").trim();
}

/** Saves the active editor (Ctrl+S) and reads the file back, once written (VS Code truncates, then writes). */
async function saveAndRead(relative: string): Promise<string> {
  const file = path.join(ws, relative);
  const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
  await page.keyboard.press("Control+S");
  return until(`${relative} written`, async () => {
    if (await page.locator(".tab.active.dirty").count()) return undefined;
    const text = readFileSync(file, "utf8");
    if (!text || text === before) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
    return readFileSync(file, "utf8") === text ? text : undefined;
  });
}

interface Problem {
  severity: string;
  code: string;
  line: number;
  column: number;
  message: string;
}

const show = (problems: Problem[]) => problems.map((p) => `${p.severity} ${p.code} ${p.line}:${p.column} ${p.message}`).sort();

/** What `wfkit check --format json` reports for a file of the workspace. */
function cliProblems(relative: string): Problem[] {
  const { stdout } = wfkit(["check", "--format", "json", relative]);
  const report = JSON.parse(stdout) as { files: { faults: { severity: string; code: string; message: string; range: { start: { line: number; column: number } } }[] }[] };
  return report.files.flatMap((file) => file.faults.map((f) => ({ severity: f.severity, code: f.code, line: f.range.start.line, column: f.range.start.column, message: f.message })));
}

/** The wfkit rows of the Problems panel, filtered to one file. */
async function panelProblems(): Promise<Problem[]> {
  return page.$$eval('.markers-panel .monaco-list-row[aria-level="2"]', (rows) =>
    rows
      .filter((row) => row.querySelector(".marker-source")?.textContent === "wfkit")
      .map((row) => {
        const place = /Ln (\d+), Col (\d+)/.exec(row.querySelector(".marker-line")?.textContent ?? "");
        const icon = row.querySelector(".marker-icon");
        return {
          severity: icon?.classList.contains("error") ? "error" : icon?.classList.contains("warning") ? "warning" : "other",
          code: row.querySelector(".marker-code")?.textContent ?? "",
          line: Number(place?.[1]),
          column: Number(place?.[2]),
          message: row.querySelector(".marker-message")?.textContent ?? "",
        };
      }),
  );
}

async function showProblemsOf(relative: string): Promise<void> {
  if (!(await page.isVisible(".markers-panel"))) await command("Focus Problems (Errors, Warnings, Infos)");
  await page.waitForSelector(".markers-panel", { state: "visible", timeout: UI });
  const filter = page.locator('.part.panel input[placeholder^="Filter"]');
  await filter.fill(`**/${relative}`);
}

/** The graph preview's page: a webview is an iframe in an iframe. */
function preview(): FrameLocator {
  return page.frameLocator("iframe.webview.ready:visible").frameLocator("iframe#active-frame");
}

async function showGraph(): Promise<FrameLocator> {
  await command("wfkit: Show graph");
  const frame = preview();
  await frame.locator("#graph svg g.wf-node").first().waitFor({ timeout: UI });
  return frame;
}

async function closeGraph(): Promise<void> {
  await page.locator('.tab[aria-label^="Graph: "] .codicon-close').first().click();
  await until("the graph preview closed", async () => (await page.locator('.tab[aria-label^="Graph: "]').count()) === 0);
}

/** The view of the preview: the zoom shown, the scroll, and the on-screen size of a node's label. */
function previewView(frame: FrameLocator) {
  return frame.locator("#graph").evaluate((graph) => {
    const text = graph.querySelector("g.wf-node text") as SVGTextElement;
    const matrix = text.getScreenCTM();
    return {
      zoom: document.getElementById("zoom-level")?.textContent ?? "",
      left: graph.scrollLeft,
      top: graph.scrollTop,
      labelPx: matrix ? Math.hypot(matrix.a, matrix.b) * Number.parseFloat(text.getAttribute("font-size") ?? "0") : 0,
    };
  });
}

const nodeIdsOf = (frame: FrameLocator) => frame.locator("#graph svg g.wf-node").evaluateAll((groups) => groups.map((group) => (group.getAttribute("aria-label") ?? "").split(/[,:]/)[0]));

beforeAll(async () => {
  for (const [file, how] of [
    [vsix, "run `npm run build` (it packages the extension)"],
    [path.join(repoRoot, "packages/cli/dist/bundle/cli.cjs"), "run `npm run build`"],
  ] as const) {
    if (!existsSync(file)) throw new Error(`${file} is missing: ${how}`);
  }
  if (!preparedCodeServer()) await prepare();
  rmSync(artefacts, { recursive: true, force: true });
  mkdirSync(artefacts, { recursive: true });

  work = mkdtempSync(path.join(tmpdir(), "wfkit-real-vscode-"));
  ws = path.join(work, "workspace");
  mkdirSync(ws);
  const examples = path.join(repoRoot, "examples");
  mkdirSync(path.join(ws, "broken"));
  for (const name of ["catalogue-faults.wf", "typos.wf", "undeclared.wf", "not-strict.json"]) cpSync(path.join(examples, "broken", name), path.join(ws, "broken", name));
  cpSync(path.join(examples, "analyst-review.wf"), path.join(ws, "analyst-review.wf"));
  cpSync(path.join(examples, "grocer-compare.wf"), path.join(ws, "rename.wf"));
  cpSync(path.join(examples, "broken/undeclared.wf"), path.join(ws, "quickfix.wf"));
  writeFileSync(path.join(ws, "scratch.wf"), "trigger start on_demand\npart report = pack@1\ndestination inbox standalone\n\n");
  // The analyst review, written carelessly: spacing, indentation, blank lines.
  const messy = readFileSync(path.join(examples, "analyst-review.wf"), "utf8")
    .replace(/^part /gm, "   part  ")
    .replace(/ = /g, "=")
    .replace(/ -> /g, "->")
    .replace(/\n\n/g, "\n\n\n");
  writeFileSync(path.join(ws, "messy.wf"), messy);
  writeFileSync(
    path.join(ws, "cpix.alert.json"),
    JSON.stringify({ name: "CPIX jumps", type: "cpix_change", condition: "above", threshold: 2, geography: "Atlantis", email: "analyst@example" }, null, 2) + "\n",
  );

  codeServer = await startCodeServer({ vsix, workspace: ws, home: path.join(work, "home") });
  try {
    browser = await launchChromium({ viewport: { width: 1600, height: 1000 } });
  } catch (error) {
    throw new Error(`the browser did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  page = await browser.context.newPage();
  page.setDefaultTimeout(UI);
  await page.goto(`${codeServer.url}?folder=${encodeURIComponent(ws)}`, { timeout: 60_000 });
  await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout: 60_000 });
}, PREPARE_MS + 120_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await codeServer?.stop();
  if (codeServer) {
    const logs = path.join(artefacts, "logs");
    mkdirSync(logs, { recursive: true });
    for (const file of logFiles(codeServer.userDataDir)) cpSync(file, path.join(logs, path.relative(path.join(codeServer.userDataDir, "logs"), file).replace(/[\\/]/g, "__")));
    writeFileSync(path.join(logs, "code-server.out"), codeServer.output());
  }
  if (work) rmSync(work, { recursive: true, force: true });
}, 30_000);

describe("the extension in a real VS Code (code-server)", () => {
  beforeEach(async (context) => {
    context.onTestFailed(async () => {
      if (page) await shot(`failed-${context.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, "-")}`).catch(() => undefined);
    });
    if (page) await settle();
  });

  it("activates on a .wf file: the language, the highlighting, the code lens", async () => {
    await openFile("analyst-review.wf");
    await until("the estimate code lens", async () => /^estimate /.test((await page.textContent(".codelens-decoration", { timeout: UI })) ?? ""));
    expect(await page.textContent('[id="status.editor.mode"]')).toContain("wfkit workflow");
    await shot("01-activation");
    const log = logFiles(codeServer!.userDataDir).filter((file) => file.endsWith("remoteexthost.log")).map((file) => readFileSync(file, "utf8")).join("\n");
    expect(log).toMatch(/ExtensionService#_doActivateExtension wfkit\.wfkit-vscode/);
  });

  it("shows a part's catalogue entry on hover", async () => {
    await goTo(8, 16);
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    const hover = await until("a hover", async () => ((await page.isVisible(".monaco-hover")) ? await page.textContent(".monaco-hover") : ""));
    expect(hover).toContain("terminal.deep_dive");
    expect(hover).toMatch(/produces/i);
    await shot("02-hover");
    await page.keyboard.press("Escape");
  });

  it("completes keywords at the start of a line and node names after an arrow", async () => {
    await openFile("scratch.wf");
    await page.keyboard.press("Control+End");
    const suggestions = async () => page.$$eval(".suggest-widget .monaco-list-row .label-name", (labels) => labels.map((label) => label.textContent ?? ""));
    await page.keyboard.type("pa");
    await page.keyboard.press("Control+Space");
    expect(await until("keyword suggestions", async () => ((await suggestions()).includes("part") ? suggestions() : undefined))).toContain("part");
    await shot("03-completion-keyword");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Shift+Home");
    await page.keyboard.type("start -> ");
    await page.keyboard.press("Control+Space");
    const names = await until("node suggestions", async () => ((await suggestions()).includes("report") ? suggestions() : undefined));
    expect(names).toEqual(expect.arrayContaining(["report", "inbox"]));
    await shot("04-completion-node");
    await page.keyboard.press("Escape");
  });

  it("lists in the Problems panel what `wfkit check --format json` reports, for .wf, a .json definition and an alert body", async () => {
    for (const relative of ["broken/undeclared.wf", "broken/catalogue-faults.wf", "broken/typos.wf", "broken/not-strict.json", "cpix.alert.json"]) {
      const expected = show(cliProblems(relative));
      expect(expected.length, relative).toBeGreaterThan(0);
      await openFile(relative);
      await showProblemsOf(relative);
      const seen = await until(`the Problems panel to list ${expected.length} wfkit problems for ${relative}`, async () => {
        const rows = show(await panelProblems());
        return rows.length === expected.length ? rows : undefined;
      }).catch(async (error) => {
        expect(show(await panelProblems()), `${relative}: ${error instanceof Error ? error.message : error}`).toEqual(expected);
        throw error;
      });
      expect(seen, relative).toEqual(expected);
      await shot(`05-problems-${path.basename(relative).replace(/\.[^.]+$/, "").replace(/\./g, "-")}`);
    }
    await page.locator('.part.panel input[placeholder^="Filter"]').fill("");
    await command("Hide Panel");
    await page.waitForSelector(".markers-panel", { state: "hidden", timeout: UI });
  });

  it("applies a did-you-mean quick fix", async () => {
    await openFile("quickfix.wf");
    await goTo(13, 22);
    await page.keyboard.press("Control+.");
    // The fix is the list's first action, focused: Enter applies it.
    await page.locator('.action-widget .monaco-list-row.focused[aria-label="Change to `report`"]').waitFor({ timeout: UI });
    await shot("06-quick-fix");
    await page.keyboard.press("Enter");
    const text = await saveAndRead("quickfix.wf");
    expect(text.split("\n")[12]).toBe("start -> compare -> report -> inbox");
    expect(cliProblems("quickfix.wf").map((problem) => problem.code)).not.toContain("undeclared-node");
  });

  it("renames a node in its declaration and every edge", async () => {
    await openFile("rename.wf");
    await goTo(8, 7);
    await page.keyboard.press("F2");
    const box = page.locator(".rename-box input");
    await box.waitFor({ timeout: UI });
    expect(await box.inputValue()).toBe("compare");
    await box.fill("peers");
    await shot("07-rename");
    await page.keyboard.press("Enter");
    const text = await saveAndRead("rename.wf");
    expect(text).toContain("part peers = terminal.compare@1 { job compare.peers@1 subjects [tesco, sainsbury] }");
    expect(text).toContain("start -> peers -> report -> floor -> inbox");
    expect(wfkit(["check", "rename.wf"]).status).toBe(0);
  });

  it("formats a document exactly as `wfkit fmt` does", async () => {
    const expected = wfkit(["fmt", "messy.wf"]).stdout;
    expect(expected).not.toBe(readFileSync(path.join(ws, "messy.wf"), "utf8"));
    await openFile("messy.wf");
    await command("Format Document");
    expect(await saveAndRead("messy.wf")).toBe(expected);
    await shot("08-format");
  });

  it("shows the estimate's line for each part when its code lens is clicked, and goes to the part picked", async () => {
    const report = JSON.parse(wfkit(["estimate", "--format", "json", "analyst-review.wf"]).stdout) as { files: { estimate: { costMinorUnits: number; parts: { nodeId: string; partId: string; costMinorUnits: number }[] } }[] };
    const { estimate } = report.files[0]!;
    const minor = (n: number) => `${n.toLocaleString("en")} minor unit${n === 1 ? "" : "s"}`;
    await openFile("analyst-review.wf");
    await page.locator(".codelens-decoration a", { hasText: "estimate" }).first().click();
    const rows = page.locator(".quick-input-widget .quick-input-list .monaco-list-row");
    await until("the estimate's rows", async () => (await rows.count()) === estimate.parts.length);
    expect(await page.textContent(".quick-input-widget .quick-input-title")).toBe(`Estimated cost: ${minor(estimate.costMinorUnits)} (valid).`);
    expect(await rows.evaluateAll((items) => items.map((item) => item.querySelector(".label-name")?.textContent ?? item.getAttribute("aria-label")))).toEqual(
      estimate.parts.map((part) => `${part.nodeId} (${part.partId}): ${minor(part.costMinorUnits)}`),
    );
    await shot("09-estimate");
    await page.keyboard.type("review");
    await page.keyboard.press("Enter");
    await until("the cursor on review's declaration", async () => (await cursorText()).startsWith("Ln 10, Col "));
  });

  it("compiles to JSON in a new editor, the JSON `wfkit compile` writes", async () => {
    const expected = JSON.parse(wfkit(["compile", "analyst-review.wf"]).stdout);
    await openFile("analyst-review.wf");
    await command("wfkit: Compile to JSON");
    await page.waitForSelector('.tab.active[aria-label*="Untitled"]', { timeout: UI });
    await until("the JSON in the editor", async () => ((await page.textContent(".editor-group-container.active .view-lines")) ?? "").includes("schemaVersion"));
    await shot("10-compile");
    await page.keyboard.press("Control+S");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: UI });
    // The dialog proposes <workspace>/Untitled-1.json with the name selected: type a name over it.
    const proposal = await until("the save dialog's proposal", async () => {
      const [value, start, end] = await input.evaluate((element: HTMLInputElement) => [element.value, element.selectionStart ?? 0, element.selectionEnd ?? 0] as const);
      return value.endsWith(".json") && end > start ? { value, selected: value.slice(start, end) } : undefined;
    });
    expect(proposal.selected).toMatch(/^Untitled-\d+$/);
    await page.keyboard.type("compiled");
    const target = path.join(ws, "compiled.json");
    await until(`the dialog to read ${target}`, async () => (await input.inputValue()) === target);
    await page.keyboard.press("Enter");
    await until("compiled.json written", () => existsSync(target) && readFileSync(target, "utf8").length > 0);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual(expected);
  });

  it("draws every node in the graph preview at a readable size, keeps the view as it redraws after an edit, and moves the cursor on a click", async () => {
    const definition = JSON.parse(wfkit(["compile", "analyst-review.wf"]).stdout) as { nodes: { id: string }[] };
    await openFile("analyst-review.wf");
    const frame = await showGraph();
    expect(await nodeIdsOf(frame)).toEqual(definition.nodes.map((node) => node.id));
    const fitted = await previewView(frame);
    expect(fitted.labelPx).toBeGreaterThanOrEqual(11);
    await shot("11-graph");

    // Zoom in and pan with the keyboard, inside the preview.
    await frame.locator("#graph").focus();
    await page.keyboard.press("+");
    await page.keyboard.press("+");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    const zoomed = await until("the preview zoomed and panned", async () => {
      const view = await previewView(frame);
      return view.zoom === "156%" && view.left > 0 ? view : undefined;
    });
    expect(zoomed.labelPx).toBeCloseTo(fitted.labelPx * 1.5625, 1);

    // An edit in the editor: the preview redraws with one node more, in the same view.
    await page.locator(".editor-group-container .monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\ngate extra hold\n");
    await until("the new node drawn", async () => (await nodeIdsOf(frame)).includes("extra"));
    expect(await previewView(frame)).toEqual(zoomed);
    await shot("12-graph-after-edit");

    // A click on a node moves the cursor to its name in the editor.
    await frame.locator('#graph g.wf-node[aria-label^="review:"]').click();
    await until("the cursor on review's name", async () => (await cursorText()).startsWith("Ln 10, Col 12 (6 selected)"));
    await shot("13-graph-click");
    await command("File: Revert File");
    await closeGraph();
  });

  it("marks the repeated part's second declaration, where its diagnostic is, in the preview", async () => {
    await openFile("broken/undeclared.wf");
    const frame = await showGraph();
    const reports = frame.locator('#graph g.wf-node[aria-label^="report"]');
    expect(await reports.count()).toBe(2);
    const faulty = frame.locator('#graph g.wf-node.wf-error[aria-label^="report"]');
    expect(await faulty.count()).toBe(1);
    // The estimate counts the first declaration: its cost is drawn there, not on the faulty one.
    expect(await frame.locator('#graph g.wf-node:not(.wf-error)[aria-label^="report"]').textContent()).toContain("cost 20");
    await shot("14-graph-repeated-part");
    await faulty.click();
    await until("the cursor on the second report", async () => (await cursorText()).startsWith("Ln 10, "));
  });

  it("proposes Export SVG beside the source and writes the drawing there", async () => {
    const frame = preview();
    await frame.locator("#export").click();
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: UI });
    const proposed = path.join(ws, "broken", "undeclared.svg");
    await until(`the save dialog to propose ${proposed}`, async () => (await input.inputValue()) === proposed).catch(async (error) => {
      expect(await input.inputValue()).toBe(proposed);
      throw error;
    });
    await shot("15-export-svg");
    await page.keyboard.press("Enter");
    await until("undeclared.svg written", () => existsSync(proposed) && readFileSync(proposed, "utf8").includes("</svg>"));
    expect(readFileSync(proposed, "utf8")).toContain('id="wf-n0"');
    await closeGraph();
  });

  it("leaves the extension host's log and the language server's free of errors from wfkit", () => {
    const files = logFiles(codeServer!.userDataDir);
    const hostLog = files.filter((file) => file.endsWith("remoteexthost.log"));
    expect(hostLog.length).toBeGreaterThan(0);
    // An entry is a time-stamped line and the lines after it (a stack).
    const entries = (file: string) => readFileSync(file, "utf8").split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/);
    const errors = hostLog.flatMap(entries).filter((entry) => /\[error\]/.test(entry) && /wfkit/i.test(entry));
    expect(errors).toEqual([]);
    const serverLog = files.filter((file) => file.includes("wfkit.wfkit-vscode"));
    const serverErrors = serverLog.flatMap(entries).filter((entry) => /\[(error|Error)\b/.test(entry));
    expect(serverErrors).toEqual([]);
  });
});
