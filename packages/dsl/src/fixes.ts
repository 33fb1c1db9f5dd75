/**
 * The fixes of `.wf` faults: what the language server offers as quick fixes and what
 * `wfkit check --fix` applies, computed in one place so that the two cannot differ. Pure:
 * text, syntax tree, compiled definition and catalogue in; edits by offsets out.
 *
 * - did-you-mean for unknown parts and jobs (the checker's suggestion) and for undeclared
 *   node or subject names (the closest declared name);
 * - add the missing trigger or destination, wired to the graph's entry or exit nodes;
 * - remove a duplicate edge;
 * - pin a subject from the catalogue's table (declare it, or replace an unpinned body).
 *
 * Each fix says whether it is **safe**: applicable without a person reading it. Only a
 * did-you-mean whose word has exactly one candidate within the typo distance of core's
 * `Suggester` is (a part id, a job id, a node or subject name); everything else (which
 * trigger to add, which company a subject is, which duplicate to drop, a job's version)
 * asks a person. `applySafeFixes` applies the safe ones repeatedly, checking each round
 * with the caller's analysis: a round that would make text that parsed stop parsing, or
 * add errors, is not kept.
 *
 * The service-backed pin (resolve-subjects through the Workflows API) is the language
 * server's, as a command; `wfkit pin` is its CLI counterpart (`subject-pin.ts`).
 */
import { Suggester, indexCatalogue, isPlainObject, isVersionSaveBody, type Catalogue, type CatalogueSubject } from "@wfkit/core";
import { ARROW, type NameSyntax, type Statement, type SubjectStatement, type WfFile } from "./ast.js";
import { stringMemberOf } from "./json-value.js";
import { partitionPoint, type Span } from "./positions.js";
import type { SourceEdit } from "./subject-pin.js";
import { decodeString, printName, quoteString } from "./syntax-table.js";

/** What a fix needs to know of a fault: its code, where it is placed, and the checker's suggestion. */
export interface FixableFault {
  code: string;
  span: Span;
  suggestion?: string | undefined;
}

/** The source the faults were found in. */
export interface FixInput {
  text: string;
  /** The syntax tree of `text`. */
  ast: WfFile | undefined;
  /** The definition `text` compiles to, checked or not (wiring a new trigger or destination). */
  definition: unknown;
  catalogue: Catalogue;
}

export interface SourceFix {
  title: string;
  /** Replacements in the input's text, by offsets, not overlapping. */
  edits: SourceEdit[];
  /** Safe to apply without a person: a did-you-mean with exactly one candidate. `wfkit check --fix` applies these. */
  safe: boolean;
  /** The fix an editor puts first (and applies on "fix all" where the editor does). */
  preferred: boolean;
}

/** The codes some fix answers. */
export const FIXABLE_CODES: ReadonlySet<string> = new Set([
  "part-unknown",
  "job-unknown",
  "undeclared-node",
  "edge-dangling",
  "undeclared-subject",
  "trigger-missing",
  "destination-missing",
  "edge-duplicate",
  "subject-not-canonical",
]);

/** Every fix of one fault, the safe one (if any) first. */
export function fixesFor(input: FixInput, fault: FixableFault, suggester: Suggester = new Suggester()): SourceFix[] {
  switch (fault.code) {
    case "part-unknown":
    case "job-unknown":
      return suggestionFix(input, fault, suggester);
    case "undeclared-node":
    case "edge-dangling":
      return renameReference(input, fault, "node", suggester);
    case "undeclared-subject":
      return [...renameReference(input, fault, "subject", suggester), ...declareSubjectFromCatalogue(input, fault)];
    case "trigger-missing":
      return [addTrigger(input)];
    case "destination-missing":
      return [addDestination(input)];
    case "edge-duplicate":
      return removeDuplicateEdge(input, fault);
    case "subject-not-canonical":
      return pinSubject(input, fault);
    default:
      return [];
  }
}

