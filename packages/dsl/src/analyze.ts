/**
 * The one entry point the CLI and the language server share: read a `.wf` or `.json` source,
 * check it with @wfkit/core, and place every fault on the text.
 */
import { bodyKindOf, validateAlertBody, validateDefinition, validateViewBody, type BodyKind, type BodyValidationResult, type Catalogue, type Estimate, type Fault, type ValidationResult } from "@wfkit/core";
import type { WfFile } from "./ast.js";
import { compileAst, type CompiledAst } from "./compile.js";
import { compareFaults, type SourceFault, type SourceRelated } from "./diagnostics.js";
import { parseJsonSource, type JsonSource, type ScannedJson } from "./json-source.js";
import { parse } from "./chunks.js";
import { lineIndexOf } from "./positions.js";
import type { PointerPart, SourceMap } from "./source-map.js";

export type SourceLanguage = "wf" | "json";

export interface AnalyzeOptions {
  /** The part catalogue to check against; @wfkit/core's sample catalogue when omitted. */
  catalogue?: Catalogue;
  /** The file's name: a JSON source named `*.alert.json` or `*.view.json` is judged as that body (core's `bodyKindOf`). */
  fileName?: string;
  /** JSON only: what the caller's scan of this very text found (the CLI's directory walk scans each `.json` file it judges). */
  scannedJson?: ScannedJson;
  /**
   * JSON only: this very text's parse, when the caller made it (`parseJsonSource`; an editor
   * parses each version from the last one). The analysis then reads the text no second time.
   */
  jsonSource?: JsonSource;
  /**
   * Checks a definition; core's `validateDefinition` with `catalogue` when omitted. An editor
   * passes one that reuses its last check (core's `CheckSession`); alert and view bodies are
   * always judged by their own validators.
   */
  check?: (definition: unknown) => ValidationResult;
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
  /** What a JSON source was judged as: a definition, or a Consumer Signals alert or view body. */
  bodyKind?: BodyKind;
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
  return analyzeCompiledWf(parsed, compileAst(parsed.ast, text, { lines: lineIndexOf(text) }), options);
}

/** What `analyzeCompiledWf` takes: `check`, as `analyzeSource`, may reuse an editor's last check. */
export type CompiledWfOptions = AnalyzeOptions;

/**
 * What `analyzeSource(text, "wf")` gives, from the text's parse and compile (which an editor
 * makes incrementally): syntax faults, the language's faults, then, when the syntax is
 * sound, core's faults placed through the source map, minus those at the very place of a
 * language error; all in text order.
 */
export function analyzeCompiledWf(parsed: { ast: WfFile; faults: readonly SourceFault[] }, compiled: CompiledAst, options: CompiledWfOptions = {}): SourceAnalysis {
  const hasSyntaxErrors = parsed.faults.some((fault) => fault.severity === "error");
  const analysis: SourceAnalysis = {
    definition: hasSyntaxErrors ? undefined : compiled.definition,
    faults: [...parsed.faults, ...compiled.faults],
    ok: false,
    sourceMap: compiled.sourceMap,
    language: "wf",
    ast: parsed.ast,
  };
  if (compiled.workflowName !== undefined) analysis.workflowName = compiled.workflowName;
  if (!hasSyntaxErrors) addCheck(analysis, options.check ? options.check(compiled.definition) : checkDefinition(compiled.definition, options));
  return finish(analysis);
}

function analyzeJson(text: string, options: AnalyzeOptions): SourceAnalysis {
  const source = options.jsonSource ?? parseJsonSource(text, true, { scanned: options.scannedJson });
  const analysis: SourceAnalysis = {
    definition: source.complete ? source.value : undefined,
    faults: [...source.faults],
    ok: false,
    sourceMap: source.sourceMap,
    language: "json",
  };
  if (source.complete) {
    const kind = bodyKindOf(options.fileName, source.value);
    if (kind !== "definition") analysis.bodyKind = kind;
    addCheck(analysis, kind === "alert" ? validateAlertBody(source.value) : kind === "view" ? validateViewBody(source.value) : options.check ? options.check(source.value) : checkDefinition(source.value, options));
  }
  return finish(analysis);
}

