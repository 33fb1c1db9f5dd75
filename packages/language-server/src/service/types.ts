/**
 * Plain data the language service speaks. Shaped like the LSP's structures (so the transport
 * converts them one to one) but owned here: the service never imports an LSP package, and it
 * can be driven by a CLI, a test or another protocol just as well.
 */

/** Positions are the DSL's plain ones (0-based line, UTF-16 character; ranges end-exclusive). */
export type { Position, Range } from "@wfkit/dsl";
import type { Position, Range } from "@wfkit/dsl";

export type Language = "wf" | "json";

/** One edit as an editor sends it: a range replaced by text, or the whole text when `range` is absent. */
export interface TextChange {
  range?: Range;
  text: string;
}

export interface TextEdit {
  range: Range;
  newText: string;
}

export type DiagnosticSeverity = "error" | "warning" | "information" | "hint";

export interface RelatedInformation {
  range: Range;
  message: string;
}

export interface Diagnostic {
  range: Range;
  severity: DiagnosticSeverity;
  /** The rule or language code, e.g. `part-unknown`, `syntax`. */
  code: string;
  /** Where the code is documented; absent for codes without a page. */
  codeHref?: string;
  message: string;
  source: "wfkit";
  related: RelatedInformation[];
  /** What code actions need to offer a fix (the fault's suggestion, its node). */
  data?: DiagnosticData;
}

export interface DiagnosticData {
  suggestion?: string;
  nodeId?: string | null;
  pointer?: string;
}

export type CompletionKind = "keyword" | "part" | "version" | "job" | "node" | "subject" | "value" | "snippet";

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: string;
  /** Replaces this range with `insertText` (defaults to the word at the cursor and the label). */
  range?: Range;
  insertText?: string;
  /** A snippet in the LSP snippet syntax (`$1`, `${1:name}`). */
  isSnippet?: boolean;
  /** Lower sorts first; ties keep the list's order. */
  sortRank?: number;
}

export interface Hover {
  /** Markdown. */
  contents: string;
  range: Range;
}

export interface Location {
  uri: string;
  range: Range;
}

export type SymbolKind = "trigger" | "part" | "gate" | "destination" | "subject" | "edges" | "workflow";

export interface DocumentSymbol {
  name: string;
  detail?: string;
  kind: SymbolKind;
  range: Range;
  selectionRange: Range;
  children?: DocumentSymbol[];
}

export interface FoldingRange {
  startLine: number;
  endLine: number;
  kind?: "comment" | "region";
}

export interface SelectionRange {
  range: Range;
  parent?: SelectionRange;
}

export interface DocumentHighlight {
  range: Range;
  kind: "read" | "write";
}

export interface CodeAction {
  title: string;
  kind: "quickfix" | "refactor";
  /** The diagnostics this action fixes. */
  diagnostics: Diagnostic[];
  edits: TextEdit[];
  /** A command the server runs when the action is chosen (after `edits`, if any). */
  command?: { title: string; command: string; arguments: unknown[] };
  isPreferred?: boolean;
}

/** What a code action request may offer beyond the text: set by the transport, which knows its configuration. */
export interface CodeActionOptions {
  /** A Workflows API is configured for the document: offer to pin subjects through it. */
  servicePinning?: boolean;
}

export interface InlayHint {
  position: Position;
  label: string;
  tooltip?: string;
  paddingLeft?: boolean;
}

export interface CodeLens {
  range: Range;
  title: string;
  /** A command the client runs when the lens is clicked (optional). */
  command?: string;
}

export const SEMANTIC_TOKEN_TYPES = ["node", "part", "subject", "keyword", "version"] as const;
export type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];
export const SEMANTIC_TOKEN_MODIFIERS = ["declaration", "reference"] as const;
export type SemanticTokenModifier = (typeof SEMANTIC_TOKEN_MODIFIERS)[number];

export interface SemanticToken {
  line: number;
  character: number;
  length: number;
  type: SemanticTokenType;
  modifiers: SemanticTokenModifier[];
}

export interface FormattingOptions {
  tabSize: number;
  insertSpaces: boolean;
}

/** A cooperative cancellation flag: long computations poll it and give up early. */
export interface CancellationFlag {
  readonly isCancellationRequested: boolean;
}

export const NEVER_CANCELLED: CancellationFlag = { isCancellationRequested: false };

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

export function rangeContains(range: Range, position: Position): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0;
}