/** The one word of `candidates` within the typo distance of `word`, or undefined when there is none or more than one. */
export function onlyCandidate(word: string, candidates: readonly string[], suggester: Suggester = new Suggester()): string | undefined {
  const best = suggester.closest(word, candidates);
  if (best === undefined) return undefined;
  return suggester.closest(word, candidates.filter((candidate) => candidate !== best)) === undefined ? best : undefined;
}

function fix(title: string, edits: SourceEdit[], safe = false, preferred = true): SourceFix {
  return { title, edits, safe, preferred };
}

/** A name as written at a span: a quoted one decoded, or undefined when the span is empty. */
function writtenName(text: string, span: Span): { name: string; quoted: boolean } | undefined {
  const written = text.slice(span.start, span.end);
  if (!written.startsWith('"')) return written ? { name: written, quoted: false } : undefined;
  // As the lexer reads it (a raw control character in the quotes included), so that the name is the one the fault is about.
  return { name: decodeString(written), quoted: true };
}

/** `part-unknown`, `job-unknown`: the checker's suggestion in place of the word. */
function suggestionFix(input: FixInput, fault: FixableFault, suggester: Suggester): SourceFix[] {
  const suggestion = fault.suggestion;
  const written = writtenName(input.text, fault.span);
  if (suggestion === undefined || !written) return [];
  const newText = written.quoted ? quoteString(suggestion) : suggestion;
  return [fix(`Change to \`${suggestion}\``, [{ start: fault.span.start, end: fault.span.end, text: newText }], onlyCandidate(written.name, candidatesFor(input, fault), suggester) === suggestion)];
}

/** The words a `part-unknown` or `job-unknown` fault's word could have meant (none for a job's version: which version is wanted is not a typo). */
function candidatesFor(input: FixInput, fault: FixableFault): readonly string[] {
  const index = indexCatalogue(input.catalogue);
  if (fault.code === "part-unknown") return index.partIds;
  if (input.text[fault.span.start - 1] === "@") return [];
  const statement = input.ast && statementAt(input.ast.statements, fault.span.start);
  const partId = statement?.type === "part" ? statement.partId?.text : undefined;
  const jobs = partId === undefined ? undefined : index.parts.get(partId)?.terminal?.jobs;
  return jobs ? [...new Set(jobs.map((job) => job.id))] : [];
}

/** The names a file declares, in the order first declared: nodes (typed statements and `node {...}` ids) or subjects. */
export function declaredNames(ast: WfFile, namespace: "node" | "subject"): string[] {
  const names = new Set<string>();
  const add = (name: NameSyntax | undefined) => name && name.text !== "" && names.add(name.text);
  for (const statement of ast.statements) {
    if (namespace === "subject") {
      if (statement.type === "subject") add(statement.name);
      continue;
    }
    if (statement.type === "trigger" || statement.type === "part" || statement.type === "gate" || statement.type === "destination") add(statement.name);
    else if (statement.type === "node") {
      const id = stringMemberOf(statement.value, "id");
      if (id) names.add(String(id.value));
    }
  }
  return [...names];
}

/** `undeclared-node`, `edge-dangling`, `undeclared-subject`: the closest declared name, written as the reference was (quoted stays quoted). */
function renameReference(input: FixInput, fault: FixableFault, namespace: "node" | "subject", suggester: Suggester): SourceFix[] {
  const written = writtenName(input.text, fault.span);
  if (!input.ast || !written) return [];
  const declared = declaredNames(input.ast, namespace);
  const closest = suggester.closest(written.name, declared);
  if (closest === undefined) return [];
  const safe = onlyCandidate(written.name, declared, suggester) === closest;
  return [fix(`Change to \`${closest}\``, [{ start: fault.span.start, end: fault.span.end, text: written.quoted ? quoteString(closest) : printName(closest) }], safe)];
}

