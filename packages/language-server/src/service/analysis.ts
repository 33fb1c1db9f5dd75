/**
 * The analysis of one document version: what every feature reads. For `.wf` it is what
 * `analyzeSource` computes (the CLI's verdict), reached through the incremental parser; for
 * JSON it is `analyzeSource` itself plus jsonc-parser's tree for hovers.
 */
import { validateDefinition, type Estimate } from "@wfkit/core";
import { analyzeSource, parseJsonSource, placeFault, type JsonSource, type SourceFault, type SourceMap } from "@wfkit/dsl";
import type { WfkitDocument } from "./document.js";

/** jsonc-parser's syntax tree, as @wfkit/dsl exposes it. */
export type JsonNode = NonNullable<JsonSource["tree"]>;

export interface Analysis {
  faults: SourceFault[];
  estimate: Estimate | undefined;
  ok: boolean;
  /** What the text compiles to, even with syntax errors (best effort), for hovers and commands. */
  compiled: unknown;
  /** The definition the CLI would check (undefined when syntax errors make it uncertain). */
  definition: unknown;
  sourceMap: SourceMap;
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
    jsonTree: parseJsonSource(document.text).tree,
  };
}

/**
 * The same steps as `analyzeSource(text, "wf")`, with the parse made incremental: syntax
 * faults, then the compiler's language faults, then (when the syntax is sound) core's
 * faults placed through the source map, minus those at the very place of a language error.
 */
function analyzeWf(document: WfkitDocument): Analysis {
  const parsed = document.parsed;
  const compiled = document.compiled!;
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
    jsonTree: undefined,
  };
}

/** The order `analyzeSource` reports faults in: by start, then end, errors before warnings. */
function compareFaults(a: SourceFault, b: SourceFault): number {
  return a.span.start - b.span.start || a.span.end - b.span.end || (a.severity === "error" ? 0 : 1) - (b.severity === "error" ? 0 : 1);
}
