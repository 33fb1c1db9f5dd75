/**
 * The playground page: a CodeMirror editor talking to the wfkit language server in a Web
 * Worker (@codemirror/lsp-client over worker.ts), and beside it what the server makes of the
 * text: the graph, the estimate and the compiled JSON. The examples are in the bundle, and a
 * share link carries the text in the address's fragment, so the page asks the network for
 * nothing once it is loaded.
 */
import { basicSetup } from "codemirror";
import { EditorView, keymap } from "@codemirror/view";
import { setDiagnostics, lintGutter } from "@codemirror/lint";
import {
  LSPClient,
  LSPPlugin,
  findReferencesKeymap,
  formatDocument,
  formatKeymap,
  hoverTooltips,
  jumpToDefinitionKeymap,
  renameKeymap,
  serverCompletion,
  type LSPClientExtension,
} from "@codemirror/lsp-client";
import type * as lsp from "vscode-languageserver-protocol";
import { WFKIT_METHODS, type CheckedParams, type CompileResult, type EstimateResult, type GraphPictureNode, type GraphResult } from "@wfkit/language-server/protocol";
import { examples } from "wfkit:examples";
import { workerTransport } from "./transport.js";
import { sanitizeHtml } from "./safe-markup.js";
import { semanticTokens, semanticTokensEffect, wfLanguage, type TokenLegend } from "./wf-syntax.js";
import { createGraphView } from "./graph-view.js";
import { shareFragment, sharedTextOf } from "./share.js";

/** The one document the page edits. */
const URI = "file:///playground.wf";
/** The example shown when the address carries no text. */
const FIRST_EXAMPLE = "grocer-compare";
/** How soon after a keystroke the text goes to the server (lsp-client's own wait is 500 ms). */
const SYNC_DELAY_MS = 100;
/** Graphviz's first layout compiles its WebAssembly: give requests longer than lsp-client's 3 s. */
const REQUEST_TIMEOUT_MS = 20_000;

/** wfkit's requests and notification (see docs/editor.md). */
const METHODS = WFKIT_METHODS;

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = element<HTMLSpanElement>("status");
const notice = element<HTMLParagraphElement>("notice");
const exampleSelect = element<HTMLSelectElement>("example");
const shareLink = element<HTMLInputElement>("share-link");

/** A message that stays until the next one (the status line is the latest check's). */
function notify(message: string, kind: "info" | "error" = "info"): void {
  notice.textContent = message;
  notice.classList.toggle("error", kind === "error");
  notice.hidden = false;
}

// ---- the language server ----------------------------------------------------------------

const worker = new Worker("worker.js");
worker.addEventListener("error", (event) => notify(`The language server stopped: ${event.message || "an error in its worker"}. Reload the page to start it again.`, "error"));

let latest: CheckedParams | undefined;

/** Diagnostics shown with their code, which names the page of docs/rules/ that explains them. */
const diagnostics: LSPClientExtension = {
  clientCapabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } },
  notificationHandlers: {
    "textDocument/publishDiagnostics": (client, params: lsp.PublishDiagnosticsParams) => {
      const file = client.workspace.getFile(params.uri);
      if (!file || (params.version != null && params.version !== file.version)) return false;
      const view = file.getView();
      const plugin = view && LSPPlugin.get(view);
      if (!view || !plugin) return false;
      const at = (position: lsp.Position) => plugin.unsyncedChanges.mapPos(plugin.fromPosition(position, plugin.syncedDoc));
      const severity = (value: lsp.DiagnosticSeverity | undefined) => (value === 2 ? "warning" : value === 3 ? "info" : value === 4 ? "hint" : "error");
      view.dispatch(
        setDiagnostics(
          view.state,
          params.diagnostics.map((d) => ({ from: at(d.range.start), to: at(d.range.end), severity: severity(d.severity), message: typeof d.message === "string" ? d.message : d.message.value, ...(d.code !== undefined ? { source: String(d.code) } : {}) })),
        ),
      );
      performance.mark("wfkit:diagnostics");
      return true;
    },
    [METHODS.checked]: (_client, params: CheckedParams) => {
      if (params.uri !== URI) return false;
      latest = params;
      showSummary(params);
      void refresh();
      return true;
    },
  },
};