/** Where new statements go: after the last line of the file, on lines of their own. */
function appendEdit(text: string, lines: string[]): SourceEdit {
  const needsBreak = text.length > 0 && !/[\r\n]$/.test(text);
  return { start: text.length, end: text.length, text: `${needsBreak ? "\n" : ""}${lines.join("\n")}\n` };
}

function freshName(input: FixInput, base: string): string {
  const taken = new Set(input.ast ? declaredNames(input.ast, "node") : []);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  return name;
}

interface GraphShape {
  /** Node ids by kind, in the definition's order (first of each id). */
  nodes: Map<string, string>;
  hasPredecessor: Set<string>;
  hasSuccessor: Set<string>;
}

/** The nodes and which have edges in or out, read defensively from a definition or version-save body. */
function graphShape(definition: unknown): GraphShape {
  const shape: GraphShape = { nodes: new Map(), hasPredecessor: new Set(), hasSuccessor: new Set() };
  let graph = definition;
  if (isVersionSaveBody(graph) && isPlainObject(graph.scope)) graph = graph.scope.graph;
  if (!isPlainObject(graph)) return shape;
  for (const node of Array.isArray(graph.nodes) ? graph.nodes : [])
    if (isPlainObject(node) && typeof node.id === "string" && !shape.nodes.has(node.id)) shape.nodes.set(node.id, typeof node.kind === "string" ? node.kind : "part");
  for (const edge of Array.isArray(graph.edges) ? graph.edges : []) {
    if (!isPlainObject(edge) || typeof edge.from !== "string" || typeof edge.to !== "string") continue;
    shape.hasSuccessor.add(edge.from);
    shape.hasPredecessor.add(edge.to);
  }
  return shape;
}

function addTrigger(input: FixInput): SourceFix {
  const graph = graphShape(input.definition);
  const name = freshName(input, "start");
  const entries = [...graph.nodes].filter(([id, kind]) => kind !== "trigger" && !graph.hasPredecessor.has(id)).map(([id]) => printName(id));
  const lines = [`trigger ${name} on_demand`];
  if (entries.length) lines.push(`${name} -> ${entries.join(", ")}`);
  return fix(`Add trigger \`${name}\`${entries.length ? ` feeding ${entries.join(", ")}` : ""}`, [appendEdit(input.text, lines)]);
}

function addDestination(input: FixInput): SourceFix {
  const graph = graphShape(input.definition);
  const name = freshName(input, "inbox");
  const exits = [...graph.nodes].filter(([id, kind]) => kind !== "destination" && kind !== "trigger" && !graph.hasSuccessor.has(id)).map(([id]) => printName(id));
  const lines = [`destination ${name} standalone`];
  if (exits.length) lines.push(`${exits.join(", ")} -> ${name}`);
  return fix(`Add destination \`${name}\`${exits.length ? ` fed by ${exits.join(", ")}` : ""}`, [appendEdit(input.text, lines)]);
}

/** The statement whose span holds `offset` (either end included). Statements are in text order: a binary search. */
export function statementAt(statements: readonly Statement[], offset: number): Statement | undefined {
  const index = partitionPoint(statements.length, (i) => statements[i]!.end < offset);
  const statement = statements[index];
  return statement && statement.start <= offset ? statement : undefined;
}

/** The line around `offset`: where it starts, where its text ends (before the line break) and where the next line starts (undefined on the last line). */
function lineAround(text: string, offset: number): { start: number; end: number; next: number | undefined } {
  const start = Math.max(text.lastIndexOf("\n", offset - 1) + 1, text.lastIndexOf("\r", offset - 1) + 1);
  const breakAt = text.slice(offset).search(/\r\n|\r|\n/);
  if (breakAt < 0) return { start, end: text.length, next: undefined };
  const end = offset + breakAt;
  return { start, end, next: end + (text.startsWith("\r\n", end) ? 2 : 1) };
}

/**
 * Removes a duplicate edge: the whole statement when it says nothing else (`a -> b` on its
 * own; with its line when it is alone there), or, in a chain of single names, the one arrow
 * (`a -> b -> c` becomes `a -> b` and `c` is dropped or starts the rest of the chain on a
 * line of its own).
 */
