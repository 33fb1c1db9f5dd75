/** Go to definition, find references, document highlights and rename, for nodes and subjects. */
import type { WfkitDocument } from "../document.js";
import type { DocumentHighlight, Position, Range, TextEdit } from "../types.js";
import { writeName, type Occurrence } from "../wf/symbols.js";

function occurrenceAt(document: WfkitDocument, position: Position): Occurrence | undefined {
  if (document.language !== "wf") return undefined;
  return document.symbols?.occurrenceAt(document.lines.offsetAt(position));
}

function rangeOf(document: WfkitDocument, occurrence: Occurrence): Range {
  return document.lines.rangeOf(occurrence.span.start, occurrence.span.end);
}

export function findDefinition(document: WfkitDocument, position: Position): Range | undefined {
  const occurrence = occurrenceAt(document, position);
  if (!occurrence) return undefined;
  const declaration = document.symbols!.declarationsOf(occurrence.namespace, occurrence.name)[0];
  return declaration && rangeOf(document, declaration);
}

export function findReferences(document: WfkitDocument, position: Position, includeDeclaration: boolean): Range[] {
  const occurrence = occurrenceAt(document, position);
  if (!occurrence) return [];
  const symbols = document.symbols!;
  const all = symbols.occurrencesOf(occurrence.namespace, occurrence.name);
  const declarations = new Set(symbols.declarationsOf(occurrence.namespace, occurrence.name));
  return all.filter((o) => includeDeclaration || !declarations.has(o as never)).map((o) => rangeOf(document, o));
}

export function findDocumentHighlights(document: WfkitDocument, position: Position): DocumentHighlight[] {
  const occurrence = occurrenceAt(document, position);
  if (!occurrence) return [];
  const symbols = document.symbols!;
  const declarations = new Set<Occurrence>(symbols.declarationsOf(occurrence.namespace, occurrence.name));
  return symbols.occurrencesOf(occurrence.namespace, occurrence.name).map((o) => ({ range: rangeOf(document, o), kind: declarations.has(o) ? "write" : "read" }));
}

export function prepareRename(document: WfkitDocument, position: Position): { range: Range; placeholder: string } | { error: string } | undefined {
  const occurrence = occurrenceAt(document, position);
  if (!occurrence) return { error: "Only node and subject names can be renamed." };
  return { range: rangeOf(document, occurrence), placeholder: occurrence.name };
}

export function doRename(document: WfkitDocument, position: Position, newName: string): { edits: TextEdit[] } | { error: string } | undefined {
  const occurrence = occurrenceAt(document, position);
  if (!occurrence) return { error: "Only node and subject names can be renamed." };
  if (newName.trim() === "") return { error: "A name cannot be empty." };
  const symbols = document.symbols!;
  if (newName !== occurrence.name && symbols.declarationsOf(occurrence.namespace, newName).length)
    return { error: `A ${occurrence.namespace} named \`${newName}\` already exists; renaming would merge the two.` };
  const edits = symbols.occurrencesOf(occurrence.namespace, occurrence.name).map((o) => ({ range: rangeOf(document, o), newText: writeName(newName, o.alwaysQuoted) }));
  return { edits };
}
