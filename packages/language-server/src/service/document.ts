/**
 * A document as the service sees it: one immutable version of a `.wf` or Definition JSON
 * text, the catalogue it is checked against, and its analysis, computed on first use.
 *
 * Versions of one `.wf` document share a history (`DocumentHistory`): an incremental parser,
 * so a new version is parsed reusing every statement the edit left alone; a compile cache, so
 * only the statements the parser made anew are compiled; and a check session, which re-judges
 * only the nodes the compile made anew (and nothing when the definition stayed the same).
 * Versions of a JSON document share the check session: each version is parsed from the last
 * parsed one (@wfkit/dsl's `parseJsonSource` reads again only the value an edit was inside,
 * and copies only the containers above it), so the session re-judges only the node that
 * changed. Parsing, compiling and checking all wait until something asks. Only the latest
 * version of a document may be queried: reusing a parse moves its syntax trees (see
 * wf/incremental-parser.ts).
 */
import { CheckSession, type Catalogue } from "@wfkit/core";
import type { FilePolicy } from "@wfkit/project/pure";
import { CompileCache, LineIndex, compileAst, parseJsonSource, type CompiledAst, type JsonSource, type WfFile } from "@wfkit/dsl";
import { SymbolTable } from "./wf/symbols.js";
import { analyzeDocument, type Analysis } from "./analysis.js";
import { LineMap, composeRegions, type TextEditRegion } from "./text.js";
import type { Language } from "./types.js";
import { IncrementalParser, type ParseResult } from "./wf/incremental-parser.js";

/** What the versions of one document share, so that an edit costs about what it changed (JSON: the check session only). */
export class DocumentHistory {
  readonly parser = new IncrementalParser();
  /** Each statement's compiled output, reused for the statements the parser reused. */
  readonly compileCache = new CompileCache();
  /** Checks each version reusing what it can of the last one's check (the compile cache shares its objects). */
  readonly checkSession = new CheckSession();
}

export class WfkitDocument {
  private analysisResult: Analysis | undefined;
  private parseResult: ParseResult | undefined;
  /**
   * When this version is not parsed yet: the parse it can be reached from incrementally and
   * the one region of text changed since (edits in a burst are composed, not parsed one by one).
   */
  private pending: { base: ParseResult; region: TextEditRegion } | undefined;
  private symbolTable: SymbolTable | undefined;
  private compiledResult: CompiledAst | undefined;
  /** JSON: this version's parse, once made. */
  private jsonParse: JsonSource | undefined;
  /** JSON, not parsed yet: the last parse made, and the one region of text changed since. */
  private jsonPending: { base: JsonSource; region: TextEditRegion } | undefined;

  constructor(
    readonly uri: string,
    readonly language: Language,
    readonly version: number,
    readonly text: string,
    readonly catalogue: Catalogue,
    /** Why the configured catalogue is not in use, shown as a diagnostic. */
    readonly catalogueProblem: string | undefined,
    /** The project's severity settings for this file (the CLI's, from @wfkit/project). */
    readonly policy: FilePolicy,
    /** @internal What this document's versions share (`.wf` only). */
    readonly history: DocumentHistory | undefined,
    readonly lines: LineMap = new LineMap(text),
    /** @internal This text's parse, or how to reach it incrementally. */
    parse?: { result: ParseResult } | { base: ParseResult; region: TextEditRegion },
    /** @internal JSON: this text's parse, or how to reach it incrementally. */
    json?: { source: JsonSource } | { base: JsonSource; region: TextEditRegion },
  ) {
    if (parse && "result" in parse) this.parseResult = parse.result;
    else this.pending = parse;
    if (json && "source" in json) this.jsonParse = json.source;
    else this.jsonPending = json;
  }

