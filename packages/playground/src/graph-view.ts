/**
 * The graph beside the editor: the SVG the language server drew (`wfkit/graph`), with each
 * node a button that moves the editor's cursor to its declaration. While the text has syntax
 * errors that leave no graph, the last drawing stays, dimmed, with a note saying so.
 */
import type { GraphPictureNode } from "@wfkit/language-server/browser";
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
  container.replaceChildren(note, drawing);
  let nodesByKey = new Map<string, GraphPictureNode>();

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
      svg.removeAttribute("width");
      svg.removeAttribute("height");
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
      drawing.replaceChildren(svg);
    },
    showError(message) {
      drawing.classList.add("stale");
      note.textContent = message;
    },
  };
}
