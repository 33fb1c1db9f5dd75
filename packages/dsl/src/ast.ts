/**
 * The `.wf` syntax tree. Every element carries its offsets, `start` and `end` (UTF-16 offsets
 * into the source, end exclusive; convert with positions.ts), as fields of its own, and a
 * fixed-width mark (a bracket, `=`, an arrow) is a bare offset: a large file's tree holds
 * hundreds of thousands of elements, a span object for each element and mark would be a large
 * share of the tree's memory, and the garbage collector copies that memory on every compile
 * (docs/performance.md has the figures). So an element is itself a `Span`; `spanOf` copies one
 * out where a span must outlive the tree.
 *
 * After a syntax error the tree still holds every statement that could be read; a part the
 * parser could not read is `undefined`, never a placeholder, so later passes never see
 * invented names.
 */
import type { Span } from "./positions.js";

export interface Syntax {
  start: number;
  end: number;
}

/** A name or a quoted string: `compare`, `"fetch data"`. `text` is the decoded value. */
export interface NameSyntax extends Syntax {
  text: string;
  quoted: boolean;
}

/**
 * `@1` or `@"2024 Q1"`. `text` is the version without `@`; the value as written (the string
 * with its quotes, or the bare version) runs from `valueStart` to `end`.
 */
export interface VersionSyntax extends Syntax {
  text: string;
  quoted: boolean;
  valueStart: number;
}

/**
 * Where an element's leading keyword is: every statement but a chain, and every block
 * property, `with` clause and `identifiers` clause, begins with its keyword, spelt exactly
 * (`word`), so the tree keeps no span for it. For a statement or property the word is its
 * `type`; see `keywordOf`. An element with no place in a text (made by the decompiler, at
 * 0..0) gets an empty span.
 */
export function keywordSpan(element: Syntax, word: string): Span {
  return { start: element.start, end: Math.min(element.start + word.length, element.end) };
}

/** The keyword span of a statement or block property that opens with the word of its `type`. */
export function keywordOf(element: Exclude<Statement | BlockProperty, ChainStatement | InvalidStatement | WithProperty>): Span {
  return keywordSpan(element, element.type);
}

// ---------------------------------------------------------------- JSON literals

export type JsonLiteral = JsonObjectLiteral | JsonArrayLiteral | JsonScalarLiteral;

export interface JsonObjectLiteral extends Syntax {
  type: "object";
  members: JsonMember[];
}

export interface JsonMember extends Syntax {
  key: NameSyntax;
  /** Undefined when the text stops before the value. */
  value: JsonLiteral | undefined;
}

export interface JsonArrayLiteral extends Syntax {
  type: "array";
  elements: JsonLiteral[];
}

export interface JsonScalarLiteral extends Syntax {
  type: "string" | "number" | "boolean" | "null";
  value: string | number | boolean | null;
  /** The literal as written (`"\u00e9"`, `1.50`), kept by the formatter. */
  raw: string;
}

/** `with { ... }`: fields wfkit does not model, merged into the object before it. */
export interface WithClause extends Syntax {
  value: JsonLiteral | undefined;
}

// ---------------------------------------------------------------- blocks

/** `{ ... }` after a trigger, part, destination or `version`: the properties of an inner object. */
export interface Block extends Syntax {
  /** Offset of the `{`. */
  open: number;
  /** Offset of the `}`; undefined when the block is not closed. */
  close: number | undefined;
  properties: BlockProperty[];
}

export type BlockProperty =
  | ScheduleProperty
  | TimezoneProperty
  | JobProperty
  | SubjectsProperty
  | WithProperty
  | VersionTriggerProperty
  | VersionDestinationProperty
  | ScopeProperty;

/** `schedule "0 6 * * 1"` in a trigger block. */
export interface ScheduleProperty extends Syntax {
  type: "schedule";
  value: NameSyntax | undefined;
}

/** `timezone "Europe/London"` in a trigger block. */
export interface TimezoneProperty extends Syntax {
  type: "timezone";
  value: NameSyntax | undefined;
}

/** `job compare.peers@1` in a part block. */
export interface JobProperty extends Syntax {
  type: "job";
  id: NameSyntax | undefined;
  version: VersionSyntax | undefined;
  with: WithClause | undefined;
}

/** `subjects [tesco, sainsbury]` in a part block. */
export interface SubjectsProperty extends Syntax {
  type: "subjects";
  /** Offsets of the `[` and the `]`, when written. */
  open: number | undefined;
  close: number | undefined;
  items: NameSyntax[];
}

/** `with { ... }` on a line of its own in a block: extra fields of the block's object. */
export interface WithProperty extends Syntax {
  type: "with";
  clause: WithClause;
}

