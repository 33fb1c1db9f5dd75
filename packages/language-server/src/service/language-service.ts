/**
 * The wfkit language service: documents in, plain results out (modelled on
 * vscode-json-languageservice). It knows nothing of the LSP or of I/O: the caller owns the
 * documents' texts, versions and catalogues, and converts results to its protocol.
 */
import { defaultCatalogue, DOCS_URL, type Catalogue } from "@wfkit/core";
import { decompile, format as formatWf } from "@wfkit/dsl";
import { NO_POLICY, type FilePolicy } from "@wfkit/project/pure";
import { DocumentHistory, WfkitDocument } from "./document.js";
import { applyChanges } from "./text.js";
import type {
  CodeAction,
  CodeActionOptions,
  CodeLens,
  CompletionItem,
  Diagnostic,
  DocumentHighlight,
  DocumentSymbol,
  FoldingRange,
  FormattingOptions,
  Hover,
  InlayHint,
  Language,
  Position,
  Range,
  SelectionRange,
  SemanticToken,
  TextChange,
  TextEdit,
} from "./types.js";
import { doValidation } from "./features/diagnostics.js";
import { doComplete } from "./features/completion.js";
import { doHover } from "./features/hover.js";
import * as navigation from "./features/navigation.js";
import * as outline from "./features/outline.js";
import { getCodeActions } from "./features/actions.js";
import * as hints from "./features/hints.js";
import type { LensSummary } from "./features/hints.js";

/** The folder of the code pages (`docs/rules/`); every code in core's registry has one. */
export const DEFAULT_DOCS_BASE_URL = `${DOCS_URL}rules/`;

export interface LanguageServiceOptions {
  /** Where code pages live (`<base><code>.md`), for diagnostics' `codeDescription`. */
  docsBaseUrl?: string;
}

export interface DocumentInit {
  uri: string;
  language: Language;
  version: number;
  text: string;
  catalogue?: Catalogue;
  catalogueProblem?: string | undefined;
  /** The project's severity settings (none when omitted). */
  policy?: FilePolicy;
}

export interface LanguageService {
  createDocument(init: DocumentInit): WfkitDocument;
  /** The next version of a document: `changes` applied in order, unchanged statements reused. */
  updateDocument(document: WfkitDocument, version: number, changes: readonly TextChange[]): WfkitDocument;
  /** The same version checked against another catalogue and policy. */
  withCatalogue(document: WfkitDocument, catalogue: Catalogue, problem?: string, policy?: FilePolicy): WfkitDocument;

  doValidation(document: WfkitDocument): Diagnostic[];
  doComplete(document: WfkitDocument, position: Position): CompletionItem[];
  doHover(document: WfkitDocument, position: Position): Hover | undefined;
  findDefinition(document: WfkitDocument, position: Position): Range | undefined;
  findReferences(document: WfkitDocument, position: Position, includeDeclaration: boolean): Range[];
  findDocumentHighlights(document: WfkitDocument, position: Position): DocumentHighlight[];
  prepareRename(document: WfkitDocument, position: Position): { range: Range; placeholder: string } | { error: string } | undefined;
  doRename(document: WfkitDocument, position: Position, newName: string): { edits: TextEdit[] } | { error: string } | undefined;
  findDocumentSymbols(document: WfkitDocument): DocumentSymbol[];
  getFoldingRanges(document: WfkitDocument): FoldingRange[];
  getSelectionRanges(document: WfkitDocument, positions: Position[]): SelectionRange[];
  format(document: WfkitDocument, options?: FormattingOptions): TextEdit[];
  getCodeActions(document: WfkitDocument, range: Range, diagnostics: Diagnostic[], options?: CodeActionOptions): CodeAction[];
  getInlayHints(document: WfkitDocument, range: Range): InlayHint[];
  /** The estimate and verdict lens; from `summary` when the caller has a check already (else checks). */
  getCodeLenses(document: WfkitDocument, summary?: LensSummary): CodeLens[];
  getSemanticTokens(document: WfkitDocument): SemanticToken[];

  /** The Definition JSON of a document (pretty-printed). */
  compile(document: WfkitDocument): { json: string; ok: boolean } | { error: string };
  /** `.wf` text for a Definition JSON text. */
  decompile(jsonText: string): { text: string } | { error: string };
  estimate(document: WfkitDocument): { costMinorUnits: number; parts: { nodeId: string; partId: string; costMinorUnits: number }[]; ok: boolean; errors: number } | { error: string };
}

export function createLanguageService(options: LanguageServiceOptions = {}): LanguageService {
  const docsBaseUrl = options.docsBaseUrl ?? DEFAULT_DOCS_BASE_URL;
  return {
    createDocument(init) {
      const history = new DocumentHistory();
      return new WfkitDocument(init.uri, init.language, init.version, init.text, init.catalogue ?? defaultCatalogue, init.catalogueProblem, init.policy ?? NO_POLICY, history);
    },
    updateDocument(document, version, changes) {
      const { text, lines, region } = applyChanges(document.lines, changes);
      return document.next(version, text, lines, region);
    },
    withCatalogue(document, catalogue, problem, policy) {
      return document.withCatalogue(catalogue, problem, policy ?? NO_POLICY);
    },
    doValidation: (document) => doValidation(document, docsBaseUrl),
    doComplete,
    doHover,
    findDefinition: navigation.findDefinition,
    findReferences: navigation.findReferences,
    findDocumentHighlights: navigation.findDocumentHighlights,
    prepareRename: navigation.prepareRename,
    doRename: navigation.doRename,
    findDocumentSymbols: outline.findDocumentSymbols,
    getFoldingRanges: outline.getFoldingRanges,
    getSelectionRanges: outline.getSelectionRanges,
    format(document) {
      if (document.language !== "wf") return [];
      const result = formatWf(document.text);
      // The formatter leaves text with syntax errors unchanged (`changed` is false).
      if (!result.changed) return [];
      return [{ range: document.lines.rangeOf(0, document.text.length), newText: result.text }];
    },
    getCodeActions,
    getInlayHints: hints.getInlayHints,
    getCodeLenses: hints.getCodeLenses,
    getSemanticTokens: hints.getSemanticTokens,
    compile(document) {
      const { compiled, ok } = document.analysis;
      if (compiled === undefined) return { error: "the text has no definition to compile (see the Problems panel)" };
      return { json: JSON.stringify(compiled, null, 2) + "\n", ok };
    },
    decompile(jsonText) {
      let value: unknown;
      try {
        value = JSON.parse(jsonText);
      } catch (error) {
        return { error: `the JSON does not parse (${error instanceof Error ? error.message : String(error)})` };
      }
      try {
        return { text: decompile(value) };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    },
    estimate(document) {
      const { estimate, ok, faults } = document.analysis;
      if (!estimate) return { error: "the text has syntax errors, so it cannot be estimated yet" };
      return { ...estimate, ok, errors: faults.filter((fault) => fault.severity === "error").length };
    },
  };
}
