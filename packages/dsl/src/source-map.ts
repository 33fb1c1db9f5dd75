/**
 * Source maps: from a JSON Pointer into a compiled (or parsed) document to the place in the
 * source text that wrote it.
 *
 * Both sources (`.wf` here, `.json` in json-source.ts) resolve pointers lazily by walking their
 * own syntax tree alongside the pointer, instead of storing a table of every pointer: a
 * 100,000-node file has millions of pointers and a table would cost hundreds of megabytes for
 * the few faults that are ever looked up.
 *
 * For `.wf`, the compiler records, for each node and edge of the output, the statement that
 * produced it (`WfOrigins`); a pointer is then walked down "places": each place knows its span
 * in the text and how to find the place of a child field. Where fields are written tells where
 * faults go (the field tables of fields.ts say where each typed field is): a node is its name,
 * `partId` the part word, an edge the arrow and its target, a `with` field its key or value, a
 * subject's field its word in the `subject` declaration.
 */
import { parsePointer } from "@wfkit/core";
import {
  arrowSpan,
  type Block,
  type ChainStatement,
  type DocumentStatement,
  type EdgeStatement,
  type JsonLiteral,
  keywordOf,
  keywordSpan,
  type NameSyntax,
  type NodeDeclaration,
  type SubjectStatement,
  type SubjectsProperty,
  type Syntax,
  valueSpanOf,
  type VersionStatement,
  type VersionSyntax,
  type WithClause,
  type WorkflowStatement,
} from "./ast.js";
import { readBlock } from "./syntax-table.js";
import { blockOf, DESTINATION_SPEC_TABLE, type FieldTable, fieldNamed, holderOf, NODE_TABLES, SUBJECT_TABLE, TRIGGER_SPEC_TABLE, withOf } from "./fields.js";
import { memberOf, stringMemberOf } from "./json-value.js";
import { LineIndex, partitionPoint, type Range, type Span, spanOf } from "./positions.js";


/** Which part of a field to point at: its value (the default) or its name. */
export type PointerPart = "value" | "key";

export interface SourceLocation {
  span: Span;
  /**
   * True when the pointer itself is written in the source; false when it is not (a missing
   * field, an index past the end) and `span` is the nearest ancestor that is.
   */
  exact: boolean;
}

export interface SourceMap {
  readonly text: string;
  /** Where `pointer` was written, falling back to its nearest written ancestor. Never throws. */
  locate(pointer: string, part?: PointerPart): SourceLocation;
  spanOf(pointer: string, part?: PointerPart): Span;
  rangeOf(pointer: string, part?: PointerPart): Range;
  /** True when `pointer` itself is written in the source. */
  has(pointer: string): boolean;
  /** Offsets to positions for this source's text. */
  lineIndex(): LineIndex;
}

/** The outcome of walking a pointer down a syntax tree as far as it goes. */
export interface PointerResolution {
  span: Span;
  keySpan?: Span;
  /** How many of the pointer's tokens were resolved. */
  depth: number;
}

/** Shared plumbing: subclasses only say how to resolve a pointer's tokens. */
export abstract class LazySourceMap implements SourceMap {
  constructor(
    readonly text: string,
    /** The line index of `text`, when the caller has one already. */
    private lines?: LineIndex,
  ) {}

  protected abstract resolve(tokens: readonly string[], part: PointerPart): PointerResolution;

  locate(pointer: string, part: PointerPart = "value"): SourceLocation {
    // A pointer that is not a pointer at all (no leading "/") resolves to the document.
    const wellFormed = pointer === "" || pointer.startsWith("/");
    const tokens = !pointer.startsWith("/") ? [] : pointer.includes("~") ? parsePointer(pointer) : splitPointer(pointer);
    const resolution = this.resolve(tokens, part);
    const exact = wellFormed && resolution.depth === tokens.length;
    const span = exact && part === "key" && resolution.keySpan ? resolution.keySpan : resolution.span;
    return { span: clampSpan(span, this.text.length), exact };
  }

  spanOf(pointer: string, part: PointerPart = "value"): Span {
    return this.locate(pointer, part).span;
  }