function removeDuplicateEdge(input: FixInput, fault: FixableFault): SourceFix[] {
  const { text, ast } = input;
  const offset = fault.span.start;
  const statement = ast && statementAt(ast.statements, offset);
  if (!statement) return [];
  const title = "Remove the duplicate edge";
  const single = (statement.type === "chain" && statement.groups.length === 2 && statement.groups.every((group) => group.length === 1) && !statement.with) || statement.type === "edge";
  const line = lineAround(text, statement.start);
  if (single) {
    const alone = text.slice(line.start, line.end).trim() === text.slice(statement.start, statement.end).trim();
    return [fix(title, [alone && line.next !== undefined ? { start: line.start, end: line.next, text: "" } : { start: statement.start, end: statement.end, text: "" }])];
  }
  if (statement.type !== "chain" || statement.with) return [];
  // The arrow the fault is placed at (`-> target`), between two single-name groups.
  const arrow = statement.arrows.findIndex((at) => at <= offset && offset <= at + ARROW.length);
  const before = statement.groups[arrow];
  const after = statement.groups[arrow + 1];
  if (arrow < 0 || before?.length !== 1 || after?.length !== 1) return [];
  const written = (group: readonly Span[]) => group.map((name) => text.slice(name.start, name.end)).join(", ");
  const chain = (groups: readonly (readonly Span[])[]) => (groups.length > 1 ? groups.map(written).join(" -> ") : "");
  const indent = /^[ \t]*/.exec(text.slice(line.start, line.end))![0];
  const parts = [chain(statement.groups.slice(0, arrow + 1)), chain(statement.groups.slice(arrow + 1))].filter(Boolean);
  return [fix(title, [{ start: statement.start, end: statement.end, text: parts.join(`\n${indent}`) }])];
}

function pinnedBody(subject: CatalogueSubject): string {
  return `company ${JSON.stringify(subject.canonicalId)} ${JSON.stringify(subject.label)}`;
}

function subjectFromSuggestion(suggestion: string | undefined): CatalogueSubject | undefined {
  let value: unknown;
  try {
    value = suggestion === undefined ? undefined : JSON.parse(suggestion);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value) || typeof value.canonicalId !== "string" || typeof value.label !== "string") return undefined;
  return { canonicalId: value.canonicalId, kind: "company", label: value.label };
}

/**
 * The declaration a subject fault is about: placed on the declaration itself, or on a use
 * in a part's `subjects [...]` (then the first declaration of that name).
 */
export function faultedSubject(input: Pick<FixInput, "text" | "ast">, offset: number): SubjectStatement | undefined {
  const statements = input.ast?.statements ?? [];
  const statement = statementAt(statements, offset);
  let name: string | undefined;
  if (statement?.type === "subject") name = statement.name?.text;
  else if (statement?.type === "part")
    for (const property of statement.block?.properties ?? [])
      if (property.type === "subjects") name ??= property.items.find((item) => item.start <= offset && offset <= item.end)?.text;
  const declaration =
    name === undefined ? undefined : (statements.find((candidate) => candidate.type === "subject" && candidate.name?.text === name) as SubjectStatement | undefined);
  const found = declaration ?? (statement?.type === "subject" ? statement : undefined);
  return found?.body && found.name ? found : undefined;
}

/** `subject-not-canonical`: rewrite the subject's declaration as the catalogue pins it. */
function pinSubject(input: FixInput, fault: FixableFault): SourceFix[] {
  const subject = subjectFromSuggestion(fault.suggestion);
  const statement = subject && faultedSubject(input, fault.span.start);
  if (!subject || !statement?.body) return [];
  return [fix(`Pin as \`${subject.canonicalId}\` (${subject.label})`, [{ start: statement.body.start, end: statement.body.end, text: pinnedBody(subject) }])];
}

