/**
 * Completion for `.wf`: what the grammar expects at the cursor (the DSL's `expectedAt`, from
 * chevrotain's content assist on the statement being written, so it works on half-written
 * lines), filled in from the lexical table, the symbol table and the catalogue:
 *
 * - where a statement begins: statement keywords as snippets, and node names (to start an edge);
 * - where a block property begins: the properties that block's kind holds;
 * - where a name goes, by what it stands for: part ids (with requires/produces and cost), a
 *   part's versions after `@`, the jobs its part offers, declared subjects not yet listed, node
 *   names after `->` (those an edge could legally reach first), the kind words of a trigger,
 *   gate or destination, and the catalogue's subjects for `subject x = company |`.
 */
import { indexCatalogue } from "@wfkit/core";
import { chunkEnd, expectedAt, printName, STATEMENTS, VALUE_WORDS, type Expected, type NameRole, type StatementKeyword } from "@wfkit/dsl";
import type { WfkitDocument } from "../document.js";
import { compiledOf, graphOf, isLegalEdge } from "../graph.js";
import type { CompletionItem, Position, Range } from "../types.js";
import { describeCatalogueSubject, describePart, partDetail } from "./describe.js";
import { completeSignalsJson } from "./signals-json.js";

export function doComplete(document: WfkitDocument, position: Position): CompletionItem[] {
  if (document.language !== "wf") return completeSignalsJson(document, position) ?? [];
  const offset = document.lines.offsetAt(position);
  const start = statementStart(document, offset);
  const expected = expectedAt(document.text.slice(start, offset));
  const context = new Context(document, expected, start, position);
  return [...context.keywords(), ...context.names()];
}

/**
 * A statement boundary at or before `offset` (wf/chunks.ts), near it: from the last statement
 * that begins before the cursor, chunk by chunk. `expectedAt` skips any whole statement left
 * before the cursor's.
 */
function statementStart(document: WfkitDocument, offset: number): number {
  const statements = document.ast?.statements ?? [];
  let low = 0;
  let high = statements.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (statements[middle]!.start < offset) low = middle + 1;
    else high = middle;
  }
  const text = document.text;
  let start = low > 0 ? statements[low - 1]!.start : 0;
  for (let end = chunkEnd(text, start); end > start && end <= offset && end < text.length; end = chunkEnd(text, start)) start = end;
  return start;
}

class Context {
  private readonly range: Range;

  constructor(
    private readonly document: WfkitDocument,
    private readonly expected: Expected,
    private readonly statementStart: number,
    position: Position,
  ) {
    this.range = this.rangeFrom(statementStart + expected.wordStart, position);
  }

  private rangeFrom(offset: number, end: Position): Range {
    return { start: this.document.lines.positionAt(offset), end };
  }

  private get catalogue() {
    return indexCatalogue(this.document.catalogue);
  }

