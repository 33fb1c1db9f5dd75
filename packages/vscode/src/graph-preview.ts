/**
 * The live graph beside a `.wf` editor, written against a small host (`PreviewHost`) so that
 * it is unit-tested without VS Code; extension.ts binds the real webview panel to it.
 *
 * The drawing comes from the language server (`wfkit/graph`: the SVG of its analysis and each
 * node's declaration), never from a parse of our own. One request is in flight per preview:
 * edits made meanwhile ask again once it answers, so typing never queues a layout per key,
 * and an answer for an older version than the one shown is dropped.
 */
import type { Position, Range } from "vscode-languageclient";
import type { GraphPictureNode, GraphResult } from "@wfkit/language-server/protocol";
import { REQUESTS, baseName } from "./client-logic.js";

export type { Position, Range };

/** A node of the preview, and the answer of `wfkit/graph`: the editor protocol's. */
export type GraphPreviewNode = GraphPictureNode;
export type { GraphResult };

/** Messages to the page (webview/preview.ts reads them). */
export type ToPage = { type: "graph"; svg: string; nodes: GraphPreviewNode[] } | { type: "cursor"; key: string | null } | { type: "error"; message: string };
/** Messages from the page. */
export type FromPage = { type: "ready" } | { type: "reveal"; key: string } | { type: "export" };

/** The webview panel as the preview uses it. */
export interface PreviewPanel {
  postMessage(message: ToPage): void;
  setTitle(title: string): void;
}

export interface PreviewHost {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
  /** Shows `range` of the document `uri` in its editor, cursor at its start. */
  revealRange(uri: string, range: Range): void;
  /** Asks where to save, proposing `target`, and writes the SVG there. */
  saveSvg(svg: string, target: SvgTarget): Promise<void>;
  showError(message: string): void;
}

/**
 * Where Export SVG proposes to save: `<file>.svg` beside the source. `uri` is that file's URI
 * (the document's own with its last segment's extension replaced, so the scheme and folder
 * stay: a remote or virtual folder too); a document with no folder (`untitled:`) has no `uri`,
 * and the host proposes `name` in the workspace folder.
 */
export interface SvgTarget {
  name: string;
  uri?: string;
}

