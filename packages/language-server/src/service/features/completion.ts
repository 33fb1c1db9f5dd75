/**
 * Completion for `.wf`, from the text before the cursor on its statement (so it works on
 * half-written lines the parser cannot read yet) plus the symbol table and the catalogue.
 *
 * - at the start of a line: statement keywords, snippets, and node names (to start an edge);
 * - `part x = |`: part ids, with requires/produces and cost in the detail; `pack@|`: versions;
 * - `job |` inside a part block: the jobs that part offers;
 * - `subjects [a, |`: declared subjects not yet listed;
 * - after `->` or `,` in an edge: node names, those an edge could legally reach ranked first;
 * - `trigger x |`, `gate x |`, `destination x |`: the allowed kinds;
 * - `subject x = company |`: subjects of the catalogue's table, pinned.
 */
import { DESTINATION_KINDS, GATE_BELOW_FLOOR, TRIGGER_KINDS, indexCatalogue } from "@wfkit/core";
import type { PartStatement } from "@wfkit/dsl";
import type { WfkitDocument } from "../document.js";
import { compiledOf, graphOf, isLegalEdge } from "../graph.js";
import type { CompletionItem, Position, Range } from "../types.js";
import { writeName } from "../wf/symbols.js";
import { describeCatalogueSubject, describePart, partDetail } from "./describe.js";
import { statementAt } from "./hover.js";
import { completeSignalsJson } from "./signals-json.js";

const STATEMENT_SNIPPETS: { label: string; insert: string; doc: string }[] = [
  { label: "trigger", insert: "trigger ${1:start} ${2|on_demand,scheduled|}", doc: "A trigger node: where a run starts." },
  { label: "part", insert: "part ${1:name} = ${2:partId}@${3:1}", doc: "A part node: a research step from the catalogue." },
  { label: "subject", insert: 'subject ${1:name} = company "${2:canonicalId}" "${3:label}"', doc: "A pinned company that terminal parts run against." },
  { label: "gate", insert: "gate ${1:floor} hold", doc: "A gate: holds a below-floor result." },
  { label: "destination", insert: "destination ${1:inbox} standalone", doc: "A destination node: where results go." },
  { label: "workflow", insert: 'workflow "${1:name}"', doc: "Names the workflow (metadata, not part of the definition)." },
  { label: "node", insert: "node { $1 }", doc: "A node written as JSON." },
  { label: "edge", insert: 'edge { "from": "$1", "to": "$2" }', doc: "An edge written as JSON." },
  { label: "version", insert: "version {\n\t$1\n}", doc: "Write a version-save body (top-level trigger and destinations)." },
];