  /** The next version after an edit. Nothing is parsed until a feature or a check asks. */
  next(version: number, text: string, lines: LineMap, region: TextEditRegion): WfkitDocument {
    if (this.language === "json") {
      const json = this.jsonParse ? { base: this.jsonParse, region } : this.jsonPending && { base: this.jsonPending.base, region: composeRegions(this.jsonPending.region, region) };
      return new WfkitDocument(this.uri, this.language, version, text, this.catalogue, this.catalogueProblem, this.policy, this.history, lines, undefined, json);
    }
    const pending = this.parseResult
      ? { base: this.parseResult, region }
      : this.pending && { base: this.pending.base, region: composeRegions(this.pending.region, region) };
    return new WfkitDocument(this.uri, this.language, version, text, this.catalogue, this.catalogueProblem, this.policy, this.history, lines, pending);
  }

  /** The same text checked against another catalogue and policy (the parse is reused). */
  withCatalogue(catalogue: Catalogue, problem: string | undefined, policy: FilePolicy): WfkitDocument {
    const parse = this.parseResult ? { result: this.parseResult } : this.pending;
    const json = this.jsonParse ? { source: this.jsonParse } : this.jsonPending;
    return new WfkitDocument(this.uri, this.language, this.version, this.text, catalogue, problem, policy, this.history, this.lines, parse, json);
  }

  /**
   * What reading this version costs (`parsed` for `.wf`, `analysis` for JSON): nothing when it
   * is read already, about the edit when it can be reached from the parser's last parse, the
   * whole text otherwise.
   */
  get parseState(): "done" | "incremental" | "fresh" {
    // A JSON document's features read its analysis (its tree comes with it).
    if (this.language === "json") return this.analysisResult ? "done" : this.jsonParse || this.jsonPending ? "incremental" : "fresh";
    if (this.parseResult) return "done";
    return this.pending && this.history?.parser.current === this.pending.base ? "incremental" : "fresh";
  }

  /** The `.wf` parse of this version: incremental from the parser's last parse when it can be. */
  get parsed(): ParseResult {
    if (this.parseResult) return this.parseResult;
    const parser = this.history?.parser ?? new IncrementalParser();
    // Incremental only from the very parse the pending region starts at; anything else
    // (an older version queried after a newer one) is parsed afresh.
    this.parseResult = this.pending && parser.current === this.pending.base ? parser.update(this.text, this.lines, this.pending.region) : parser.reset(this.text, this.lines);
    this.pending = undefined;
    return this.parseResult;
  }

  /**
   * Readies this document's next edit a step at a time while nothing else is asked (see
   * IncrementalParser.prepare). True when there is nothing (more) to do.
   */
  prepareForEdits(): boolean {
    // An edit's range is mapped through the line starts, built on first use: build them now.
    void this.lines.lineCount;
    const parser = this.history?.parser;
    if (!parser || !this.parseResult || parser.current !== this.parseResult) return true;
    return parser.prepare();
  }

  /**
   * JSON: this version's parse (undefined for `.wf`), made from the last parsed version's when
   * there is one: a keystroke inside a value reads that value again, not the whole text.
   */
  get jsonSource(): JsonSource | undefined {
    if (this.language !== "json") return undefined;
    if (!this.jsonParse) {
      const previous = this.jsonPending && { source: this.jsonPending.base, edit: this.jsonPending.region };
      // The line starts the editor's edits keep up to date place the faults: no pass over the text to find them.
      this.jsonParse = parseJsonSource(this.text, true, { lines: new LineIndex(this.text, () => this.lines.lineStarts), previous });
      this.jsonPending = undefined;
    }
    return this.jsonParse;
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
    // The line starts the editor's edits keep up to date place the compiler's faults: no
    // pass over the whole text to find them again.
    this.compiledResult ??= compileAst(this.parsed.ast, this.text, { cache: this.history?.compileCache, lines: new LineIndex(this.text, () => this.lines.lineStarts) });
    return this.compiledResult;
  }

  /** Compile and check, once per version. */
  get analysis(): Analysis {
    this.analysisResult ??= analyzeDocument(this);
    return this.analysisResult;
  }
}
