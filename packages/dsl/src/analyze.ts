/**
 * The one entry point the CLI and the language server share: read a `.wf` or `.json` source,
 * check it with @wfkit/core, and place every fault on the text.
 */
import { validateDefinition, type Catalogue, type Estimate, type Fault } from "@wfkit/core";
import type { WfFile } from "./ast.js";
import { compileAst } from "./compile.js";
import { compareFaults, type SourceFault, type SourceRelated } from "./diagnostics.js";
import { parseJsonSource } from "./json-source.js";
import { parse } from "./parser.js";
import type { PointerPart, SourceMap } from "./source-map.js";

export type SourceLanguage = "wf" | "json";

export interface AnalyzeOptions {
  /** The part catalogue to check against; @wfkit/core's sample catalogue when omitted. */
  catalogue?: Catalogue;
}

export interface SourceAnalysis {
  /**
   * The Definition (or version-save body) the source stands for; undefined when syntax errors
   * leave it uncertain. Present even when it has faults, so tools can still show it.
   */
  definition: unknown | undefined;
  /** Every fault, of the language and of the definition, placed on the text, in text order. */
  faults: SourceFault[];
  /** What a run would reserve; present whenever the definition was checked. */
  estimate?: Estimate;
  /** True when there is a definition and no fault is an error (warnings allowed). */
  ok: boolean;
  sourceMap: SourceMap;
  language: SourceLanguage;
  /** The `.wf` syntax tree (undefined for JSON), for symbol lookups and formatting. */
  ast?: WfFile;
  /** The `workflow "name"` of a `.wf` source: metadata, not part of the definition. */
  workflowName?: string;
}

/**
 * Parses, compiles (for `.wf`), validates and places faults. Never throws.
 *
 * Core's faults are skipped where the language already reported an error at the very same
 * place: an edge to an undeclared node is one mistake, not two (`undeclared-node` and
 * core's `edge-dangling`).
 */
export function analyzeSource(text: string, language: SourceLanguage, options: AnalyzeOptions = {}): SourceAnalysis {
  return language === "json" ? analyzeJson(text, options) : analyzeWf(text, options);
}

function analyzeWf(text: string, options: AnalyzeOptions): SourceAnalysis {
  const parsed = parse(text);
  const compiled = compileAst(parsed.ast, text);
  const faults: SourceFault[] = [...parsed.diagnostics, ...compiled.diagnostics];
  const hasSyntaxErrors = parsed.diagnostics.some((fault) => fault.severity === "error");
  const analysis: SourceAnalysis = {
    definition: hasSyntaxErrors ? undefined : compiled.definition,
    faults,
    ok: false,
    sourceMap: compiled.sourceMap,
    language: "wf",
    ast: parsed.ast,
  };
  if (compiled.workflowName !== undefined) analysis.workflowName = compiled.workflowName;
  if (!hasSyntaxErrors) {
    const result = validateDefinition(compiled.definition, options.catalogue ? { catalogue: options.catalogue } : {});
    analysis.estimate = result.estimate;
    addCoreFaults(faults, result.faults, compiled.sourceMap);
  }
  return finish(analysis);
}

function analyzeJson(text: string, options: AnalyzeOptions): SourceAnalysis {
  const source = parseJsonSource(text);
  const faults = [...source.faults];
  const analysis: SourceAnalysis = {
    definition: source.complete ? source.value : undefined,
    faults,
    ok: false,
    sourceMap: source.sourceMap,
    language: "json",
  };
  if (source.complete) {
    const result = validateDefinition(source.value, options.catalogue ? { catalogue: options.catalogue } : {});
    analysis.estimate = result.estimate;
    addCoreFaults(faults, result.faults, source.sourceMap);
  }
  return finish(analysis);
}

function finish(analysis: SourceAnalysis): SourceAnalysis {
  analysis.faults.sort(compareFaults);
  // One `with` on a chain gives every edge of it the same field: one warning is enough.
  const seen = new Set<string>();
  analysis.faults = analysis.faults.filter((fault) => {
    const key = `${fault.code}\u0000${fault.span.start}:${fault.span.end}\u0000${fault.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  analysis.ok = analysis.definition !== undefined && !analysis.faults.some((fault) => fault.severity === "error");
  return analysis;
}

function addCoreFaults(faults: SourceFault[], coreFaults: readonly Fault[], sourceMap: SourceMap): void {
  const languageErrorSpans = new Set(faults.filter((fault) => fault.severity === "error").map((fault) => `${fault.span.start}:${fault.span.end}`));
  for (const fault of coreFaults) {
    const placed = placeFault(fault, sourceMap);
    if (languageErrorSpans.has(`${placed.span.start}:${placed.span.end}`)) continue;
    faults.push(placed);
  }
}

/**
 * Places a core fault: its pointer (and each related pointer) becomes a span and a range.
 * An unknown field is underlined at its name, every other fault at the value.
 */
export function placeFault(fault: Fault, sourceMap: SourceMap): SourceFault {
  const part: PointerPart = fault.code === "unknown-field" ? "key" : "value";
  const lines = sourceMap.lineIndex();
  const span = sourceMap.spanOf(fault.pointer, part);
  const { related, ...rest } = fault;
  const placed: SourceFault = { ...rest, span, range: lines.rangeOf(span) };
  if (related) {
    placed.related = related.map((entry): SourceRelated => {
      const relatedSpan = sourceMap.spanOf(entry.pointer);
      return { ...entry, span: relatedSpan, range: lines.rangeOf(relatedSpan) };
    });
  }
  return placed;
}