  keywords(): CompletionItem[] {
    return this.expected.keywords.map((keyword) => {
      const statement = keyword in STATEMENTS ? STATEMENTS[keyword as StatementKeyword] : undefined;
      if (!statement) return { label: keyword, kind: "keyword", range: this.range, sortRank: 0 };
      return {
        label: keyword,
        kind: "keyword",
        detail: statement.snippet.replace(/\$\{\d+\|([^,|]+)[^}]*\}/g, "$1").replace(/\$\{\d+:([^}]*)\}/g, "$1").replace(/\$\d/g, ""),
        documentation: statement.doc,
        range: this.range,
        insertText: statement.snippet,
        isSnippet: true,
        sortRank: 1,
      };
    });
  }

  names(): CompletionItem[] {
    const { role, versionOf } = this.expected;
    if (versionOf?.role === "part-id") return this.versions(versionOf.name);
    if (versionOf?.role === "job") return this.jobs(this.rangeFrom(this.statementStart + versionOf.start, this.range.end));
    if (role === undefined) return [];
    const values = VALUE_WORDS[role];
    if (values) return values.map((value) => ({ label: value, kind: "value", detail: ROLE_DETAIL[role] ?? role, range: this.range }));
    switch (role) {
      case "part-id":
        return this.parts();
      case "job":
        return this.jobs(this.range);
      case "subject-ref":
        return this.subjectRefs();
      case "canonical-id":
        return this.catalogueSubjects();
      case "edge-source":
        return this.edgeSources();
      case "edge-target":
        return this.edgeTargets();
      default:
        return [];
    }
  }

  private parts(): CompletionItem[] {
    return this.catalogue.catalogue.parts.map((part) => ({
      label: part.partId,
      kind: "part",
      detail: partDetail(part),
      documentation: describePart(part),
      range: this.range,
      insertText: `${part.partId}@${part.versions[part.versions.length - 1] ?? "1"}`,
    }));
  }

  private versions(partId: string): CompletionItem[] {
    const part = this.catalogue.parts.get(partId);
    if (!part) return [];
    const latest = part.versions[part.versions.length - 1];
    return part.versions.map((version) => ({
      label: version,
      kind: "version",
      detail: version === latest ? `${partId}, latest version` : partId,
      range: this.range,
      sortRank: version === latest ? 0 : 1,
    }));
  }

  /** The jobs the enclosing part offers, as `id@version`, replacing `range` (the job typed so far). */
  private jobs(range: Range): CompletionItem[] {
    const partId = this.expected.partId;
    const part = partId === undefined ? undefined : this.catalogue.parts.get(partId);
    return (part?.terminal?.jobs ?? []).map((job) => ({ label: `${job.id}@${job.version}`, kind: "job", detail: `job of ${part!.partId}`, range }));
  }

  private subjectRefs(): CompletionItem[] {
    const listed = new Set(this.expected.nearby);
    const items: CompletionItem[] = [];
    for (const [name, declarations] of this.document.symbols?.subjects ?? []) {
      if (listed.has(name)) continue;
      const statement = declarations[0]!.statement;
      const label = statement.type === "subject" && statement.body?.type === "typed" ? statement.body.label?.text : undefined;
      items.push({ label: name, kind: "subject", detail: label ? `subject: ${label}` : "subject", range: this.range, insertText: printName(name) });
    }
    return items;
  }

  private catalogueSubjects(): CompletionItem[] {
    return this.catalogue.subjects.map((subject) => ({
      label: subject.canonicalId,
      kind: "subject",
      detail: subject.label,
      documentation: describeCatalogueSubject(subject),
      range: this.range,
      insertText: `${JSON.stringify(subject.canonicalId)} ${JSON.stringify(subject.label)}`,
      sortRank: 0,
    }));
  }

  /** Node names that may start an edge (a destination ends one). */
  private edgeSources(): CompletionItem[] {
    const items: CompletionItem[] = [];
    for (const [name, declarations] of this.document.symbols?.nodes ?? []) {
      if (declarations[0]!.kind === "destination") continue;
      items.push({ label: name, kind: "node", detail: `${declarations[0]!.kind}: start an edge`, range: this.range, insertText: printName(name), sortRank: 2 });
    }
    return items;
  }

  /** Node names after an arrow: legal targets of the nodes before it first, the rest after. */
  private edgeTargets(): CompletionItem[] {
    const sources = this.expected.nearby;
    const graph = graphOf(compiledOf(this.document));
    const items: CompletionItem[] = [];
    for (const [name, declarations] of this.document.symbols?.nodes ?? []) {
      if (sources.includes(name)) continue;
      const legal = sources.length === 0 || sources.every((source) => isLegalEdge(graph, this.document.catalogue, source, name));
      items.push({
        label: name,
        kind: "node",
        detail: `${declarations[0]!.kind}${legal ? "" : " (an edge from " + sources.join(", ") + " would not be legal)"}`,
        range: this.range,
        insertText: printName(name),
        sortRank: legal ? 0 : 9,
      });
    }
    return items;
  }
}

/** How a value word's role is named in an item's detail. */
const ROLE_DETAIL: Partial<Record<NameRole, string>> = {
  "trigger-kind": "trigger kind",
  "destination-kind": "destination kind",
  "below-floor": "belowFloor",
  "subject-kind": "subject kind",
};
