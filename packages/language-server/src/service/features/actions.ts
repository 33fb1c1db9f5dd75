/**
 * Quick fixes for `.wf`:
 * - did-you-mean for unknown parts, jobs and node or subject names (the checker's suggestion,
 *   or the closest declared name);
 * - add the missing trigger or destination, wired to the graph's entry or exit nodes;
 * - remove a duplicate edge written on a line of its own;
 * - pin a subject from the catalogue's table (declare it, or replace an unpinned body);
 * - pin a subject through the Workflows API's resolve-subjects, when the transport says a
 *   service is configured: a command action (`wfkit.pinSubjectRemote`, arguments: the
 *   document's uri and the subject's name as written), which the server runs, so computing
 *   actions never waits on the network.
 */
import { Suggester, indexCatalogue, isPlainObject, type CatalogueSubject } from "@wfkit/core";
import { ARROW, subjectHintOf, type Span, type SubjectStatement } from "@wfkit/dsl";
import type { WfkitDocument } from "../document.js";
import { compiledOf, graphOf } from "../graph.js";
import { comparePositions, type CodeAction, type CodeActionOptions, type Diagnostic, type Range, type TextEdit } from "../types.js";
import { writeName } from "../wf/symbols.js";
import { statementAt } from "./hover.js";

/** The command of the service-backed pin; the server registers and runs it. */
export const PIN_SUBJECT_REMOTE_COMMAND = "wfkit.pinSubjectRemote";

export function getCodeActions(document: WfkitDocument, range: Range, diagnostics: Diagnostic[], options: CodeActionOptions = {}): CodeAction[] {
  if (document.language !== "wf") return [];
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (comparePositions(diagnostic.range.end, range.start) < 0 || comparePositions(range.end, diagnostic.range.start) < 0) continue;
    for (const action of fixesFor(document, diagnostic, options)) actions.push({ ...action, diagnostics: [diagnostic] });
  }
  return actions;
}

type Fix = Omit<CodeAction, "diagnostics">;

function fixesFor(document: WfkitDocument, diagnostic: Diagnostic, options: CodeActionOptions): Fix[] {
  const suggestion = diagnostic.data?.suggestion;
  switch (diagnostic.code) {
    case "part-unknown":
    case "job-unknown":
      return suggestion ? [replace(`Change to \`${suggestion}\``, diagnostic.range, suggestion)] : [];
    case "undeclared-node":
    case "edge-dangling":
      return renameReference(document, diagnostic, "node");
    case "undeclared-subject":
      return [...renameReference(document, diagnostic, "subject"), ...declareSubjectFromCatalogue(document, diagnostic)];
    case "trigger-missing":
      return [addTrigger(document)];
    case "destination-missing":
      return [addDestination(document)];
    case "edge-duplicate":
      return removeDuplicateEdge(document, diagnostic);
    case "subject-not-canonical":
      return [...pinSubject(document, diagnostic), ...(options.servicePinning ? pinSubjectThroughService(document, diagnostic) : [])];
    default:
      return [];
  }
}

function replace(title: string, range: Range, newText: string): Fix {
  return { title, kind: "quickfix", edits: [{ range, newText }], isPreferred: true };
}

function textAt(document: WfkitDocument, range: Range): string {
  return document.text.slice(document.lines.offsetAt(range.start), document.lines.offsetAt(range.end));
}

