/**
 * The graph preview's page script, run inside the webview (bundled to dist/preview.js and
 * loaded by URL under a strict CSP: no inline script, no eval). It shows the SVG the extension
 * sends, highlights the node under the editor's cursor, and reports clicks and the export
 * button. It never parses the workflow: the language server drew the picture. The drawing is
 * fitted to the panel at a readable size, zoomed and panned by mouse and keyboard
 * (@wfkit/graph/pan-zoom), and its view is kept across redraws and in the webview's state, so a page
 * reloaded when its tab comes back shows what it showed.
 */
import { PanZoom, ZOOM_STEP, type GraphView } from "@wfkit/graph/pan-zoom";

interface PreviewNode {
  key: string;
  id: string;
  errors: number;
  warnings: number;
}

type ToPage = { type: "graph"; svg: string; nodes: PreviewNode[] } | { type: "cursor"; key: string | null } | { type: "error"; message: string };

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; getState?(): unknown; setState?(state: unknown): void };

const vscode = acquireVsCodeApi();
const container = document.getElementById("graph")!;
const status = document.getElementById("status")!;
const zoomLevel = document.getElementById("zoom-level");
let current: string | null = null;

function savedView(): GraphView | undefined {
  const state = vscode.getState?.() as { view?: Partial<GraphView> } | undefined;
  const view = state?.view;
  if (!view || typeof view.scale !== "number" || typeof view.left !== "number" || typeof view.top !== "number") return undefined;
  return { scale: view.scale, left: view.left, top: view.top, fitted: view.fitted === true };
}

let restore = savedView();
const panZoom = new PanZoom(container, container, (view) => {
  if (zoomLevel) zoomLevel.textContent = `${Math.round(view.scale * 100)}%`;
  vscode.setState?.({ view });
});

const SVG_NS = "http://www.w3.org/2000/svg";

/** The SVG element of a text, without anything that could run: scripts, event attributes, links out. */
function parseSvg(text: string): SVGSVGElement | undefined {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG_NS || root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length) return undefined;
  for (const element of Array.from(root.querySelectorAll("script, foreignObject"))) element.remove();
  for (const element of Array.from(root.querySelectorAll("*"))) {
    for (const attribute of Array.from(element.attributes)) if (/^on/i.test(attribute.name) || /href$/i.test(attribute.name)) element.removeAttribute(attribute.name);
  }
  return document.importNode(root, true) as unknown as SVGSVGElement;
}

function showGraph(svgText: string, nodes: readonly PreviewNode[]): void {
  const svg = parseSvg(svgText);
  if (!svg) return showError("The graph could not be shown: the drawing was not valid SVG.");
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  for (const group of Array.from(svg.querySelectorAll<SVGGElement>("g.wf-node"))) {
    const node = byKey.get(group.id.replace(/^wf-/, ""));
    if (!node) continue;
    group.setAttribute("tabindex", "0");
    group.setAttribute("role", "button");
    const faults = node.errors + node.warnings;
    group.setAttribute("aria-label", `${node.id}${faults ? `, ${node.errors} errors, ${node.warnings} warnings` : ""}: go to its declaration`);
  }
  panZoom.show(svg, restore);
  restore = undefined;
  const errors = nodes.reduce((sum, node) => sum + node.errors, 0);
  const warnings = nodes.reduce((sum, node) => sum + node.warnings, 0);
  status.textContent = errors || warnings ? `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"} on nodes` : "";
  status.classList.remove("error");
  highlight(current);
}

function showError(message: string): void {
  status.textContent = message;
  status.classList.add("error");
}

function highlight(key: string | null): void {
  current = key;
  for (const element of Array.from(container.querySelectorAll(".wf-current"))) element.classList.remove("wf-current");
  if (key !== null) container.querySelector(`#wf-${CSS.escape(key)}`)?.classList.add("wf-current");
}

function nodeKeyOf(target: EventTarget | null): string | undefined {
  const group = target instanceof Element ? target.closest("g.wf-node") : null;
  return group?.id.startsWith("wf-") ? group.id.slice(3) : undefined;
}

window.addEventListener("message", (event: MessageEvent<ToPage>) => {
  const message = event.data;
  if (message?.type === "graph" && typeof message.svg === "string" && Array.isArray(message.nodes)) showGraph(message.svg, message.nodes);
  else if (message?.type === "cursor") highlight(typeof message.key === "string" ? message.key : null);
  else if (message?.type === "error" && typeof message.message === "string") showError(message.message);
});

container.addEventListener("click", (event) => {
  const key = nodeKeyOf(event.target);
  if (key !== undefined) vscode.postMessage({ type: "reveal", key });
});

container.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" && event.key !== " ") return;
  const key = nodeKeyOf(event.target);
  if (key === undefined) return;
  event.preventDefault();
  vscode.postMessage({ type: "reveal", key });
});

document.getElementById("export")!.addEventListener("click", () => vscode.postMessage({ type: "export" }));
document.getElementById("zoom-in")?.addEventListener("click", () => panZoom.zoomBy(ZOOM_STEP));
document.getElementById("zoom-out")?.addEventListener("click", () => panZoom.zoomBy(1 / ZOOM_STEP));
document.getElementById("zoom-fit")?.addEventListener("click", () => panZoom.fit());

vscode.postMessage({ type: "ready" });
