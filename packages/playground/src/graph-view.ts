/**
 * The graph beside the editor: the SVG the language server drew (`wfkit/graph`), with each
 * node a button that moves the editor's cursor to its declaration. While the text has syntax
 * errors that leave no graph, the last drawing stays, dimmed, with a note saying so.
 *
 * The drawing is fitted to the pane no smaller than labels 11 px high, scrolls past that, and
 * zooms and pans by mouse and keyboard (@wfkit/graph/pan-zoom, as in the editor preview); a redraw keeps
 * the view. The pane's tab panel is what scrolls.
 */
import type { GraphPictureNode } from "@wfkit/language-server/browser";
import { PanZoom, ZOOM_STEP } from "@wfkit/graph/pan-zoom";
import { importSvg } from "./safe-markup.js";

export interface GraphView {
  show(svg: string, nodes: readonly GraphPictureNode[], errors: number): void;
  showError(message: string): void;
}

export function createGraphView(container: HTMLElement, reveal: (node: GraphPictureNode) => void): GraphView {
  const note = document.createElement("p");
  note.className = "graph-note";
  note.setAttribute("role", "status");
  const drawing = document.createElement("div");
  drawing.className = "graph-drawing";
  const zoom = zoomBar();
  container.replaceChildren(zoom.bar, note, drawing);
  let nodesByKey = new Map<string, GraphPictureNode>();
  // The tab panel scrolls (the page's stylesheet); a container outside one scrolls itself.
  const viewport = container.closest<HTMLElement>('[role="tabpanel"]') ?? container;
  const panZoom = new PanZoom(viewport, drawing, (view) => (zoom.level.textContent = `${Math.round(view.scale * 100)}%`));
  zoom.zoomIn.addEventListener("click", () => panZoom.zoomBy(ZOOM_STEP));
  zoom.zoomOut.addEventListener("click", () => panZoom.zoomBy(1 / ZOOM_STEP));
  zoom.fit.addEventListener("click", () => panZoom.fit());

  const nodeOf = (target: EventTarget | null): GraphPictureNode | undefined => {
    const group = (target as Element | null)?.closest?.("g.wf-node");
    return group ? nodesByKey.get(group.id.replace(/^wf-/, "")) : undefined;
  };
  drawing.addEventListener("click", (event) => {
    const node = nodeOf(event.target);
    if (node) reveal(node);
  });
  drawing.addEventListener("keydown", (event) => {
    const node = event.key === "Enter" || event.key === " " ? nodeOf(event.target) : undefined;
    if (!node) return;
    event.preventDefault();
    reveal(node);
  });

  return {
    show(svgText, nodes, errors) {
      if (nodes.length === 0 && errors > 0 && drawing.firstChild) {
        drawing.classList.add("stale");
        note.textContent = "The text has errors that leave no graph: this is the last one drawn.";
        return;
      }
      const svg = importSvg(svgText);
      if (!svg) return this.showError("The graph could not be shown: the drawing was not valid SVG.");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", `The workflow's graph: ${nodes.length} node${nodes.length === 1 ? "" : "s"}`);
      nodesByKey = new Map(nodes.map((node) => [node.key, node]));
      for (const group of Array.from(svg.querySelectorAll<SVGGElement>("g.wf-node"))) {
        const node = nodesByKey.get(group.id.replace(/^wf-/, ""));
        if (!node?.selectionRange) continue;
        const faults = node.errors + node.warnings;
        group.setAttribute("tabindex", "0");
        group.setAttribute("role", "button");
        group.setAttribute("aria-label", `${node.id}${faults ? `, ${node.errors} errors, ${node.warnings} warnings` : ""}: go to its declaration`);
      }
      drawing.classList.remove("stale");
      note.textContent = nodes.length ? "" : "No nodes yet: declare a trigger, parts and a destination, and connect them with ->.";
      panZoom.show(svg);
    },
    showError(message) {
      drawing.classList.add("stale");
      note.textContent = message;
    },
  };
}

/**
 * The zoom buttons above the drawing, kept in view as the pane scrolls. Styled here through
 * the CSS object model (which the page's Content Security Policy allows, unlike style
 * attributes), with the page toolbar's look.
 */
function zoomBar() {
  const bar = document.createElement("div");
  bar.className = "toolbar graph-zoom";
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", "Zoom: + and - zoom, 0 fits, the arrow keys pan, Ctrl with the wheel zooms");
  Object.assign(bar.style, { position: "sticky", top: "0", left: "0", zIndex: "1", gap: "0.25rem", padding: "0.25rem 0", marginBottom: "0.5rem", borderBottom: "none", background: "var(--bg)" });
  const button = (text: string, title: string, label: string) => {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = text;
    element.title = title;
    element.setAttribute("aria-label", label);
    return element;
  };
  const zoomOut = button("−", "Zoom out (-)", "Zoom out");
  const fit = button("Fit", "Fit to the pane (0)", "Fit to the pane");
  const zoomIn = button("+", "Zoom in (+)", "Zoom in");
  const level = document.createElement("span");
  level.className = "graph-zoom-level";
  level.style.color = "var(--muted)";
  level.style.minWidth = "3.5em";
  bar.append(zoomOut, fit, zoomIn, level);
  return { bar, zoomOut, fit, zoomIn, level };
}
