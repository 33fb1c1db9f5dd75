/** Hover: parts (catalogue facts), nodes (kind, inputs, outputs), subjects (label, identifiers). */
import { indexCatalogue } from "@wfkit/core";
import { type PartStatement, type Statement, type SubjectStatement, spanOf } from "@wfkit/dsl";
import type { JsonNode } from "../analysis.js";
import type { WfkitDocument } from "../document.js";
import { capabilitiesOf, compiledOf, graphOf, type GraphView } from "../graph.js";
import type { Hover, Position } from "../types.js";
import { describeCatalogueSubject, describePart, list } from "./describe.js";
import { hoverSignalsJson } from "./signals-json.js";

export function doHover(document: WfkitDocument, position: Position): Hover | undefined {
  const offset = document.lines.offsetAt(position);
  return document.language === "json" ? (hoverSignalsJson(document, offset) ?? hoverJson(document, offset)) : hoverWf(document, offset);
}

function hoverWf(document: WfkitDocument, offset: number): Hover | undefined {
  const { symbols, ast } = document;
  if (!symbols || !ast) return undefined;
  const range = (span: { start: number; end: number }) => document.lines.rangeOf(span.start, span.end);
  const statement = statementAt(ast.statements, offset);
  if (statement?.type === "part") {
    const part = partHover(document, statement, offset);
    if (part) return part;
  }
  const occurrence = symbols.occurrenceAt(offset);
  if (!occurrence) return undefined;
  if (occurrence.namespace === "subject") {
    const declaration = symbols.declarationsOf("subject", occurrence.name)[0];
    const contents = declaration ? describeSubjectStatement(document, declaration.statement as SubjectStatement) : `Subject \`${occurrence.name}\` is not declared in this file.`;
    return { contents, range: range(occurrence.span) };
  }
  return { contents: describeNode(document, graphOf(compiledOf(document)), occurrence.name), range: range(occurrence.span) };
}

function partHover(document: WfkitDocument, statement: PartStatement, offset: number): Hover | undefined {
  const within = (span: { start: number; end: number } | undefined) => span !== undefined && span.start <= offset && offset <= span.end;
  const catalogue = indexCatalogue(document.catalogue);
  const part = statement.partId ? catalogue.parts.get(statement.partId.text) : undefined;
  const range = (span: { start: number; end: number }) => document.lines.rangeOf(span.start, span.end);
  if (statement.partId && (within(statement.partId) || within(statement.version))) {
    const span = { start: statement.partId.start, end: statement.version?.end ?? statement.partId.end };
    return { contents: part ? describePart(part, subjectCountOf(statement)) : `\`${statement.partId.text}\` is not in the catalogue.`, range: range(span) };
  }
  for (const property of statement.block?.properties ?? []) {
    if (property.type !== "job" || !property.id || !within(property)) continue;
    const jobs = part?.terminal?.jobs ?? [];
    const offered = jobs.some((job) => job.id === property.id!.text && job.version === property.version?.text);
    return {
      contents: `Job \`${property.id.text}${property.version ? "@" + property.version.text : ""}\` ${offered ? `of ${part ? `\`${part.partId}\`` : "this part"}` : "is not offered by this part"}.\n\nOffered: ${list(jobs.map((job) => `${job.id}@${job.version}`))}`,
      range: range(spanOf(property)),
    };
  }
  return undefined;
}

function subjectCountOf(statement: PartStatement): number | undefined {
  const subjects = statement.block?.properties.find((p) => p.type === "subjects");
  return subjects && subjects.type === "subjects" ? subjects.items.length : undefined;
}

function describeNode(document: WfkitDocument, graph: GraphView, id: string): string {
  const node = graph.nodes.get(id);
  if (!node) return `Node \`${id}\` is not declared in this file.`;
  const lines = [`**${node.kind}** \`${id}\``];
  if (node.kind === "part" && node.partId) {
    const part = indexCatalogue(document.catalogue).parts.get(node.partId);
    lines.push("", `part \`${node.partId}\`${typeof node.raw.partVersion === "string" ? `@${node.raw.partVersion}` : ""}${part?.title ? `: ${part.title}` : part ? "" : " (not in the catalogue)"}`);
  }
  const { requires, produces } = capabilitiesOf(node, document.catalogue);
  const unique = (ids: string[] | undefined) => [...new Set(ids ?? [])];
  lines.push("", `- inputs: ${list(unique(graph.predecessors.get(id)))}`, `- outputs: ${list(unique(graph.successors.get(id)))}`);
  if (requires) lines.push(`- requires: ${list(requires)}`);
  if (produces) lines.push(`- produces: ${list(produces)}`);
  return lines.join("\n");
}