/** `trigger scheduled { ... }` in a `version` block: the body's top-level trigger. */
export interface VersionTriggerProperty extends Syntax {
  type: "trigger";
  spec: KindSpec | undefined;
}

/** `destination standalone` in a `version` block: one entry of the body's `destinations`. */
export interface VersionDestinationProperty extends Syntax {
  type: "destination";
  spec: KindSpec | undefined;
}

/** `scope with { ... }` in a `version` block: extra fields of the body's `scope`. */
export interface ScopeProperty extends Syntax {
  type: "scope";
  with: WithClause | undefined;
}

/** A trigger or destination object: its kind word and an optional block of its fields. */
export interface KindSpec extends Syntax {
  kind: NameSyntax;
  block: Block | undefined;
}

// ---------------------------------------------------------------- statements

export type Statement =
  | WorkflowStatement
  | SubjectStatement
  | TriggerStatement
  | PartStatement
  | GateStatement
  | DestinationStatement
  | NodeStatement
  | EdgeStatement
  | ChainStatement
  | VersionStatement
  | DocumentStatement
  | InvalidStatement;

export type NodeDeclaration = TriggerStatement | PartStatement | GateStatement | DestinationStatement | NodeStatement;

/** `workflow "name"`: names the workflow (metadata, not in the JSON); `with` adds fields to the Definition. */
export interface WorkflowStatement extends Syntax {
  type: "workflow";
  name: NameSyntax | undefined;
  with: WithClause | undefined;
}

/** `subject tesco = company "cmp_tesco" "Tesco PLC"`, or `subject x = { ...JSON... }`. */
export interface SubjectStatement extends Syntax {
  type: "subject";
  name: NameSyntax | undefined;
  body: TypedSubject | RawSubject | undefined;
}

export interface TypedSubject extends Syntax {
  type: "typed";
  kind: NameSyntax;
  canonicalId: NameSyntax | undefined;
  label: NameSyntax | undefined;
  identifiers: ({ value: JsonLiteral | undefined } & Syntax) | undefined;
  with: WithClause | undefined;
}

export interface RawSubject extends Syntax {
  type: "raw";
  value: JsonLiteral;
}

/** `trigger start on_demand`, `trigger nightly scheduled { schedule "..." }`. */
export interface TriggerStatement extends Syntax {
  type: "trigger";
  name: NameSyntax | undefined;
  spec: KindSpec | undefined;
  with: WithClause | undefined;
}

/** `part compare = terminal.compare@1 { job ... subjects [...] }`. */
export interface PartStatement extends Syntax {
  type: "part";
  name: NameSyntax | undefined;
  /** Offset of the `=`, when written. */
  equals: number | undefined;
  partId: NameSyntax | undefined;
  version: VersionSyntax | undefined;
  /** The part's `terminal` object. */
  block: Block | undefined;
  with: WithClause | undefined;
}

/** `gate floor hold`. */
export interface GateStatement extends Syntax {
  type: "gate";
  name: NameSyntax | undefined;
  belowFloor: NameSyntax | undefined;
  with: WithClause | undefined;
}

/** `destination inbox standalone`. */
export interface DestinationStatement extends Syntax {
  type: "destination";
  name: NameSyntax | undefined;
  spec: KindSpec | undefined;
  with: WithClause | undefined;
}

/** `node { ...JSON... }`: a node written as JSON, kept exactly (for any node the typed forms cannot say). */
export interface NodeStatement extends Syntax {
  type: "node";
  value: JsonLiteral | undefined;
}

/** `edge { ...JSON... }`: an edge written as JSON, kept exactly. */
export interface EdgeStatement extends Syntax {
  type: "edge";
  value: JsonLiteral | undefined;
}

/**
 * `a -> b, c -> d`: groups of node names joined by arrows. Each arrow joins every name
 * before it to every name after it, row by row: `a -> b, c -> d` is a->b, a->c, b->d, c->d.
 */
export interface ChainStatement extends Syntax {
  type: "chain";
  groups: NameSyntax[][];
  /** Offset of the `->` that joins `groups[i]` to `groups[i + 1]`. */
  arrows: number[];
  with: WithClause | undefined;
}

/**
 * `version { trigger ... destination ... scope with {...} with {...} }`: write a version-save
 * body instead of a bare Definition. A `with` in the block adds fields to the body itself.
 */
export interface VersionStatement extends Syntax {
  type: "version";
  block: Block | undefined;
}

/** `document <JSON>`: a file that is not a workflow graph at all, kept verbatim. */
export interface DocumentStatement extends Syntax {
  type: "document";
  value: JsonLiteral | undefined;
}

/** A line the parser could not read as any statement (a syntax error was reported). */
export interface InvalidStatement extends Syntax {
  type: "invalid";
}

