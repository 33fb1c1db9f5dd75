/**
 * The analysis of one document version: what every feature reads. For `.wf` it is what
 * `analyzeSource` computes (the CLI's verdict), reached through the incremental parser; for
 * JSON it is `analyzeSource` itself plus jsonc-parser's tree for hovers.
 */
import { validateDefinition, type Estimate } from "@wfkit/core";
import { analyzeSource, compileAst, placeFault, compareFaults, type SourceFault, type WfFile, type SourceMap } from "@wfkit/dsl";
import { parseTree, type Node as JsonNode } from "jsonc-parser";
import type { WfkitDocument } from "./document.js";
import { SymbolTable } from "./wf/symbols.js";
import { IncrementalParser } from "./wf/incremental-parser.js";

export interface Analysis {
  faults: SourceFault[];
  estimate: Estimate | undefined;
  ok: boolean;
  /** What the text compiles to, even with syntax errors (best effort), for hovers and commands. */
  compiled: unknown;
  /** The definition the CLI would check (undefined when syntax errors make it uncertain). */
  definition: unknown;
  sourceMap: SourceMap;
  /** `.wf` only. */
  ast: WfFile | undefined;
  symbols: SymbolTable | undefined;
  /** JSON only. */
  jsonTree: JsonNode | undefined;
}

export function analyzeDocument(document: WfkitDocument): Analysis {
  return document.language === "json" ? analyzeJson(document) : analyzeWf(document);
}

function analyzeJson(document: WfkitDocument): Analysis {
  const result = analyzeSource(document.text, "json", { catalogue: document.catalogue });
  return {
    faults: result.faults,
    estimate: result.estimate,
    ok: result.ok,
    compiled: result.definition,
    definition: result.definition,
    sourceMap: result.sourceMap,
    ast: undefined,
    symbols: undefined,
    jsonTree: parseTree(document.text),
  };
}

/**
 * The same steps as `analyzeSource(text, "wf")`, with the parse made incremental: syntax
 * faults, then the compiler's language faults, then (when the syntax is sound) core's
 * faults placed through the source map, minus those at the very place of a language error.
 */
function analyzeWf(document: WfkitDocument): Analysis {
  const parser = document.parser ?? new IncrementalParser();
  const parsed = parser.parse(document.text, document.lines);
  const compiled = compileAst(parsed.ast, document.text);
  const faults: SourceFault[] = [...parsed.diagnostics, ...compiled.diagnostics];
  const hasSyntaxErrors = parsed.diagnostics.some((fault) => fault.severity === "error");
  let estimate: Estimate | undefined;
  if (!hasSyntaxErrors) {
    const result = validateDefinition(compiled.definition, { catalogue: document.catalogue });
    estimate = result.estimate;
    const languageErrorSpans = new Set(faults.filter((fault) => fault.severity === "error").map((fault) => `${fault.span.start}:${fault.span.end}`));
    for (const fault of result.faults) {
      const placed = placeFault(fault, compiled.sourceMap);
      if (!languageErrorSpans.has(`${placed.span.start}:${placed.span.end}`)) faults.push(placed);
    }
  }
  faults.sort(compareFaults);
  const definition = hasSyntaxErrors ? undefined : compiled.definition;
  return {
    faults,
    estimate,
    ok: definition !== undefined && !faults.some((fault) => fault.severity === "error"),
    compiled: compiled.definition,
    definition,
    sourceMap: compiled.sourceMap,
    ast: parsed.ast,
    symbols: new SymbolTable(parsed.ast),
    jsonTree: undefined,
  };
}
