/**
 * The graph preview's logic with the host injected (no VS Code): requests to the server,
 * edits coalesced while a drawing is in flight, stale answers dropped, the node under the
 * cursor, clicks moving the cursor, export; and the page's HTML and its CSP.
 */
import { describe, expect, it } from "vitest";
import { REQUESTS } from "../src/client-logic.js";
import { GraphPreview, makeNonce, nodeAt, previewHtml, svgTargetBeside, type SvgTarget, type GraphPreviewNode, type GraphResult, type PreviewHost, type Range, type ToPage } from "../src/graph-preview.js";

const range = (line: number, from: number, to: number): Range => ({ start: { line, character: from }, end: { line, character: to } });
const nodes: GraphPreviewNode[] = [
  { key: "n0", id: "start", kind: "trigger", range: range(0, 0, 23), selectionRange: range(0, 8, 13), errors: 0, warnings: 0 },
  { key: "n1", id: "report", kind: "part", range: range(1, 0, 20), selectionRange: range(1, 5, 11), errors: 1, warnings: 0 },
  { key: "n2", id: "ghost", kind: "missing", range: null, selectionRange: null, errors: 0, warnings: 0 },
];

/** A host whose server answers when the test says so, recording everything. */
function harness() {
  const pending: { params: unknown; resolve: (result: GraphResult) => void }[] = [];
  const posted: ToPage[] = [];
  const revealed: { uri: string; range: Range }[] = [];
  const saved: { svg: string; target: SvgTarget }[] = [];
  const errors: string[] = [];
  const host: PreviewHost = {
    sendRequest: <R>(method: string, params: unknown) => {
      expect(method).toBe(REQUESTS.graph);
      return new Promise<R>((resolve) => pending.push({ params, resolve: resolve as (result: GraphResult) => void }));
    },
    revealRange: (uri, target) => void revealed.push({ uri, range: target }),
    saveSvg: async (svg, target) => void saved.push({ svg, target }),
    showError: (message) => void errors.push(message),
  };
  let title = "";
  const preview = new GraphPreview("file:///w/flow.wf", "/w/flow.wf", { postMessage: (message) => void posted.push(message), setTitle: (text) => (title = text) }, host);
  const answer = async (result: GraphResult) => {
    pending.shift()!.resolve(result);
    for (let tick = 0; tick < 5; tick++) await Promise.resolve();
  };
  return { preview, pending, posted, revealed, saved, errors, answer, title: () => title };
}

