/**
 * The analysis of one document version: what every feature reads. For `.wf` it is what
 * `analyzeSource` computes (the CLI's verdict), reached through the incremental parser; for
 * JSON it is `analyzeSource` itself plus jsonc-parser's tree for hovers.
 */
import { validateDefinition, type Estimate } from "@wfkit/core";
import { analyzeCompiledWf, analyzeSource, parseJsonSource, type JsonSource, type SourceFault, type SourceMap } from "@wfkit/dsl";
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
 * `analyzeSource(text, "wf")` with each step made incremental: the parse (from the
 * document's incremental parser), the compile (reusing the statements the parser reused) and
 * the check (reused while the definition is the same as the one last checked, as after an
 * edit of a comment or of spacing). Placing faults and ordering them is the DSL's own code,
 * so the result is exactly the CLI's.
 */
function analyzeWf(document: WfkitDocument): Analysis {
  const compiled = document.compiled!;
  const history = document.history;
  const catalogue = document.catalogue;
  const result = analyzeCompiledWf(document.parsed, compiled, {
    catalogue,
    check: (definition) => {
      const last = history?.lastCheck;
      if (last && last.catalogue === catalogue && sameJson(last.definition, definition)) return last.result;
      const checked = validateDefinition(definition, { catalogue });
      if (history) history.lastCheck = { definition, catalogue, result: checked };
      return checked;
    },
  });
  return {
    faults: result.faults,
    estimate: result.estimate,
    ok: result.ok,
    compiled: compiled.definition,
    definition: result.definition,
    sourceMap: compiled.sourceMap,
    jsonTree: undefined,
  };
}

/**
 * Whether two JSON values are the same document, key order included (a check reports in the
 * order fields are written). Shared objects are the same without a look inside: the compile
 * cache hands each version the very node and edge objects of the statements it reused, so
 * comparing two versions of a large definition costs about one step per node and edge.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  const stack: unknown[] = [a, b];
  while (stack.length) {
    const right = stack.pop();
    const left = stack.pop();
    if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
    if (Array.isArray(left)) {
      if (!Array.isArray(right) || left.length !== right.length) return false;
      for (let i = 0; i < left.length; i++) if (!sameValue(left[i], right[i], stack)) return false;
      continue;
    }
    if (Array.isArray(right)) return false;
    const leftKeys = Object.keys(left);
    const rightKeys = Object.keys(right);
    if (leftKeys.length !== rightKeys.length) return false;
    for (let i = 0; i < leftKeys.length; i++) {
      const key = leftKeys[i]!;
      if (key !== rightKeys[i]) return false;
      if (!sameValue((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key], stack)) return false;
    }
  }
  return true;
}

/** Compares scalars (and identical objects) at once; queues two different objects for a look inside. */
function sameValue(left: unknown, right: unknown, stack: unknown[]): boolean {
  if (Object.is(left, right)) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  stack.push(left, right);
  return true;
}