/** `undeclared-subject` for a name the catalogue's table knows: declare it, pinned (which company it is, a person says). */
function declareSubjectFromCatalogue(input: FixInput, fault: FixableFault): SourceFix[] {
  const name = input.text.slice(fault.span.start, fault.span.end).replace(/^"|"$/g, "");
  const wanted = name.toLowerCase();
  const subjects = indexCatalogue(input.catalogue).subjects;
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
  return matches.map((subject) =>
    fix(`Declare \`${name}\` pinned as \`${subject.canonicalId}\` (${subject.label})`, [{ start: 0, end: 0, text: `subject ${printName(name)} = ${pinnedBody(subject)}\n` }], false, matches.length === 1),
  );
}

// ---------------------------------------------------------------- applying

/** Applies non-overlapping edits (by offsets into `text`); an edit overlapping an earlier one is left out. */
export function applyEdits(text: string, edits: readonly SourceEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) continue;
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

/** What the caller's analysis says of a text: its faults (after whatever policy applies) and whether it parsed. */
export interface FixAnalysis {
  input: FixInput;
  faults: readonly (FixableFault & { severity: "error" | "warning" })[];
  /** No syntax errors. */
  parses: boolean;
}

export interface AppliedFix {
  code: string;
  title: string;
}

export interface SafeFixResult {
  text: string;
  /** The fixes applied, in the order applied. */
  applied: AppliedFix[];
  /** Rounds run (each one analysis of the text, plus one per round kept). */
  rounds: number;
}

/** At most this many rounds: each round fixes at least one fault, and a fix cannot make a new fault that a later round fixes for ever. */
export const MAX_FIX_ROUNDS = 50;

/**
 * Applies the safe fixes of `text` until none is left, at most `MAX_FIX_ROUNDS` rounds. Each
 * round takes one safe fix per fault (edits that overlap an earlier fault's are left for the
 * next round) and keeps the result only when the text still parses (if it did) and has no
 * more errors than before; otherwise it tries the round's fixes one at a time and keeps the
 * first that passes. Stops when no fix passes.
 */
export function applySafeFixes(text: string, analyze: (text: string) => FixAnalysis): SafeFixResult {
  const applied: AppliedFix[] = [];
  let current = analyze(text);
  let rounds = 0;
  const errors = (analysis: FixAnalysis) => analysis.faults.reduce((count, fault) => count + (fault.severity === "error" ? 1 : 0), 0);
  const acceptable = (before: FixAnalysis, after: FixAnalysis) => (after.parses || !before.parses) && errors(after) <= errors(before);
  while (rounds < MAX_FIX_ROUNDS) {
    rounds++;
    const suggester = new Suggester();
    const chosen: { fault: FixableFault; fix: SourceFix }[] = [];
    for (const fault of current.faults) {
      const safe = fixesFor(current.input, fault, suggester).find((candidate) => candidate.safe);
      if (safe) chosen.push({ fault, fix: safe });
    }
    if (!chosen.length) break;
    const attempt = (fixes: typeof chosen) => {
      const taken: typeof chosen = [];
      const edits: SourceEdit[] = [];
      for (const entry of fixes) {
        if (entry.fix.edits.some((edit) => edits.some((other) => edit.start < other.end && other.start < edit.end) || edits.some((other) => edit.start === other.start && edit.end === other.end))) continue;
        edits.push(...entry.fix.edits);
        taken.push(entry);
      }
      const next = applyEdits(current.input.text, edits);
      if (next === current.input.text) return undefined;
      const analysis = analyze(next);
      return acceptable(current, analysis) ? { analysis, taken } : undefined;
    };
    let kept = attempt(chosen);
    for (let i = 0; !kept && i < chosen.length; i++) kept = attempt([chosen[i]!]);
    if (!kept) break;
    for (const { fault, fix: taken } of kept.taken) applied.push({ code: fault.code, title: taken.title });
    current = kept.analysis;
  }
  return { text: current.input.text, applied, rounds };
}