function describeSubjectStatement(document: WfkitDocument, statement: SubjectStatement): string {
  const body = statement.body;
  const name = statement.name?.text ?? "";
  if (body?.type === "typed") {
    const canonicalId = body.canonicalId?.text;
    const lines = [`**subject** \`${name}\`: ${body.label ? `**${body.label.text}**` : "(no label)"} \`${canonicalId ?? "?"}\` (${body.kind.text})`];
    const identifiers = body.identifiers ? document.text.slice(body.identifiers.start, body.identifiers.end) : undefined;
    if (identifiers) lines.push("", `- ${identifiers}`);
    const known = indexCatalogue(document.catalogue).subjects.find((s) => s.canonicalId === canonicalId);
    if (known) lines.push("", "Catalogue:", describeCatalogueSubject(known));
    else if (canonicalId) lines.push("", "Not in the catalogue's subjects table.");
    return lines.join("\n");
  }
  return `**subject** \`${name}\`\n\n\`\`\`json\n${document.text.slice(body?.start ?? statement.start, body?.end ?? statement.end)}\n\`\`\``;
}

// ---------------------------------------------------------------- JSON documents

function hoverJson(document: WfkitDocument, offset: number): Hover | undefined {
  const tree = document.analysis.jsonTree;
  if (!tree) return undefined;
  const node = findNodeAtOffset(tree, offset);
  if (!node || node.type !== "string") return undefined;
  const path = getNodePath(node);
  const range = document.lines.rangeOf(node.offset, node.offset + node.length);
  const field = path[path.length - 1];
  const value = String(node.value);
  const catalogue = indexCatalogue(document.catalogue);
  if (field === "partId") {
    const part = catalogue.parts.get(value);
    return { contents: part ? describePart(part, subjectCountNear(node)) : `\`${value}\` is not in the catalogue.`, range };
  }
  if (field === "canonicalId") {
    const subject = catalogue.subjects.find((s) => s.canonicalId === value);
    return subject ? { contents: describeCatalogueSubject(subject), range } : undefined;
  }
  const inNodes = path.includes("nodes") && field === "id" && path.length - path.indexOf("nodes") === 3;
  const inEdges = path.includes("edges") && (field === "from" || field === "to");
  if (inNodes || inEdges) return { contents: describeNode(document, graphOf(compiledOf(document)), value), range };
  return undefined;
}

function subjectCountNear(partIdNode: JsonNode): number | undefined {
  const nodeObject = partIdNode.parent?.parent;
  const terminal = nodeObject?.children?.find((property) => property.children?.[0]?.value === "terminal")?.children?.[1];
  const refs = terminal?.children?.find((property) => property.children?.[0]?.value === "subjectRefs")?.children?.[1];
  return refs?.type === "array" ? refs.children?.length ?? 0 : undefined;
}

export function statementAt(statements: readonly Statement[], offset: number): Statement | undefined {
  // Statements are in text order: binary search keeps this fast on 10,000-node files.
  let low = 0;
  let high = statements.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const span = spanOf(statements[middle]!);
    if (offset < span.start) high = middle - 1;
    else if (offset > span.end) low = middle + 1;
    else return statements[middle];
  }
  return undefined;
}


/** The innermost node of a JSON tree at `offset` (its right edge included). */
export function findNodeAtOffset(node: JsonNode, offset: number): JsonNode | undefined {
  if (offset < node.offset || offset > node.offset + node.length) return undefined;
  for (const child of node.children ?? []) {
    const found = findNodeAtOffset(child, offset);
    if (found) return found;
  }
  return node;
}

/** The JSON path of a value node: property names and array indices from the root. */
export function getNodePath(node: JsonNode): (string | number)[] {
  const path: (string | number)[] = [];
  for (let current = node; current.parent; current = current.parent) {
    const parent = current.parent;
    if (parent.type === "property") {
      if (parent.children?.[1] === current) path.unshift(String(parent.children[0]!.value));
    } else if (parent.type === "array") path.unshift(parent.children!.indexOf(current));
  }
  return path;
}