export function svgTargetBeside(documentUri: string, fileName: string): SvgTarget {
  const name = baseName(fileName).replace(/\.[^.]*$/, "") + ".svg";
  // A hierarchical URI (scheme://authority/path), as VS Code writes file: and remote ones.
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(\/[^?#]*)$/i.exec(documentUri);
  const path = match?.[2];
  if (!match || !path || path.endsWith("/")) return { name };
  const slash = path.lastIndexOf("/");
  const segment = path.slice(slash + 1).replace(/\.[^.]*$/, "");
  return { name, uri: `${match[1]}${path.slice(0, slash + 1)}${segment}.svg` };
}

export class GraphPreview {
  private nodes: GraphPreviewNode[] = [];
  private svg: string | undefined;
  private shownVersion = -1;
  private inFlight = false;
  private again = false;
  private cursor: Position | undefined;
  private highlighted: string | null = null;
  private disposed = false;

  constructor(
    readonly uri: string,
    private readonly fileName: string,
    private readonly panel: PreviewPanel,
    private readonly host: PreviewHost,
  ) {
    panel.setTitle(`Graph: ${baseName(fileName)}`);
  }

  /** Asks the server for the current drawing, or marks that it must ask again after the answer in flight. */
  refresh(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.inFlight) {
      this.again = true;
      return Promise.resolve();
    }
    return this.request();
  }

  private async request(): Promise<void> {
    this.inFlight = true;
    this.again = false;
    let result: GraphResult;
    try {
      result = await this.host.sendRequest<GraphResult>(REQUESTS.graph, { uri: this.uri });
    } catch (error) {
      result = { error: error instanceof Error ? error.message : String(error) };
    }
    this.inFlight = false;
    if (this.disposed) return;
    if ("error" in result) this.panel.postMessage({ type: "error", message: result.error });
    else if (result.version >= this.shownVersion) {
      this.shownVersion = result.version;
      this.nodes = result.nodes;
      this.svg = result.svg;
      this.panel.postMessage({ type: "graph", svg: result.svg, nodes: result.nodes });
      this.highlighted = null;
      this.postCursor();
    }
    if (this.again) await this.request();
  }

  /** The page loaded (or reloaded, when its tab was hidden): send it what is known. */
  private resend(): void {
    if (this.svg !== undefined) this.panel.postMessage({ type: "graph", svg: this.svg, nodes: this.nodes });
    this.highlighted = null;
    this.postCursor();
  }

  /** The cursor moved in the document's editor: highlight the node declared there. */
  cursorMoved(position: Position): void {
    this.cursor = position;
    this.postCursor();
  }

  private postCursor(): void {
    const key = this.cursor ? (nodeAt(this.nodes, this.cursor)?.key ?? null) : null;
    if (key === this.highlighted) return;
    this.highlighted = key;
    this.panel.postMessage({ type: "cursor", key });
  }

  /** A message from the page. Anything malformed is ignored: the page is ours, but it is a boundary. */
  async receive(message: unknown): Promise<void> {
    if (typeof message !== "object" || message === null) return;
    const { type, key } = message as { type?: unknown; key?: unknown };
    if (type === "ready") this.resend();
    else if (type === "reveal" && typeof key === "string") {
      const node = this.nodes.find((candidate) => candidate.key === key);
      const range = node?.selectionRange ?? node?.range;
      if (range) this.host.revealRange(this.uri, range);
    } else if (type === "export") {
      if (this.svg === undefined) return this.host.showError("The graph has not been drawn yet.");
      await this.host.saveSvg(this.svg, svgTargetBeside(this.uri, this.fileName));
    }
  }

  dispose(): void {
    this.disposed = true;
  }
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

function contains(range: Range, position: Position): boolean {
  return before(range.start, position) && before(position, range.end);
}

function size(range: Range): number {
  return (range.end.line - range.start.line) * 1e6 + (range.end.character - range.start.character);
}

/** The node whose declaration holds `position` (the narrowest, should declarations nest). */
export function nodeAt(nodes: readonly GraphPreviewNode[], position: Position): GraphPreviewNode | undefined {
  let best: GraphPreviewNode | undefined;
  for (const node of nodes) {
    if (!node.range || !contains(node.range, position)) continue;
    if (!best || size(node.range) < size(best.range!)) best = node;
  }
  return best;
}

/**
 * The page's HTML: no inline script or style, the script and stylesheet from the extension's
 * files (`webview.asWebviewUri`), and a Content Security Policy that allows only them (the
 * script by nonce) and the SVG's own presentation attributes.
 */
export function previewHtml(options: { scriptUri: string; styleUri: string; cspSource: string; nonce: string }): string {
  const csp = [`default-src 'none'`, `img-src ${options.cspSource} data:`, `style-src ${options.cspSource}`, `script-src 'nonce-${options.nonce}'`].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(options.styleUri)}">
<title>wfkit graph</title>
</head>
<body>
<div class="toolbar"><button id="export" type="button">Export SVG…</button><span class="zoom"><button id="zoom-out" type="button" title="Zoom out (-)" aria-label="Zoom out">−</button><button id="zoom-fit" type="button" title="Fit to the panel (0)">Fit</button><button id="zoom-in" type="button" title="Zoom in (+)" aria-label="Zoom in">+</button><span id="zoom-level" aria-label="Zoom"></span></span><span id="status" role="status"></span></div>
<div id="graph" tabindex="0" aria-label="Workflow graph: + and - zoom, 0 fits, the arrow keys pan"></div>
<script nonce="${escapeAttribute(options.nonce)}" src="${escapeAttribute(options.scriptUri)}"></script>
</body>
</html>
`;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (char) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[char]!);
}

/** A fresh nonce per page: 128 random bits. */
export function makeNonce(randomBytes: (count: number) => Uint8Array): string {
  return Array.from(randomBytes(16), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