const client = new LSPClient({
  rootUri: "file:///",
  timeout: REQUEST_TIMEOUT_MS,
  sanitizeHTML: sanitizeHtml,
  extensions: [serverCompletion(), hoverTooltips(), keymap.of([...formatKeymap, ...renameKeymap, ...jumpToDefinitionKeymap, ...findReferencesKeymap]), diagnostics],
}).connect(workerTransport(worker));

// ---- the editor --------------------------------------------------------------------------

/** Sends edits to the server a moment after typing stops (the first diagnostics come from the open). */
const quickSync = EditorView.updateListener.of((update) => {
  if (!update.docChanged) return;
  clearTimeout(syncTimer);
  syncTimer = setTimeout(() => client.sync(), SYNC_DELAY_MS);
});
let syncTimer: ReturnType<typeof setTimeout> | undefined;

const view = new EditorView({
  parent: element("editor"),
  extensions: [
    basicSetup,
    wfLanguage,
    lintGutter(),
    semanticTokens,
    quickSync,
    client.plugin(URI, "wf"),
    EditorView.contentAttributes.of({ "aria-label": "Workflow text (.wf)" }),
  ],
});

function setText(text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 }, scrollIntoView: true });
  client.sync();
}

// ---- what the server makes of the text ---------------------------------------------------

const graph = createGraphView(element("graph"), (node: GraphPictureNode) => {
  if (!node.selectionRange) return;
  const plugin = LSPPlugin.get(view);
  if (!plugin) return;
  const from = plugin.fromPosition(node.selectionRange.start);
  const to = plugin.fromPosition(node.selectionRange.end);
  view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
  view.focus();
});

const TABS = ["graph", "estimate", "json"] as const;
type Tab = (typeof TABS)[number];
let activeTab: Tab = "graph";

function showSummary({ errors, warnings, costMinorUnits }: CheckedParams): void {
  const counts = errors || warnings ? `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}` : "No problems";
  const cost = costMinorUnits === undefined ? "no estimate while the text does not compile" : `estimated cost ${costMinorUnits.toLocaleString("en")} minor units`;
  status.textContent = `${counts}; ${cost}.`;
  status.classList.toggle("error", errors > 0);
}

/** The version the server checked last is still the editor's: anything newer brings its own check. */
function isCurrent(version: number): boolean {
  return client.workspace.getFile(URI)?.version === version;
}

let refreshing = false;
let refreshAgain = false;

/** Brings the semantic colours and the visible tab up to the latest check, one round at a time. */
async function refresh(): Promise<void> {
  if (refreshing) {
    refreshAgain = true;
    return;
  }
  refreshing = true;
  try {
    do {
      refreshAgain = false;
      const checked = latest;
      if (!checked || !isCurrent(checked.version)) break;
      await Promise.all([refreshTokens(checked.version), refreshTab(activeTab, checked)]);
    } while (refreshAgain);
  } catch (error) {
    notify(`The language server did not answer: ${error instanceof Error ? error.message : String(error)}`, "error");
  } finally {
    refreshing = false;
  }
}

async function refreshTokens(version: number): Promise<void> {
  const legend = client.serverCapabilities?.semanticTokensProvider?.legend as TokenLegend | undefined;
  if (!legend) return;
  const doc = view.state.doc;
  const tokens = await client.request<lsp.SemanticTokensParams, lsp.SemanticTokens | null>("textDocument/semanticTokens/full", { textDocument: { uri: URI } });
  if (tokens && isCurrent(version) && view.state.doc.eq(doc)) view.dispatch({ effects: semanticTokensEffect(doc, tokens.data, legend) });
}