  rangeOf(pointer: string, part: PointerPart = "value"): Range {
    return this.lineIndex().rangeOf(this.spanOf(pointer, part));
  }

  has(pointer: string): boolean {
    return this.locate(pointer).exact;
  }

  lineIndex(): LineIndex {
    this.lines ??= new LineIndex(this.text);
    return this.lines;
  }
}

/**
 * The tokens of a pointer that escapes nothing (no `~`): what parsePointer gives, without its
 * two replaces per token and a split (placing the faults of a broken large file splits tens
 * of thousands of pointers).
 */
function splitPointer(pointer: string): string[] {
  const tokens: string[] = [];
  let from = 1;
  for (;;) {
    const slash = pointer.indexOf("/", from);
    if (slash < 0) {
      tokens.push(pointer.slice(from));
      return tokens;
    }
    tokens.push(pointer.slice(from, slash));
    from = slash + 1;
  }
}

function clampSpan(span: Span, length: number): Span {
  const start = Math.min(Math.max(0, span.start), length);
  const end = Math.min(Math.max(start, span.end), length);
  return { start, end };
}

/** Reads an array index token of a JSON Pointer; undefined when it is not one (RFC 6901). */
export function arrayIndexOf(token: string): number | undefined {
  return /^(?:0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

// ---------------------------------------------------------------- .wf

export type EdgeOrigin =
  | { type: "chain"; statement: ChainStatement; from: NameSyntax; to: NameSyntax; arrow: Span }
  | { type: "raw"; statement: EdgeStatement };

export interface WfOrigins {
  mode: "graph" | "version" | "document";
  /** Where faults about the whole document go: the workflow name, else the first statement. */
  rootSpan: Span;
  workflow?: WorkflowStatement | undefined;
  version?: VersionStatement | undefined;
  document?: DocumentStatement | undefined;
  /** The statement that produced each node, by index. */
  nodes: NodeDeclaration[];
  /**
   * The statements that produced edges, in order, and the index of the first edge of each:
   * one entry per statement rather than a record per edge (a chain `a -> b, c -> d` makes
   * four edges, and a large file hundreds of thousands). `edgeOrigin` expands them.
   */
  edgeStatements: (ChainStatement | EdgeStatement)[];
  edgeStarts: number[];
  /** How many edges the graph has. */
  edgeCount: number;
  subjects: Map<string, SubjectStatement>;
}

/** A place in the text for one value of the output, and how to find its children's. */
interface Place {
  span: Span;
  keySpan?: Span;
  child?: (token: string) => Place | undefined;
}

export class WfSourceMap extends LazySourceMap {
  constructor(
    text: string,
    readonly origins: WfOrigins,
    /** The line index of `text`, when the compiler has one already. */
    lines?: LineIndex,
  ) {
    super(text, lines);
  }

  protected resolve(tokens: readonly string[], _part: PointerPart): PointerResolution {
    let place = this.root();
    let depth = 0;
    for (const token of tokens) {
      const next = place.child?.(token);
      if (!next) break;
      place = next;
      depth++;
    }
    return { span: place.span, keySpan: place.keySpan, depth };
  }

  /** The statement that produced node `index` (for tools: hover, go to definition). */
  nodeOrigin(index: number): NodeDeclaration | undefined {
    return this.origins.nodes[index];
  }

  /** The statement (and, for a chain, the link) that produced edge `index`. */
  edgeOrigin(index: number): EdgeOrigin | undefined {
    const { edgeStatements, edgeStarts, edgeCount } = this.origins;
    if (!Number.isInteger(index) || index < 0 || index >= edgeCount) return undefined;
    // The last statement whose first edge is at or before `index` (the first starts at 0).
    const low = partitionPoint(edgeStarts.length, (i) => edgeStarts[i]! <= index) - 1;
    const statement = edgeStatements[low]!;
    const ordinal = index - edgeStarts[low]!;
    if (statement.type === "edge") return ordinal === 0 ? { type: "raw", statement } : undefined;
    return chainEdge(statement, ordinal);
  }

  private root(): Place {
    const { origins } = this;
    if (origins.mode === "document") {
      const value = origins.document?.value;
      return value ? literalPlace(value) : { span: origins.rootSpan };
    }
    const graph = this.graphPlace();
    if (origins.mode === "graph") return graph;
    const contents = readBlock(origins.version?.block, "version");
    const { trigger, destinations } = contents;
    const versionSpan = origins.version ? keywordOf(origins.version) : origins.rootSpan;
    // The body's typed fields, then the fields of its `with`, as in the objects of the tables.
    const typed = (token: string): Place | undefined => {
      if (token === "scope") return fieldsPlace(versionSpan, (field) => (field === "graph" ? graph : undefined), contents.scope?.with);
      if (token === "trigger") return trigger?.spec && objectPlace(TRIGGER_SPEC_TABLE, trigger.spec, undefined, origins.subjects);
      if (token !== "destinations" || !destinations.length) return undefined;
      return {
        span: keywordOf(destinations[0]!),
        child: (index) => {
          const property = at(destinations, index);
          if (!property) return undefined;
          return property.spec ? objectPlace(DESTINATION_SPEC_TABLE, property.spec, undefined, origins.subjects) : { span: keywordOf(property) };
        },
      };
    };
    return fieldsPlace(origins.rootSpan, typed, contents.with);
  }

  private graphPlace(): Place {
    const { origins } = this;
    return {
      span: origins.rootSpan,
      child: (token) => {
        switch (token) {
          case "schemaVersion":
            return undefined;
          case "nodes":
            return { span: origins.rootSpan, child: (index) => nodePlace(at(origins.nodes, index), origins.subjects) };
          case "edges":
            return {
              span: origins.rootSpan,
              child: (token) => {
                const index = arrayIndexOf(token);
                return index === undefined ? undefined : edgePlace(this.edgeOrigin(index));
              },
            };
          default:
            return memberPlace(origins.workflow?.with?.value, token);
        }
      },
    };
  }
}

/**
 * Edge `ordinal` of a chain, counted as the compiler makes them: link by link, each name
 * before the arrow to each name after it. The link is found by binary search on the edges
 * before each link (counted once per chain): a fault on every link of a one-line chain of
 * thousands of links would otherwise walk the chain once per fault.
 */
function chainEdge(statement: ChainStatement, ordinal: number): EdgeOrigin | undefined {
  const before = edgesBeforeLink(statement);
  const link = partitionPoint(statement.arrows.length, (i) => before[i + 1]! <= ordinal);
  if (link >= statement.arrows.length) return undefined;
  const rest = ordinal - before[link]!;
  const targets = statement.groups[link + 1] ?? [];
  const from = statement.groups[link]![Math.floor(rest / targets.length)]!;
  const to = targets[rest % targets.length]!;
  return { type: "chain", statement, from, to, arrow: arrowSpan(statement.arrows[link]!) };
}

/** For each link of a chain, how many edges the links before it make (and, last, the total). */
export function edgesBeforeLink(statement: ChainStatement): number[] {
  let before = edgeCountsMemo.get(statement);
  if (before) return before;
  before = [0];
  for (let link = 0; link < statement.arrows.length; link++) {
    const count = (statement.groups[link]?.length ?? 0) * (statement.groups[link + 1]?.length ?? 0);
    before.push(before[link]! + count);
  }
  edgeCountsMemo.set(statement, before);
  return before;
}

const edgeCountsMemo = new WeakMap<ChainStatement, number[]>();

function at<T>(items: readonly T[], token: string): T | undefined {
  const index = arrayIndexOf(token);
  return index === undefined ? undefined : items[index];
}

/** A place whose children are its typed fields, then the fields of its `with` block. */
function fieldsPlace(span: Span, typed: (field: string) => Place | undefined, clause: WithClause | undefined, keySpan?: Span): Place {
  return { span, keySpan, child: (field) => typed(field) ?? memberPlace(clause?.value, field) };
}

/** The place of member `key` of an object literal (a member without a value is its key). */
function memberPlace(object: JsonLiteral | undefined, key: string): Place | undefined {
  const member = memberOf(object, key);
  if (!member) return undefined;
  return member.value ? literalPlace(member.value, spanOf(member.key)) : { span: spanOf(member.key), keySpan: spanOf(member.key) };
}

function literalPlace(literal: JsonLiteral, keySpan?: Span): Place {
  return {
    span: spanOf(literal),
    keySpan,
    child: (token) => {
      if (literal.type === "object") return memberPlace(literal, token);
      if (literal.type === "array") {
        const element = at(literal.elements, token);
        return element ? literalPlace(element) : undefined;
      }
      return undefined;
    },
  };
}

function nodePlace(statement: NodeDeclaration | undefined, subjects: Map<string, SubjectStatement>): Place | undefined {
  if (!statement) return undefined;
  if (statement.type !== "node") return objectPlace(NODE_TABLES[statement.type], statement, undefined, subjects);
  if (!statement.value) return undefined;
  const place = literalPlace(statement.value);
  // A node is found by its id, even when written as JSON.
  const id = stringMemberOf(statement.value, "id");
  return id ? { ...place, span: spanOf(id) } : place;
}

/**
 * The place of an object a field table describes, and of its fields (see fields.ts): where
 * the table says the object is, unless `span` says (a subject is placed at its reference).
 */
function objectPlace(table: FieldTable, element: Syntax, span: Span | undefined, subjects: Map<string, SubjectStatement>, keySpan?: Span): Place {
  const contents = table.block ? readBlock(blockOf(table, element), table.block.kind) : undefined;
  const placedAt = table.placedAt;
  const typed = (token: string): Place | undefined => {
    const field = fieldNamed(table, token);
    if (!field) return undefined;
    if (field.form === "type") return { span: keywordSpan(element, (element as Syntax & { type: string }).type) };
    const holder = holderOf(field, element, contents);
    const syntax = (field.heldValue ? holder?.["value"] : holder) as Syntax | undefined;
    if (!holder || !syntax) return undefined;
    const holderKey = field.property ? keywordSpan(holder, field.property) : field.keyword ? keywordSpan(holder, field.keyword) : undefined;
    switch (field.form) {
      case "name":
      case "string":
        return { span: spanOf(syntax), keySpan: holderKey };
      case "version":
        return { span: valueSpanOf(syntax as unknown as VersionSyntax) };
      case "literal":
        return literalPlace(syntax as unknown as JsonLiteral, holderKey);
      case "subjects": {
        const list = syntax as unknown as SubjectsProperty;
        return { span: spanOf(list), keySpan: holderKey, child: (index) => subjectRefPlace(at(list.items, index), subjects) };
      }
      default:
        return objectPlace(field.form, syntax, undefined, subjects, holderKey);
    }
  };
  if (placedAt === "open") span ??= { start: (element as Block).open, end: (element as Block).open + 1 };
  else span ??= (placedAt === undefined ? undefined : typed(placedAt)?.span) ?? spanOf(element);
  return fieldsPlace(span, typed, withOf(table, element, contents), keySpan);
}

/** A subject reference is its name in the list; its fields are their words in the declaration. */
function subjectRefPlace(item: NameSyntax | undefined, subjects: Map<string, SubjectStatement>): Place | undefined {
  if (!item) return undefined;
  const body = subjects.get(item.text)?.body;
  if (!body) return { span: spanOf(item) };
  if (body.type === "raw") return { ...literalPlace(body.value), span: spanOf(item) };
  return objectPlace(SUBJECT_TABLE, body, spanOf(item), subjects);
}

function edgePlace(origin: EdgeOrigin | undefined): Place | undefined {
  if (!origin) return undefined;
  if (origin.type === "raw") return origin.statement.value ? literalPlace(origin.statement.value) : undefined;
  const { from, to, arrow, statement } = origin;
  return fieldsPlace({ start: arrow.start, end: to.end }, (token) => (token === "from" ? { span: spanOf(from) } : token === "to" ? { span: spanOf(to) } : undefined), statement.with);
}