export interface Comment extends Syntax {
  /** The comment's text including `#`. */
  text: string;
}

export interface WfFile extends Syntax {
  type: "file";
  statements: Statement[];
  comments: Comment[];
}

/**
 * The fields of syntax elements that hold an offset as a plain number (a bracket, an `=`, where
 * a version's value starts), and the one that holds a list of them (a chain's arrows). A tool
 * that moves a tree within its text (the language server's incremental parser) moves these
 * with `start` and `end`.
 */
export const OFFSET_FIELDS = ["open", "close", "equals", "valueStart"] as const;
export const OFFSET_LIST_FIELDS = ["arrows"] as const;

/**
 * Which offsets an object of the tree holds (`start` and `end`, and each field above), one bit
 * each, for `moveOffsets`. A tool that moves the same objects many times (on every keystroke)
 * asks once and keeps the answer.
 */
export function offsetsHeldBy(object: Record<string, unknown>): number {
  return (
    (typeof object.start === "number" && typeof object.end === "number" ? HOLDS_SPAN : 0) |
    (typeof object.open === "number" ? HOLDS_OPEN : 0) |
    (typeof object.close === "number" ? HOLDS_CLOSE : 0) |
    (typeof object.equals === "number" ? HOLDS_EQUALS : 0) |
    (typeof object.valueStart === "number" ? HOLDS_VALUE_START : 0) |
    (Array.isArray(object.arrows) ? HOLDS_ARROWS : 0)
  );
}

/**
 * Adds `delta` to the offsets `held` (from `offsetsHeldBy`) of `object`. Every field is named
 * in the code rather than looked up from the lists above: the language server moves every
 * element after an edit on each keystroke, objects of a dozen shapes, and a store through a
 * variable key on objects of many shapes is several times slower than a named one.
 */
export function moveOffsets(object: Record<string, unknown>, held: number, delta: number): void {
  const element = object as { start: number; end: number; open: number; close: number; equals: number; valueStart: number; arrows: number[] };
  if (held & HOLDS_SPAN) {
    element.start += delta;
    element.end += delta;
  }
  if (held === HOLDS_SPAN) return;
  if (held & HOLDS_OPEN) element.open += delta;
  if (held & HOLDS_CLOSE) element.close += delta;
  if (held & HOLDS_EQUALS) element.equals += delta;
  if (held & HOLDS_VALUE_START) element.valueStart += delta;
  if (held & HOLDS_ARROWS) {
    const arrows = element.arrows;
    for (let i = 0; i < arrows.length; i++) arrows[i]! += delta;
  }
}

/**
 * Every object under `roots` that holds offsets, once each (a shared object is moved once),
 * with the offsets it holds (`offsetsHeldBy`): the tree's elements and plain spans (a fault's).
 * A fault's `range` holds lines and characters, not offsets, and is skipped. Generic, so
 * new syntax needs no change here; iterative, as JSON literals nest deep.
 */
export function offsetHolders(roots: unknown, found = new Map<Record<string, unknown>, number>()): Map<Record<string, unknown>, number> {
  const stack: unknown[] = [roots];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]);
      continue;
    }
    const record = value as Record<string, unknown>;
    if (found.has(record)) continue;
    found.set(record, offsetsHeldBy(record));
    for (const key in record) {
      if (key === "range") continue;
      const field = record[key];
      if (field !== null && typeof field === "object") stack.push(field);
    }
  }
  for (const [record, held] of found) if (held === 0) found.delete(record);
  return found;
}

/** Moves every offset under `roots` by `delta` (see offsetHolders). */
export function moveAllOffsets(roots: unknown, delta: number): void {
  if (delta === 0) return;
  for (const [record, held] of offsetHolders(roots)) moveOffsets(record, held, delta);
}

const HOLDS_SPAN = 1;
const HOLDS_OPEN = 2;
const HOLDS_CLOSE = 4;
const HOLDS_EQUALS = 8;
const HOLDS_VALUE_START = 16;
const HOLDS_ARROWS = 32;

/** A chain's arrow as written. */
export const ARROW = "->";

/** The span of the arrow at `offset` (see ChainStatement.arrows). */
export function arrowSpan(offset: number): Span {
  return { start: offset, end: offset + ARROW.length };
}

/** The span of a version's value as written: the string with its quotes, or the bare version. */
export function valueSpanOf(version: VersionSyntax): Span {
  return { start: version.valueStart, end: version.end };
}

export function isNodeDeclaration(statement: Statement): statement is NodeDeclaration {
  return statement.type === "trigger" || statement.type === "part" || statement.type === "gate" || statement.type === "destination" || statement.type === "node";
}
