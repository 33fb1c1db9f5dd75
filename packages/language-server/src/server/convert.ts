/**
 * The one place where the service's plain data becomes LSP structures. Kept mechanical on
 * purpose: any decision about *what* to show belongs in the service.
 */
import * as lsp from "vscode-languageserver";
import type * as svc from "../service/types.js";

const SEVERITY: Record<svc.DiagnosticSeverity, lsp.DiagnosticSeverity> = {
  error: lsp.DiagnosticSeverity.Error,
  warning: lsp.DiagnosticSeverity.Warning,
  information: lsp.DiagnosticSeverity.Information,
  hint: lsp.DiagnosticSeverity.Hint,
};

export function diagnostic(uri: string, d: svc.Diagnostic): lsp.Diagnostic {
  const result: lsp.Diagnostic = {
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: d.source,
    message: d.message,
  };
  if (d.codeHref) result.codeDescription = { href: d.codeHref };
  if (d.related.length) result.relatedInformation = d.related.map((r) => ({ location: { uri, range: r.range }, message: r.message }));
  if (d.data) result.data = d.data;
  return result;
}

/** Rebuilds the service's view of a diagnostic the client sends back in a code action request. */
export function diagnosticFromClient(d: lsp.Diagnostic): svc.Diagnostic {
  const severity = (Object.keys(SEVERITY) as svc.DiagnosticSeverity[]).find((key) => SEVERITY[key] === d.severity) ?? "error";
  const result: svc.Diagnostic = {
    range: d.range,
    severity,
    code: typeof d.code === "string" ? d.code : String(d.code ?? ""),
    message: typeof d.message === "string" ? d.message : d.message.value,
    source: "wfkit",
    related: (d.relatedInformation ?? []).map((r) => ({ range: r.location.range, message: r.message })),
  };
  if (d.data && typeof d.data === "object") result.data = d.data as svc.DiagnosticData;
  return result;
}

const COMPLETION_KIND: Record<svc.CompletionKind, lsp.CompletionItemKind> = {
  keyword: lsp.CompletionItemKind.Keyword,
  part: lsp.CompletionItemKind.Module,
  version: lsp.CompletionItemKind.Constant,
  job: lsp.CompletionItemKind.Function,
  node: lsp.CompletionItemKind.Variable,
  subject: lsp.CompletionItemKind.Reference,
  value: lsp.CompletionItemKind.EnumMember,
  snippet: lsp.CompletionItemKind.Snippet,
};

export function completionItem(item: svc.CompletionItem, index: number): lsp.CompletionItem {
  const result: lsp.CompletionItem = { label: item.label, kind: COMPLETION_KIND[item.kind] };
  if (item.detail) result.detail = item.detail;
  if (item.documentation) result.documentation = { kind: lsp.MarkupKind.Markdown, value: item.documentation };
  // Rank first, then the service's order: a fixed-width key keeps the client's sort stable.
  result.sortText = `${String(item.sortRank ?? 5).padStart(2, "0")}${String(index).padStart(5, "0")}`;
  const newText = item.insertText ?? item.label;
  if (item.range) result.textEdit = { range: item.range, newText };
  else if (item.insertText) result.insertText = item.insertText;
  if (item.isSnippet) result.insertTextFormat = lsp.InsertTextFormat.Snippet;
  return result;
}

export function hover(h: svc.Hover): lsp.Hover {
  return { contents: { kind: lsp.MarkupKind.Markdown, value: h.contents }, range: h.range };
}

const SYMBOL_KIND: Record<svc.SymbolKind, lsp.SymbolKind> = {
  trigger: lsp.SymbolKind.Event,
  part: lsp.SymbolKind.Function,
  gate: lsp.SymbolKind.Operator,
  destination: lsp.SymbolKind.Interface,
  subject: lsp.SymbolKind.Constant,
  edges: lsp.SymbolKind.Array,
  workflow: lsp.SymbolKind.Module,
};

export function documentSymbol(s: svc.DocumentSymbol): lsp.DocumentSymbol {
  const result: lsp.DocumentSymbol = { name: s.name, kind: SYMBOL_KIND[s.kind], range: s.range, selectionRange: s.selectionRange };
  if (s.detail) result.detail = s.detail;
  if (s.children?.length) result.children = s.children.map(documentSymbol);
  return result;
}

export function foldingRange(f: svc.FoldingRange): lsp.FoldingRange {
  const result: lsp.FoldingRange = { startLine: f.startLine, endLine: f.endLine };
  if (f.kind) result.kind = f.kind === "comment" ? lsp.FoldingRangeKind.Comment : lsp.FoldingRangeKind.Region;
  return result;
}

export function selectionRange(s: svc.SelectionRange): lsp.SelectionRange {
  return s.parent ? { range: s.range, parent: selectionRange(s.parent) } : { range: s.range };
}

export function documentHighlight(h: svc.DocumentHighlight): lsp.DocumentHighlight {
  return { range: h.range, kind: h.kind === "write" ? lsp.DocumentHighlightKind.Write : lsp.DocumentHighlightKind.Read };
}

export function codeAction(uri: string, a: svc.CodeAction, clientDiagnostics: lsp.Diagnostic[]): lsp.CodeAction {
  const matching = clientDiagnostics.filter((d) => a.diagnostics.some((mine) => sameDiagnostic(d, mine)));
  const result: lsp.CodeAction = {
    title: a.title,
    kind: a.kind === "quickfix" ? lsp.CodeActionKind.QuickFix : lsp.CodeActionKind.Refactor,
  };
  if (a.edits.length) result.edit = { changes: { [uri]: a.edits } };
  if (a.command) result.command = a.command;
  if (matching.length) result.diagnostics = matching;
  if (a.isPreferred) result.isPreferred = true;
  return result;
}

function sameDiagnostic(d: lsp.Diagnostic, mine: svc.Diagnostic): boolean {
  return d.message === mine.message && d.range.start.line === mine.range.start.line && d.range.start.character === mine.range.start.character;
}

export function inlayHint(h: svc.InlayHint): lsp.InlayHint {
  const result: lsp.InlayHint = { position: h.position, label: h.label, kind: lsp.InlayHintKind.Type };
  if (h.tooltip) result.tooltip = h.tooltip;
  if (h.paddingLeft) result.paddingLeft = true;
  return result;
}

export function codeLens(uri: string, l: svc.CodeLens): lsp.CodeLens {
  // A lens without a command is still shown by VS Code only when it has one: use a no-op title command.
  return { range: l.range, command: { title: l.title, command: l.command ?? "", arguments: [uri] } };
}
