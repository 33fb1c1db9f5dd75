/**
 * The analysis of one document version: what every feature reads. For `.wf` it is what
 * `analyzeSource` computes, reached through the incremental parser; for JSON it is
 * `analyzeSource` on the document's own parse (made from the last version's: see
 * `WfkitDocument.jsonSource`), whose tree the hovers read. Either way the project's policy
 * (suppressions, the config's severity) is then applied by @wfkit/project's
 * `applyProjectPolicy`, as `wfkit check` applies it: the editor's verdict is the CLI's.
 */
import { validateDefinition, type Estimate } from "@wfkit/core";
import { analyzeCompiledWf, analyzeSource, type JsonSource, type SourceAnalysis, type SourceFault, type SourceMap } from "@wfkit/dsl";
import { applyProjectPolicy } from "@wfkit/project/pure";
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
  /** JSON only: what the document was judged as, when it is a Consumer Signals alert or view body. */
  bodyKind?: "alert" | "view";
}

export function analyzeDocument(document: WfkitDocument): Analysis {
  return document.language === "json" ? analyzeJson(document) : analyzeWf(document);
}

/**
 * `analyzeSource(text, "json")` on the document's one parse of this version (never a second)
 * with core's CheckSession for the check, as for `.wf`: the parse copies only the containers
 * above the value an edit changed, so the session re-judges that node alone.
 */
function analyzeJson(document: WfkitDocument): Analysis {
  const source = document.jsonSource!;
  const { history, catalogue } = document;
  const result = analyzeSource(document.text, "json", {
    catalogue,
    fileName: document.uri,
    jsonSource: source,
    check: (definition) => (history ? history.checkSession.check(definition, catalogue) : validateDefinition(definition, { catalogue })),
  });
  return {
    ...withPolicy(document, result),
    estimate: result.estimate,
    compiled: result.definition,
    definition: result.definition,
    sourceMap: result.sourceMap,
    jsonTree: source.tree,
    ...(result.bodyKind && result.bodyKind !== "definition" ? { bodyKind: result.bodyKind } : {}),
  };
}

/**
 * `analyzeSource(text, "wf")` with each step made incremental: the parse (from the
 * document's incremental parser), the compile (reusing the statements the parser reused) and
 * the check (core's CheckSession: the last verdict while the definition is the same, as
 * after an edit of a comment or of spacing, else a check that re-reads only the nodes the
 * compile did not reuse). Placing faults and ordering them is the DSL's own code,
 * so the result is exactly the CLI's.
 */
function analyzeWf(document: WfkitDocument): Analysis {
  const compiled = document.compiled!;
  const history = document.history;
  const catalogue = document.catalogue;
  const result = analyzeCompiledWf(document.parsed, compiled, {
    catalogue,
    check: (definition) => (history ? history.checkSession.check(definition, catalogue) : validateDefinition(definition, { catalogue })),
  });
  return {
    ...withPolicy(document, result),
    estimate: result.estimate,
    compiled: compiled.definition,
    definition: result.definition,
    sourceMap: compiled.sourceMap,
    jsonTree: undefined,
  };
}

function withPolicy(document: WfkitDocument, result: SourceAnalysis): { faults: SourceFault[]; ok: boolean } {
  return applyProjectPolicy({ text: document.text, faults: result.faults, ast: result.ast, definition: result.definition }, document.policy);
}