function renameReference(document: WfkitDocument, diagnostic: Diagnostic, namespace: "node" | "subject"): Fix[] {
  const written = textAt(document, diagnostic.range);
  const name = written.startsWith('"') ? safeJson(written) : written;
  const symbols = document.symbols;
  if (!symbols || typeof name !== "string") return [];
  const declared = [...(namespace === "node" ? symbols.nodes : symbols.subjects).keys()];
  const closest = new Suggester().closest(name, declared);
  return closest ? [replace(`Change to \`${closest}\``, diagnostic.range, writeName(closest, written.startsWith('"')))] : [];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where new statements go: after the last line of the file, on a line of their own. */
function appendEdit(document: WfkitDocument, lines: string[]): TextEdit {
  const end = document.lines.positionAt(document.text.length);
  const needsBreak = document.text.length > 0 && !/[\r\n]$/.test(document.text);
  return { range: { start: end, end }, newText: `${needsBreak ? "\n" : ""}${lines.join("\n")}\n` };
}

function freshName(document: WfkitDocument, base: string): string {
  const taken = document.symbols?.nodes;
  let name = base;
  for (let i = 2; taken?.has(name); i++) name = `${base}${i}`;
  return name;
}

function addTrigger(document: WfkitDocument): Fix {
  const graph = graphOf(compiledOf(document));
  const name = freshName(document, "start");
  const entries = [...graph.nodes.values()].filter((node) => node.kind !== "trigger" && !graph.predecessors.get(node.id)?.length).map((node) => writeName(node.id));
  const lines = [`trigger ${name} on_demand`];
  if (entries.length) lines.push(`${name} -> ${entries.join(", ")}`);
  return { title: `Add trigger \`${name}\`${entries.length ? ` feeding ${entries.join(", ")}` : ""}`, kind: "quickfix", edits: [appendEdit(document, lines)], isPreferred: true };
}

function addDestination(document: WfkitDocument): Fix {
  const graph = graphOf(compiledOf(document));
  const name = freshName(document, "inbox");
  const exits = [...graph.nodes.values()].filter((node) => node.kind !== "destination" && node.kind !== "trigger" && !graph.successors.get(node.id)?.length).map((node) => writeName(node.id));
  const lines = [`destination ${name} standalone`];
  if (exits.length) lines.push(`${exits.join(", ")} -> ${name}`);
  return { title: `Add destination \`${name}\`${exits.length ? ` fed by ${exits.join(", ")}` : ""}`, kind: "quickfix", edits: [appendEdit(document, lines)], isPreferred: true };
}

/**
 * Removes a duplicate edge: the whole statement when it says nothing else (`a -> b` on its
 * own), or, in a chain of single names, the one arrow (`a -> b -> c` becomes `a -> b` and
 * `c` is dropped or starts the rest of the chain on a line of its own).
 */
function removeDuplicateEdge(document: WfkitDocument, diagnostic: Diagnostic): Fix[] {
  const ast = document.ast;
  const offset = document.lines.offsetAt(diagnostic.range.start);
  const statement = ast && statementAt(ast.statements, offset);
  if (!statement) return [];
  const title = "Remove the duplicate edge";
  const single = (statement.type === "chain" && statement.groups.length === 2 && statement.groups.every((group) => group.length === 1) && !statement.with) || statement.type === "edge";
  if (single) {
    const line = document.lines.positionAt(statement.start).line;
    const onlyStatementOnLine = document.lines.lineText(line).trim() === document.text.slice(statement.start, statement.end).trim();
    const range: Range = onlyStatementOnLine && line + 1 < document.lines.lineCount ? { start: { line, character: 0 }, end: { line: line + 1, character: 0 } } : document.lines.rangeOf(statement.start, statement.end);
    return [{ title, kind: "quickfix", edits: [{ range, newText: "" }], isPreferred: true }];
  }
  if (statement.type !== "chain" || statement.with) return [];
  // The arrow the fault is placed at (`-> target`), between two single-name groups.
  const arrow = statement.arrows.findIndex((at) => at <= offset && offset <= at + ARROW.length);
  const before = statement.groups[arrow];
  const after = statement.groups[arrow + 1];
  if (arrow < 0 || before?.length !== 1 || after?.length !== 1) return [];
  const written = (group: readonly Span[]) => group.map((name) => document.text.slice(name.start, name.end)).join(", ");
  const chain = (groups: typeof statement.groups) => (groups.length > 1 ? groups.map(written).join(" -> ") : "");
  const indent = /^[ \t]*/.exec(document.lines.lineText(document.lines.positionAt(statement.start).line))![0];
  const parts = [chain(statement.groups.slice(0, arrow + 1)), chain(statement.groups.slice(arrow + 1))].filter(Boolean);
  return [{ title, kind: "quickfix", edits: [{ range: document.lines.rangeOf(statement.start, statement.end), newText: parts.join(`\n${indent}`) }], isPreferred: true }];
}

function pinnedBody(subject: CatalogueSubject): string {
  return `company ${JSON.stringify(subject.canonicalId)} ${JSON.stringify(subject.label)}`;
}

function subjectFromSuggestion(suggestion: string | undefined): CatalogueSubject | undefined {
  const value = suggestion === undefined ? undefined : safeJson(suggestion);
  if (!isPlainObject(value) || typeof value.canonicalId !== "string" || typeof value.label !== "string") return undefined;
  return { canonicalId: value.canonicalId, kind: "company", label: value.label };
}

/** The declaration a `subject-not-canonical` fault is about (placed on a use or on the declaration). */
function faultedSubject(document: WfkitDocument, diagnostic: Diagnostic): SubjectStatement | undefined {
  const { symbols } = document;
  const offset = document.lines.offsetAt(diagnostic.range.start);
  const occurrence = symbols?.occurrenceAt(offset);
  const declaration = occurrence?.namespace === "subject" ? symbols!.declarationsOf("subject", occurrence.name)[0] : undefined;
  const statement = (declaration?.statement ?? (document.ast && statementAt(document.ast.statements, offset))) as SubjectStatement | undefined;
  return statement?.type === "subject" && statement.body && statement.name ? statement : undefined;
}

/** `subject-not-canonical`: rewrite the subject's declaration as the catalogue pins it. */
function pinSubject(document: WfkitDocument, diagnostic: Diagnostic): Fix[] {
  const subject = subjectFromSuggestion(diagnostic.data?.suggestion);
  const statement = subject && faultedSubject(document, diagnostic);
  if (!subject || !statement?.body) return [];
  return [replace(`Pin as \`${subject.canonicalId}\` (${subject.label})`, document.lines.rangeOf(statement.body.start, statement.body.end), pinnedBody(subject))];
}

/** `subject-not-canonical` with a service configured: ask resolve-subjects for the hint, through the server. */
function pinSubjectThroughService(document: WfkitDocument, diagnostic: Diagnostic): Fix[] {
  const statement = faultedSubject(document, diagnostic);
  const hint = statement && subjectHintOf(statement, document.text);
  if (!hint) return [];
  const title = `Pin \`${hint.name}\` through the Workflows API (resolve ${JSON.stringify(hint.hint)})`;
  return [{ title, kind: "quickfix", edits: [], command: { title, command: PIN_SUBJECT_REMOTE_COMMAND, arguments: [document.uri, statement.name!.text] } }];
}

/** `undeclared-subject` for a name the catalogue's table knows: declare it, pinned. */
function declareSubjectFromCatalogue(document: WfkitDocument, diagnostic: Diagnostic): Fix[] {
  const name = textAt(document, diagnostic.range).replace(/^"|"$/g, "");
  const wanted = name.toLowerCase();
  const subjects = indexCatalogue(document.catalogue).subjects;
  const matches = subjects.filter(
    (subject) =>
      subject.canonicalId.toLowerCase() === wanted ||
      subject.canonicalId.toLowerCase() === `cmp_${wanted}` ||
      subject.label.toLowerCase().split(/[^a-z0-9]+/).includes(wanted) ||
      (subject.identifiers ?? []).some((identifier) => {
        const value = isPlainObject(identifier) ? identifier.value : identifier;
        return typeof value === "string" && value.toLowerCase().split(".")[0] === wanted;
      }),
  );
  return matches.map((subject) => ({
    title: `Declare \`${name}\` pinned as \`${subject.canonicalId}\` (${subject.label})`,
    kind: "quickfix" as const,
    edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: `subject ${writeName(name)} = ${pinnedBody(subject)}\n` }],
    isPreferred: matches.length === 1,
  }));
}