function checkDefinition(definition: unknown, options: AnalyzeOptions): ValidationResult {
  return validateDefinition(definition, options.catalogue ? { catalogue: options.catalogue } : {});
}

function finish(analysis: SourceAnalysis): SourceAnalysis {
  const kept = withoutRepeats(analysis.faults.sort(compareFaults));
  analysis.faults = kept;
  analysis.ok = analysis.definition !== undefined && !kept.some((fault) => fault.severity === "error");
  return analysis;
}

/**
 * Sorted faults without the ones that repeat an earlier fault (same code, span and message):
 * one `with` on a chain gives every edge of it the same field, and one warning is enough.
 * Only faults at the same span can repeat one another, and sorting put those side by side,
 * so each is compared with the few kept at its span (no key string per fault).
 */
export function withoutRepeats(sorted: readonly SourceFault[]): SourceFault[] {
  const kept: SourceFault[] = [];
  let runStart = 0;
  // For a long run at one span (faults that fall back to the document's place): its faults' keys.
  let runKeys: Set<string> | undefined;
  for (const fault of sorted) {
    const first = kept[runStart];
    if (first === undefined || first.span.start !== fault.span.start || first.span.end !== fault.span.end) {
      runStart = kept.length;
      runKeys = undefined;
    } else if (runKeys) {
      const key = `${fault.code}\u0000${fault.message}`;
      if (runKeys.has(key)) continue;
      runKeys.add(key);
    } else if (repeatsOne(kept, runStart, fault)) continue;
    else if (kept.length - runStart >= LONG_RUN) runKeys = new Set(kept.slice(runStart).map((other) => `${other.code}\u0000${other.message}`)).add(`${fault.code}\u0000${fault.message}`);
    kept.push(fault);
  }
  return kept;
}

/** Faults at one span compared pairwise up to this many; a set of keys beyond. */
const LONG_RUN = 32;

/** Whether a fault repeats one already kept at the same span (kept[from..] all share its span). */
function repeatsOne(kept: readonly SourceFault[], from: number, fault: SourceFault): boolean {
  for (let i = from; i < kept.length; i++) {
    const other = kept[i]!;
    if (other.code === fault.code && other.message === fault.message) return true;
  }
  return false;
}

/** Adds what core found: its faults, placed (see `placeFault`), and a definition's estimate. */
function addCheck(analysis: SourceAnalysis, result: ValidationResult | BodyValidationResult): void {
  if ("estimate" in result) analysis.estimate = result.estimate;
  const { faults, sourceMap } = analysis;
  // Spans of the language's errors, as start -> ends (a fault placed exactly there is skipped).
  let languageErrors: Map<number, number[]> | undefined;
  for (const fault of faults) {
    if (fault.severity !== "error") continue;
    languageErrors ??= new Map();
    const ends = languageErrors.get(fault.span.start);
    if (ends) ends.push(fault.span.end);
    else languageErrors.set(fault.span.start, [fault.span.end]);
  }
  for (const fault of result.faults) {
    const placed = placeFault(fault, sourceMap);
    if (languageErrors?.get(placed.span.start)?.includes(placed.span.end)) continue;
    faults.push(placed);
  }
}

/**
 * Places a core fault: its pointer (and each related pointer) becomes a span and a range.
 * An unknown field is underlined at its name, every other fault at the value.
 */
export function placeFault(fault: Fault, sourceMap: SourceMap): SourceFault {
  const part: PointerPart = fault.code.endsWith("unknown-field") ? "key" : "value";
  const lines = sourceMap.lineIndex();
  const span = sourceMap.spanOf(fault.pointer, part);
  // The fault's own fields in their order, then the placement (what `{...fault}` would give,
  // without the spread's slow generic copy: a broken large file has tens of thousands).
  const placed = {} as SourceFault;
  const fields = fault as unknown as Record<string, unknown>;
  for (const key in fields) if (key !== "related") (placed as unknown as Record<string, unknown>)[key] = fields[key];
  placed.span = span;
  placed.range = lines.rangeOf(span);
  const related = fault.related;
  if (related) {
    placed.related = related.map((entry): SourceRelated => {
      const relatedSpan = sourceMap.spanOf(entry.pointer);
      return { ...entry, span: relatedSpan, range: lines.rangeOf(relatedSpan) };
    });
  }
  return placed;
}
