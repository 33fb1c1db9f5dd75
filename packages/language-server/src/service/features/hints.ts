/** Inlay hints (cost of each part), the code lens (estimate and verdict), semantic tokens. */
import { indexCatalogue } from "@wfkit/core";
import type { WfkitDocument } from "../document.js";
import { WFKIT_COMMANDS } from "../../protocol.js";
import type { CodeLens, InlayHint, Range, SemanticToken } from "../types.js";
import { costFor, costText } from "./describe.js";

export const SHOW_ESTIMATE_COMMAND = WFKIT_COMMANDS.showEstimate;

export function getInlayHints(document: WfkitDocument, range: Range): InlayHint[] {
  const ast = document.ast;
  if (!ast) return [];
  const catalogue = indexCatalogue(document.catalogue);
  const from = document.lines.offsetAt(range.start);
  const to = document.lines.offsetAt(range.end);
  const hints: InlayHint[] = [];
  for (const statement of ast.statements) {
    if (statement.type !== "part" || statement.end < from || statement.start > to || !statement.partId) continue;
    const part = catalogue.parts.get(statement.partId.text);
    if (!part) continue;
    const subjects = statement.block?.properties.find((property) => property.type === "subjects");
    const count = subjects?.type === "subjects" ? subjects.items.length : 0;
    const anchor = statement.version?.end ?? statement.partId.end;
    hints.push({
      position: document.lines.positionAt(anchor),
      label: `cost ${costFor(part, count)}`,
      tooltip: `${part.partId}: ${costText(part)}${part.terminal ? `, with ${count} subject${count === 1 ? "" : "s"}` : ""}`,
      paddingLeft: true,
    });
  }
  return hints;
}

/** What a code lens shows: a check's counts and estimate (from wherever the check ran). */
export interface LensSummary {
  errors: number;
  warnings: number;
  costMinorUnits: number | undefined;
  /** True when the summary is of an earlier version (a check of this one is under way). */
  stale?: boolean;
}

export function getCodeLenses(document: WfkitDocument, summary: LensSummary = summaryOf(document)): CodeLens[] {
  const { errors, warnings } = summary;
  const verdict = errors ? `${errors} error${errors === 1 ? "" : "s"}` : `valid${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}`;
  const cost = summary.costMinorUnits !== undefined ? `estimate ${summary.costMinorUnits} minor units` : "no estimate (syntax errors)";
  const workflow = document.ast?.statements.find((statement) => statement.type === "workflow");
  const at = workflow ? document.lines.positionAt(workflow.start) : { line: 0, character: 0 };
  return [{ range: { start: at, end: at }, title: `${cost} · ${verdict}${summary.stale ? " (checking…)" : ""}`, command: SHOW_ESTIMATE_COMMAND }];
}

function summaryOf(document: WfkitDocument): LensSummary {
  const { faults, estimate } = document.analysis;
  const errors = faults.filter((fault) => fault.severity === "error").length;
  return { errors, warnings: faults.length - errors, costMinorUnits: estimate?.costMinorUnits };
}

export function getSemanticTokens(document: WfkitDocument): SemanticToken[] {
  const { symbols, ast } = document;
  if (!symbols || !ast) return [];
  const tokens: { start: number; end: number; type: SemanticToken["type"]; declaration: boolean }[] = [];
  for (const declaration of symbols.declarations) tokens.push({ ...declaration.span, type: declaration.namespace === "subject" ? "subject" : "node", declaration: true });
  for (const reference of symbols.references) tokens.push({ ...reference.span, type: reference.namespace === "subject" ? "subject" : "node", declaration: false });
  for (const statement of ast.statements) {
    if (statement.type !== "part" || !statement.partId) continue;
    tokens.push({ start: statement.partId.start, end: statement.partId.end, type: "part", declaration: false });
    if (statement.version) tokens.push({ start: statement.version.start, end: statement.version.end, type: "version", declaration: false });
  }
  tokens.sort((a, b) => a.start - b.start);
  const result: SemanticToken[] = [];
  for (const token of tokens) {
    const start = document.lines.positionAt(token.start);
    const end = document.lines.positionAt(token.end);
    // Semantic tokens cannot span lines; names never do, but a broken quoted name might.
    if (end.line !== start.line || token.end <= token.start) continue;
    result.push({ line: start.line, character: start.character, length: end.character - start.character, type: token.type, modifiers: token.declaration ? ["declaration"] : ["reference"] });
  }
  return result;
}