describe("the graph preview", () => {
  it("asks the server for the document's drawing and sends it to the page", async () => {
    const h = harness();
    expect(h.title()).toBe("Graph: flow.wf");
    void h.preview.refresh();
    expect(h.pending.map((request) => request.params)).toEqual([{ uri: "file:///w/flow.wf" }]);
    await h.answer({ version: 1, svg: "<svg/>", nodes });
    expect(h.posted).toEqual([{ type: "graph", svg: "<svg/>", nodes }]);
  });

  it("keeps one request in flight: edits meanwhile ask once more, after the answer", async () => {
    const h = harness();
    void h.preview.refresh();
    void h.preview.refresh();
    void h.preview.refresh();
    expect(h.pending).toHaveLength(1);
    await h.answer({ version: 1, svg: "<svg>1</svg>", nodes });
    expect(h.pending).toHaveLength(1);
    await h.answer({ version: 3, svg: "<svg>3</svg>", nodes });
    expect(h.pending).toHaveLength(0);
    expect(h.posted.filter((message) => message.type === "graph").map((message) => (message as { svg: string }).svg)).toEqual(["<svg>1</svg>", "<svg>3</svg>"]);
  });

  it("drops an answer older than the drawing shown, and shows the server's error", async () => {
    const h = harness();
    void h.preview.refresh();
    await h.answer({ version: 5, svg: "<svg>5</svg>", nodes });
    void h.preview.refresh();
    await h.answer({ version: 4, svg: "<svg>4</svg>", nodes });
    void h.preview.refresh();
    await h.answer({ error: "The document is not open in the language server." });
    expect(h.posted.filter((message) => message.type === "graph")).toHaveLength(1);
    expect(h.posted.at(-1)).toEqual({ type: "error", message: "The document is not open in the language server." });
  });

  it("highlights the node declared under the cursor, once per change", async () => {
    const h = harness();
    void h.preview.refresh();
    await h.answer({ version: 1, svg: "<svg/>", nodes });
    h.preview.cursorMoved({ line: 1, character: 3 });
    h.preview.cursorMoved({ line: 1, character: 4 });
    h.preview.cursorMoved({ line: 7, character: 0 });
    expect(h.posted.filter((message) => message.type === "cursor")).toEqual([
      { type: "cursor", key: "n1" },
      { type: "cursor", key: null },
    ]);
  });

  it("moves the cursor to a clicked node's name; ignores a placeholder and anything malformed", async () => {
    const h = harness();
    void h.preview.refresh();
    await h.answer({ version: 1, svg: "<svg/>", nodes });
    await h.preview.receive({ type: "reveal", key: "n1" });
    await h.preview.receive({ type: "reveal", key: "n2" });
    await h.preview.receive({ type: "reveal", key: 7 });
    await h.preview.receive(null);
    await h.preview.receive("reveal");
    expect(h.revealed).toEqual([{ uri: "file:///w/flow.wf", range: range(1, 5, 11) }]);
  });

  it("exports the drawing shown as <name>.svg beside the source, and says so when there is none yet", async () => {
    const h = harness();
    await h.preview.receive({ type: "export" });
    expect(h.errors).toEqual(["The graph has not been drawn yet."]);
    void h.preview.refresh();
    await h.answer({ version: 1, svg: "<svg>drawn</svg>", nodes });
    await h.preview.receive({ type: "export" });
    expect(h.saved).toEqual([{ svg: "<svg>drawn</svg>", target: { name: "flow.svg", uri: "file:///w/flow.svg" } }]);
  });

  it("proposes the SVG in the source's folder, whatever the scheme; a document without one gets a name only", () => {
    expect(svgTargetBeside("file:///tmp/ws/broken/undeclared.wf", "/tmp/ws/broken/undeclared.wf")).toEqual({ name: "undeclared.svg", uri: "file:///tmp/ws/broken/undeclared.svg" });
    expect(svgTargetBeside("file:///c%3A/My%20Flows/a.b.wf", "c:\\My Flows\\a.b.wf")).toEqual({ name: "a.b.svg", uri: "file:///c%3A/My%20Flows/a.b.svg" });
    expect(svgTargetBeside("vscode-remote://ssh-remote%2Bbox/home/me/flow.wf", "/home/me/flow.wf")).toEqual({ name: "flow.svg", uri: "vscode-remote://ssh-remote%2Bbox/home/me/flow.svg" });
    expect(svgTargetBeside("file:///w/Makefile", "/w/Makefile")).toEqual({ name: "Makefile.svg", uri: "file:///w/Makefile.svg" });
    expect(svgTargetBeside("untitled:Untitled-1", "Untitled-1")).toEqual({ name: "Untitled-1.svg" });
  });

  it("sends a reloaded page the last drawing and the cursor's node", async () => {
    const h = harness();
    void h.preview.refresh();
    await h.answer({ version: 1, svg: "<svg/>", nodes });
    h.preview.cursorMoved({ line: 0, character: 9 });
    h.posted.length = 0;
    await h.preview.receive({ type: "ready" });
    expect(h.posted).toEqual([
      { type: "graph", svg: "<svg/>", nodes },
      { type: "cursor", key: "n0" },
    ]);
  });

  it("stops posting once disposed", async () => {
    const h = harness();
    void h.preview.refresh();
    h.preview.dispose();
    await h.answer({ version: 1, svg: "<svg/>", nodes });
    expect(h.posted).toEqual([]);
  });
});

describe("nodeAt", () => {
  it("finds the narrowest declaration holding a position, inclusive at both ends", () => {
    const outer = { ...nodes[0]!, key: "outer", range: range(0, 0, 30) };
    expect(nodeAt([outer, nodes[0]!], { line: 0, character: 23 })?.key).toBe("n0");
    expect(nodeAt([outer, nodes[0]!], { line: 0, character: 24 })?.key).toBe("outer");
    expect(nodeAt(nodes, { line: 2, character: 0 })).toBeUndefined();
  });
});

describe("the page's HTML", () => {
  it("loads only the extension's script (by nonce) and stylesheet, with no inline script or style", () => {
    const html = previewHtml({ scriptUri: "https://file+.vscode-resource/x/preview.js", styleUri: "https://file+.vscode-resource/x/preview.css", cspSource: "https://file+.vscode-resource", nonce: "abc123" });
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1];
    expect(csp).toBe("default-src 'none'; img-src https://file+.vscode-resource data:; style-src https://file+.vscode-resource; script-src 'nonce-abc123'");
    expect(html).toContain('<script nonce="abc123" src="https://file+.vscode-resource/x/preview.js"></script>');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<style|style=|unsafe-inline|unsafe-eval/);
  });

  it("gets a fresh 128-bit nonce from the random source", () => {
    expect(makeNonce((count) => new Uint8Array(count).fill(171))).toBe("ab".repeat(16));
  });
});
