/**
 * @wfkit/dsl: the `.wf` language for workflow graphs. Parse, compile to the Definition JSON
 * the workflows service accepts, format, decompile any JSON back to `.wf`, and analyse `.wf`
 * or `.json` sources with every fault placed on the text. Browser-safe: no `node:` imports.
 *
 * Positions follow LSP: 0-based lines and UTF-16 character offsets (see positions.ts).
 */
export { analyzeSource, analyzeCompiledWf, placeFault, type AnalyzeOptions, type CompiledWfOptions, type SourceAnalysis, type SourceLanguage } from "./analyze.js";
export { parse, parseChunk, type ParseResult, type ParsedChunk, type BlockKind } from "./parser.js";
export { chunkEnd, splitChunks, type Chunk } from "./chunks.js";
export { compile, compileAst, CompileCache, type CompileResult, type CompiledAst, type CompileOptions } from "./compile.js";
export { format, type FormatResult } from "./format.js";
export { decompile, type DecompileOptions } from "./decompile.js";
export { collectSymbols, SymbolIndex, type SymbolKind, type SymbolDeclaration, type SymbolReference, type SymbolAt } from "./symbols.js";
export { parseJsonSource, JsonSourceMap, type JsonSource } from "./json-source.js";
export { stringMemberOf } from "./json-convert.js";
export { MAX_JSON_DEPTH } from "./json-value.js";
export { WfSourceMap, type WfOrigins, type EdgeOrigin } from "./wf-source-map.js";
export type { SourceMap, SourceLocation, PointerPart } from "./source-map.js";
export { LineIndex, lineIndexOf, partitionPoint, positionAt, offsetAt, spanOf, type Position, type Range, type Span } from "./positions.js";
export type { SourceFault, SourceRelated } from "./diagnostics.js";
export { jsonEqual } from "@wfkit/core";
export { KEYWORD_TEXTS } from "./lexer.js";
export { printName } from "./printer.js";
export { subjectHintOf, subjectPinEdit, unresolvedReasonText, type CanonicalSubject, type SubjectHint, type SourceEdit } from "./subject-pin.js";
export type * from "./ast.js";
export { ARROW, arrowSpan, keywordOf, keywordSpan, moveAllOffsets, moveOffsets, OFFSET_FIELDS, OFFSET_LIST_FIELDS, offsetHolders, offsetsHeldBy, valueSpanOf } from "./ast.js";
export { syntheticSource, type SyntheticOptions } from "./synthetic.js";
export { railroadHtml } from "./railroad.js";
