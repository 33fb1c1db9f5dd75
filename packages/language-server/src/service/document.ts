/**
 * A document as the service sees it: one immutable version of a `.wf` or Definition JSON
 * text, the catalogue it is checked against, and its analysis, computed on first use.
 *
 * Versions of one document share an incremental parser (`.wf`): a new version is parsed as
 * soon as it is made, reusing every statement the edit left alone, while compiling and
 * checking wait until something asks. Only the latest version of a document may be queried:
 * reusing a parse moves its syntax trees (see wf/incremental-parser.ts).
 */
import type { Catalogue } from "@wfkit/core";
import { compileAst, type CompiledAst, type WfFile } from "@wfkit/dsl";
import { SymbolTable } from "./wf/symbols.js";
import { analyzeDocument, type Analysis } from "./analysis.js";
import { LineMap, type TextEditRegion } from "./text.js";
import type { Language } from "./types.js";
import { IncrementalParser, type ParseResult } from "./wf/incremental-parser.js";

export class WfkitDocument {
  private analysisResult: Analysis | undefined;
  private parseResult: ParseResult | undefined;
  private symbolTable: SymbolTable | undefined;
  private compiledResult: CompiledAst | undefined;

  constructor(
    readonly uri: string,
    readonly language: Language,
    readonly version: number,
    readonly text: string,
    readonly catalogue: Catalogue,
    /** Why the configured catalogue is not in use, shown as a diagnostic. */
    readonly catalogueProblem: string | undefined,
    /** @internal The parser this document's history shares (`.wf` only). */
    readonly parser: IncrementalParser | undefined,
    readonly lines: LineMap = new LineMap(text),
    /** @internal The parse of this text, when the parser made it incrementally already. */
    parsed?: ParseResult,
  ) {
    this.parseResult = parsed;
  }

  /** The next version after an edit: parsed at once, incrementally, when this version was parsed. */
  next(version: number, text: string, lines: LineMap, region: TextEditRegion): WfkitDocument {
    const parsed = this.parseResult && this.parser ? this.parser.update(text, lines, region) : undefined;
    return new WfkitDocument(this.uri, this.language, version, text, this.catalogue, this.catalogueProblem, this.parser, lines, parsed);
  }

  /** The same text checked against another catalogue (the parse is reused). */
  withCatalogue(catalogue: Catalogue, problem: string | undefined): WfkitDocument {
    return new WfkitDocument(this.uri, this.language, this.version, this.text, catalogue, problem, this.parser, this.lines, this.parseResult);
  }

  /** The `.wf` parse of this version. */
  get parsed(): ParseResult {
    this.parseResult ??= (this.parser ?? new IncrementalParser()).reset(this.text, this.lines);
    return this.parseResult;
  }

  /** The `.wf` syntax tree (undefined for JSON). */
  get ast(): WfFile | undefined {
    return this.language === "wf" ? this.parsed.ast : undefined;
  }

  /** Declarations and references of names (`.wf`); needs the parse only, never a check. */
  get symbols(): SymbolTable | undefined {
    if (this.language !== "wf") return undefined;
    this.symbolTable ??= new SymbolTable(this.parsed.ast);
    return this.symbolTable;
  }

  /** What the `.wf` text compiles to (no check), for features that read the graph. */
  get compiled(): CompiledAst | undefined {
    if (this.language !== "wf") return undefined;
    this.compiledResult ??= compileAst(this.parsed.ast, this.text);
    return this.compiledResult;
  }

  /** Compile and check, once per version. */
  get analysis(): Analysis {
    this.analysisResult ??= analyzeDocument(this);
    return this.analysisResult;
  }
}
