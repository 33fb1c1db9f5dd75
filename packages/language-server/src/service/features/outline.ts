/** Document symbols (outline), folding ranges and selection ranges for `.wf`. */
import { type Statement, spanOf } from "@wfkit/dsl";
import type { WfkitDocument } from "../document.js";
import type { DocumentSymbol, FoldingRange, Position, Range, SelectionRange, SymbolKind } from "../types.js";
import { statementAt } from "./hover.js";

export function findDocumentSymbols(document: WfkitDocument): DocumentSymbol[] {
  const ast = document.ast;
  if (!ast) return [];
  const range = (span: { start: number; end: number }) => document.lines.rangeOf(span.start, span.end);
  const symbols: DocumentSymbol[] = [];
  const edges: DocumentSymbol[] = [];
  for (const statement of ast.statements) {
    const described = describe(statement);
    if (!described) continue;
    const symbol: DocumentSymbol = { name: described.name, kind: described.kind, range: range(spanOf(statement)), selectionRange: range(described.nameSpan ?? spanOf(statement)) };
    if (described.detail) symbol.detail = described.detail;
    (described.kind === "edges" ? edges : symbols).push(symbol);
  }
  if (edges.length) {
    const first = edges[0]!.range.start;
    const last = edges[edges.length - 1]!.range.end;
    symbols.push({ name: "edges", kind: "edges", detail: `${edges.length} statement${edges.length === 1 ? "" : "s"}`, range: { start: first, end: last }, selectionRange: edges[0]!.selectionRange, children: edges });
  }
  return symbols;
}

function describe(statement: Statement): { name: string; kind: SymbolKind; detail?: string; nameSpan?: { start: number; end: number } } | undefined {
  switch (statement.type) {
    case "trigger":
      return statement.name && { name: statement.name.text, kind: "trigger", detail: statement.spec?.kind.text, nameSpan: spanOf(statement.name) };
    case "part":
      return statement.name && { name: statement.name.text, kind: "part", detail: statement.partId ? `${statement.partId.text}${statement.version ? "@" + statement.version.text : ""}` : undefined, nameSpan: spanOf(statement.name) };
    case "gate":
      return statement.name && { name: statement.name.text, kind: "gate", detail: statement.belowFloor?.text, nameSpan: spanOf(statement.name) };
    case "destination":
      return statement.name && { name: statement.name.text, kind: "destination", detail: statement.spec?.kind.text, nameSpan: spanOf(statement.name) };
    case "subject":
      return statement.name && { name: statement.name.text, kind: "subject", detail: statement.body?.type === "typed" ? statement.body.label?.text : undefined, nameSpan: spanOf(statement.name) };
    case "workflow":
      return { name: statement.name?.text ?? "workflow", kind: "workflow", nameSpan: statement.name && spanOf(statement.name) };
    case "chain":
      return { name: statement.groups.map((group) => group.map((name) => name.text).join(", ")).join(" -> "), kind: "edges" };
    case "node":
      return { name: "node", kind: "part" };
    case "edge":
      return { name: "edge", kind: "edges" };
    default:
      return undefined;
  }
}

export function getFoldingRanges(document: WfkitDocument): FoldingRange[] {
  const ast = document.ast;
  if (!ast) return [];
  const ranges: FoldingRange[] = [];
  const lineOf = (offset: number) => document.lines.positionAt(offset).line;
  // Statements over several lines (blocks, JSON literals, version bodies).
  for (const statement of ast.statements) {
    const start = lineOf(statement.start);
    const end = lineOf(statement.end);
    if (end > start) ranges.push({ startLine: start, endLine: end });
  }
  // Runs of comment lines, and `# region` / `# endregion` markers.
  let runStart = -1;
  let runEnd = -1;
  const regions: number[] = [];
  for (const comment of ast.comments) {
    const line = lineOf(comment.start);
    if (/^#\s*region\b/.test(comment.text)) regions.push(line);
    else if (/^#\s*endregion\b/.test(comment.text) && regions.length) ranges.push({ startLine: regions.pop()!, endLine: line, kind: "region" });
    if (line === runEnd + 1 && runStart >= 0) runEnd = line;
    else {
      if (runEnd > runStart) ranges.push({ startLine: runStart, endLine: runEnd, kind: "comment" });
      runStart = runEnd = line;
    }
  }
  if (runEnd > runStart) ranges.push({ startLine: runStart, endLine: runEnd, kind: "comment" });
  return ranges.sort((a, b) => a.startLine - b.startLine);
}

/** Selection ranges: word, then each syntax element around it, then the statement, then the file. */
export function getSelectionRanges(document: WfkitDocument, positions: Position[]): SelectionRange[] {
  const ast = document.ast;
  const whole: SelectionRange = { range: document.lines.rangeOf(0, document.text.length) };
  return positions.map((position) => {
    const offset = document.lines.offsetAt(position);
    const statement = ast ? statementAt(ast.statements, offset) : undefined;
    if (!statement) return { range: { start: position, end: position }, parent: whole };
    const spans = enclosingSpans(statement, offset);
    let current: SelectionRange = whole;
    const seen = new Set<string>();
    // From the statement inwards, each span a child of the one around it.
    for (const span of spans) {
      const key = `${span.start}:${span.end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const range: Range = document.lines.rangeOf(span.start, span.end);
      current = { range, parent: current };
    }
    return current;
  });
}

/** Every span in the statement's tree that contains `offset`, outermost first. */
function enclosingSpans(statement: Statement, offset: number): { start: number; end: number }[] {
  const result: { start: number; end: number }[] = [];
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== "object") return;
    if (Array.isArray(value)) return value.forEach(visit);
    // Syntax elements carry their own offsets; plain spans (a fault's) are not
    // elements of their own and add no step.
    const record = value as Record<string, unknown>;
    if (typeof record.start === "number" && typeof record.end === "number" && !isPlainSpan(record)) {
      if (offset < record.start || offset > record.end) return;
      result.push({ start: record.start, end: record.end });
    }
    for (const key in record) visit(record[key]);
  };
  visit(statement);
  return result.sort((a, b) => b.end - b.start - (a.end - a.start));
}

function isPlainSpan(record: Record<string, unknown>): boolean {
  let keys = 0;
  for (const _ in record) keys++;
  return keys === 2;
}
