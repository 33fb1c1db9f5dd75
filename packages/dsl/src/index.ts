/**
 * @wfkit/dsl: the `.wf` language for workflow graphs. Parse, compile to the Definition JSON
 * the workflows service accepts, format, decompile any JSON back to `.wf`, and analyse `.wf`
 * or `.json` sources with every fault placed on the text. Browser-safe: no `node:` imports.
 *
 * Positions follow LSP: 0-based lines and UTF-16 character offsets (see positions.ts).
 */
import type { Expected } from "./parser.js";
import { chevrotainPath } from "./parser-loader.js";
export { analyzeSource, analyzeCompiledWf, placeFault, type AnalyzeOptions, type CompiledWfOptions, type SourceAnalysis, type SourceLanguage } from "./analyze.js";
export { chunkEnd, parse, parseChunk, parserSetupMs, type ParseResult, type ParsedChunk } from "./chunks.js";
export type { Expected } from "./parser.js";
export { compile, compileAst, CompileCache, type CompileResult, type CompiledAst, type CompileOptions } from "./compile.js";
export { format, type FormatResult } from "./printer.js";
export { decompile, type DecompileOptions } from "./decompile.js";
export { parseJsonSource, JsonSourceMap, type JsonSource } from "./json-source.js";
export { MAX_JSON_DEPTH, stringMemberOf } from "./json-value.js";
export { WfSourceMap, type WfOrigins, type EdgeOrigin, type SourceMap, type SourceLocation, type PointerPart } from "./source-map.js";
export { LineIndex, lineIndexOf, partitionPoint, positionAt, offsetAt, spanOf, type Position, type Range, type Span } from "./positions.js";
export type { SourceFault, SourceRelated } from "./diagnostics.js";
export { jsonEqual } from "@wfkit/core";
export * from "./syntax-table.js";
export { applyEdits, applySafeFixes, declaredNames, faultedSubject, fixesFor, FIXABLE_CODES, MAX_FIX_ROUNDS, onlyCandidate, statementAt, type AppliedFix, type FixableFault, type FixAnalysis, type FixInput, type SafeFixResult, type SourceFix } from "./fixes.js";
export { subjectHintOf, subjectPinEdit, unresolvedReasonText, type CanonicalSubject, type SubjectHint, type SourceEdit } from "./subject-pin.js";
export type * from "./ast.js";
export { ARROW, arrowSpan, keywordOf, keywordSpan, moveAllOffsets, moveOffsets, OFFSET_FIELDS, OFFSET_LIST_FIELDS, offsetHolders, offsetsHeldBy, valueSpanOf } from "./ast.js";
export { syntheticSource, type SyntheticOptions } from "./synthetic.js";

// The chevrotain path is loaded on first need (parser-loader.ts): these two go through it.
/** What the grammar takes at the end of `text` (what completion offers there). */
export const expectedAt = (text: string): Expected => chevrotainPath().expectedAt(text);
/** The railroad (syntax) diagram of the grammar, as an HTML page. */
export const railroadHtml = (): string => chevrotainPath().railroadHtml();