async function refreshTab(tab: Tab, checked: CheckedParams): Promise<void> {
  if (tab === "graph") {
    const result = await client.request<{ uri: string }, GraphResult>(METHODS.graph, { uri: URI });
    if (!isCurrent(checked.version)) return;
    if ("error" in result) graph.showError(result.error);
    else graph.show(result.svg, result.nodes, checked.errors);
    performance.mark("wfkit:graph");
  } else if (tab === "json") {
    const result = await client.request<{ uri: string }, CompileResult>(METHODS.compile, { uri: URI });
    if (isCurrent(checked.version)) element("json").textContent = "error" in result ? result.error : result.json;
  } else {
    const result = await client.request<{ uri: string }, EstimateResult>(METHODS.estimate, { uri: URI });
    if (isCurrent(checked.version)) showEstimate(result);
  }
}

function showEstimate(result: EstimateResult): void {
  const container = element("estimate");
  if ("error" in result) {
    container.textContent = result.error;
    return;
  }
  const table = document.createElement("table");
  const row = (cells: string[], header = false) => {
    const tr = table.insertRow();
    for (const text of cells) {
      const cell = document.createElement(header ? "th" : "td");
      cell.textContent = text;
      tr.append(cell);
    }
    return tr;
  };
  row(["Node", "Part", "Minor units"], true);
  for (const part of result.parts) row([part.nodeId, part.partId, part.costMinorUnits.toLocaleString("en")]);
  row(["Total", "", result.costMinorUnits.toLocaleString("en")], true).className = "total";
  const note = document.createElement("p");
  note.textContent = result.ok
    ? "What a run of this workflow would reserve against the usage allowance (the figure validate-definition returns)."
    : `The text has ${result.errors} error${result.errors === 1 ? "" : "s"}, so this figure may be incomplete.`;
  container.replaceChildren(table, note);
}

// ---- tabs (WAI-ARIA: arrow keys move between them, Tab moves into the panel) -------------

const tabButton = (tab: Tab) => element<HTMLButtonElement>(`tab-${tab}`);

function selectTab(tab: Tab, focus = false): void {
  activeTab = tab;
  for (const other of TABS) {
    const selected = other === tab;
    tabButton(other).setAttribute("aria-selected", String(selected));
    tabButton(other).tabIndex = selected ? 0 : -1;
    element(`panel-${other}`).hidden = !selected;
  }
  if (focus) tabButton(tab).focus();
  void refresh();
}

for (const tab of TABS) {
  tabButton(tab).addEventListener("click", () => selectTab(tab));
  tabButton(tab).addEventListener("keydown", (event) => {
    const index = TABS.indexOf(tab);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1 + TABS.length, Home: 0, End: TABS.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    selectTab(TABS[next % TABS.length]!, true);
  });
}

// ---- examples, formatting and share links ------------------------------------------------

for (const example of examples) {
  const option = new Option(example.name, example.name);
  option.title = example.title;
  exampleSelect.add(option);
}
exampleSelect.title = "Open an example (it replaces the text)";

function openExample(name: string): void {
  const example = examples.find((candidate) => candidate.name === name) ?? examples[0];
  if (!example) return;
  exampleSelect.value = example.name;
  setText(example.text);
  // The address no longer carries this text.
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  shareLink.hidden = true;
}

exampleSelect.addEventListener("change", () => openExample(exampleSelect.value));

element("format").addEventListener("click", () => {
  formatDocument(view);
  view.focus();
});

element("share").addEventListener("click", async () => {
  const fragment = await shareFragment(view.state.doc.toString());
  history.replaceState(null, "", `#${fragment}`);
  shareLink.value = location.href;
  shareLink.hidden = false;
  shareLink.focus();
  shareLink.select();
  try {
    await navigator.clipboard.writeText(location.href);
    notify("The share link is in the address bar and on the clipboard.");
  } catch {
    notify("The share link is in the address bar and in the box: copy it from there.");
  }
});

async function openFromAddress(): Promise<void> {
  const shared = await sharedTextOf(location.hash.slice(1));
  if (shared === undefined) return openExample(FIRST_EXAMPLE);
  if ("error" in shared) {
    openExample(FIRST_EXAMPLE);
    return notify(shared.error, "error");
  }
  exampleSelect.selectedIndex = -1;
  setText(shared.text);
}

window.addEventListener("hashchange", () => void openFromAddress());
void openFromAddress();