export function doComplete(document: WfkitDocument, position: Position): CompletionItem[] {
  if (document.language !== "wf") return completeSignalsJson(document, position) ?? [];
  const offset = document.lines.offsetAt(position);
  const lineStart = document.lines.lineStart(position.line);
  const before = document.text.slice(lineStart, offset);
  const word = /[A-Za-z0-9_.\-]*$/.exec(before)![0];
  const wordRange: Range = { start: { line: position.line, character: position.character - word.length }, end: position };
  const context = new Context(document, offset, word, wordRange);

  let match: RegExpExecArray | null;
  if ((match = /^\s*part\s+\S+\s*=\s*([A-Za-z0-9_.\-]+)@[A-Za-z0-9_.\-]*$/.exec(before))) return context.versions(match[1]!);
  if (/^\s*part\s+\S+\s*=\s*[A-Za-z0-9_.\-]*$/.test(before)) return context.parts();
  if ((match = /^\s*trigger\s+\S+\s+[A-Za-z_]*$/.exec(before))) return context.values(TRIGGER_KINDS, "trigger kind");
  if (/^\s*gate\s+\S+\s+[A-Za-z_]*$/.test(before)) return context.values(GATE_BELOW_FLOOR, "belowFloor");
  if (/^\s*destination\s+\S+\s+[A-Za-z_]*$/.test(before)) return context.values(DESTINATION_KINDS, "destination kind");
  if (/^\s*subject\s+\S+\s*=\s*[A-Za-z_]*$/.test(before)) return context.values(["company"], "subject kind");
  if (/^\s*subject\s+\S+\s*=\s*company\s+[^\s]*$/.test(before)) return context.catalogueSubjects(before);
  if (/(^|[\s{])job\s+[A-Za-z0-9_.\-]*(@[A-Za-z0-9_.\-]*)?$/.test(before)) return context.jobs();
  if (/\bsubjects\s*\[[^\]]*$/.test(before)) return context.subjectRefs(before);
  if ((match = /(->|,)\s*[A-Za-z0-9_.\-]*$/.exec(before)) && /->/.test(before)) return context.edgeTargets(before);
  if (/^\s*[A-Za-z0-9_.\-]*$/.test(before)) return context.startOfLine();
  return [];
}

class Context {
  constructor(
    private readonly document: WfkitDocument,
    private readonly offset: number,
    private readonly word: string,
    private readonly range: Range,
  ) {}

  private get catalogue() {
    return indexCatalogue(this.document.catalogue);
  }

  parts(): CompletionItem[] {
    return this.catalogue.catalogue.parts.map((part) => ({
      label: part.partId,
      kind: "part",
      detail: partDetail(part),
      documentation: describePart(part),
      range: this.range,
      insertText: `${part.partId}@${part.versions[part.versions.length - 1] ?? "1"}`,
    }));
  }

  versions(partId: string): CompletionItem[] {
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

  values(values: readonly string[], what: string): CompletionItem[] {
    return values.map((value) => ({ label: value, kind: "value", detail: what, range: this.range }));
  }

  /** The part statement around the cursor (a job or subjects line sits inside its block). */
  private enclosingPart(): PartStatement | undefined {
    const statement = statementAt(this.document.ast?.statements ?? [], this.offset);
    return statement?.type === "part" ? statement : undefined;
  }

  /**
   * The part id of the block around the cursor. A block still being typed may not parse as
   * part of any statement yet, so the nearest `part ... = id@` above the cursor counts too.
   */
  private enclosingPartId(): string | undefined {
    const statement = this.enclosingPart();
    if (statement?.partId) return statement.partId.text;
    const textBefore = this.document.text.slice(Math.max(0, this.offset - 2_000), this.offset);
    const matches = [...textBefore.matchAll(/part\s+\S+\s*=\s*([A-Za-z0-9_.\-]+)@/g)];
    return matches[matches.length - 1]?.[1];
  }

  jobs(): CompletionItem[] {
    const partId = this.enclosingPartId();
    const part = partId === undefined ? undefined : this.catalogue.parts.get(partId);
    const jobs = part?.terminal?.jobs ?? [];
    const lineBefore = this.document.text.slice(this.document.lines.lineStart(this.range.start.line), this.offset);
    const typed = /job\s+([A-Za-z0-9_.\-]*(?:@[A-Za-z0-9_.\-]*)?)$/.exec(lineBefore)?.[1] ?? this.word;
    const range: Range = { start: { line: this.range.end.line, character: this.range.end.character - typed.length }, end: this.range.end };
    return jobs.map((job) => ({ label: `${job.id}@${job.version}`, kind: "job", detail: `job of ${part!.partId}`, range }));
  }

  subjectRefs(before: string): CompletionItem[] {
    const listed = new Set((/\[([^\]]*)$/.exec(before)?.[1] ?? "").split(",").map((item) => item.trim()));
    const symbols = this.document.symbols;
    const items: CompletionItem[] = [];
    for (const [name, declarations] of symbols?.subjects ?? []) {
      if (listed.has(name) && name !== this.word) continue;
      const statement = declarations[0]!.statement;
      const label = statement.type === "subject" && statement.body?.type === "typed" ? statement.body.label?.text : undefined;
      items.push({ label: name, kind: "subject", detail: label ? `subject: ${label}` : "subject", range: this.range, insertText: writeName(name) });
    }
    return items;
  }

  catalogueSubjects(before: string): CompletionItem[] {
    const typed = /company\s+(\S*)$/.exec(before)?.[1] ?? "";
    const range: Range = { start: { line: this.range.end.line, character: this.range.end.character - typed.length }, end: this.range.end };
    return this.catalogue.subjects.map((subject) => ({
      label: subject.canonicalId,
      kind: "subject",
      detail: subject.label,
      documentation: describeCatalogueSubject(subject),
      range,
      insertText: `${JSON.stringify(subject.canonicalId)} ${JSON.stringify(subject.label)}`,
      sortRank: 0,
    }));
  }

  /** Node names after an arrow: legal targets of the node before it first, the rest after. */
  edgeTargets(before: string): CompletionItem[] {
    const lastArrow = before.lastIndexOf("->");
    const sources = before
      .slice(0, lastArrow)
      .split("->")
      .pop()!
      .split(",")
      .map((name) => name.trim().replace(/^"|"$/g, ""))
      .filter(Boolean);
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
        insertText: writeName(name),
        sortRank: legal ? 0 : 9,
      });
    }
    return items;
  }

  startOfLine(): CompletionItem[] {
    const items: CompletionItem[] = STATEMENT_SNIPPETS.map((snippet) => ({
      label: snippet.label,
      kind: "keyword",
      detail: snippet.insert.replace(/\$\{\d+\|([^,|]+)[^}]*\}/g, "$1").replace(/\$\{\d+:([^}]*)\}/g, "$1").replace(/\$\d/g, ""),
      documentation: snippet.doc,
      range: this.range,
      insertText: snippet.insert,
      isSnippet: true,
      sortRank: 1,
    }));
    const inBlock = this.enclosingPart()?.block !== undefined;
    if (inBlock) for (const keyword of ["job", "subjects", "with"]) items.push({ label: keyword, kind: "keyword", range: this.range, sortRank: 0 });
    for (const [name, declarations] of this.document.symbols?.nodes ?? []) {
      if (declarations[0]!.kind === "destination") continue;
      items.push({ label: name, kind: "node", detail: `${declarations[0]!.kind}: start an edge`, range: this.range, insertText: writeName(name), sortRank: 2 });
    }
    return items;
  }
}

