/**
 * Pointers of a compiled `.wf` file, resolved on its syntax tree.
 *
 * The compiler records, for each node and edge of the output, the statement that produced it
 * (`WfOrigins`); a pointer is then walked down "places": each place knows its span in the
 * text and how to find the place of a child field. Where fields are written tells where
 * faults go: a node is its name, `partId` the part word, an edge the arrow and its target,
 * a `with` field its key or value, a subject's field its word in the `subject` declaration.
 */
import {
  arrowSpan,
  type ChainStatement,
  type DocumentStatement,
  type EdgeStatement,
  type JsonLiteral,
  keywordOf,
  keywordSpan,
  type KindSpec,
  type NameSyntax,
  type NodeDeclaration,
  type SubjectStatement,
  valueSpanOf,
  type VersionStatement,
  type WithClause,
  type WorkflowStatement,
} from "./ast.js";
import { readBlock, type BlockKind } from "./syntax-table.js";
import { memberOf, stringMemberOf } from "./json-convert.js";
import { type LineIndex, partitionPoint, type Span, spanOf } from "./positions.js";
import { arrayIndexOf, LazySourceMap, type PointerPart, type PointerResolution } from "./source-map.js";

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
    const versionSpan = origins.version ? keywordOf(origins.version) : origins.rootSpan;
    return {
      span: origins.rootSpan,
      child: (token) => {
        switch (token) {
          case "scope":
            return {
              span: versionSpan,
              child: (field) => (field === "graph" ? graph : withMember(contents.scope?.with, field)),
            };
          case "trigger":
            return contents.trigger?.spec ? kindSpecPlace(contents.trigger.spec, "trigger") : withMember(contents.with, token);
          case "destinations":
            if (!contents.destinations.length) return withMember(contents.with, token);
            return {
              span: keywordOf(contents.destinations[0]!),
              child: (index) => {
                const property = at(contents.destinations, index);
                if (!property) return undefined;
                return property.spec ? kindSpecPlace(property.spec, "destination") : { span: keywordOf(property) };
              },
            };
          default:
            return withMember(contents.with, token);
        }
      },
    };
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
            return withMember(origins.workflow?.with, token);
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
function edgesBeforeLink(statement: ChainStatement): number[] {
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
  return { span, keySpan, child: (field) => typed(field) ?? withMember(clause, field) };
}

function withMember(clause: WithClause | undefined, field: string): Place | undefined {
  const member = memberOf(clause?.value, field);
  if (!member) return undefined;
  return member.value ? literalPlace(member.value, spanOf(member.key)) : { span: spanOf(member.key), keySpan: spanOf(member.key) };
}

function literalPlace(literal: JsonLiteral, keySpan?: Span): Place {
  return {
    span: spanOf(literal),
    keySpan,
    child: (token) => {
      if (literal.type === "object") {
        const member = memberOf(literal, token);
        if (!member) return undefined;
        return member.value ? literalPlace(member.value, spanOf(member.key)) : { span: spanOf(member.key), keySpan: spanOf(member.key) };
      }
      if (literal.type === "array") {
        const element = at(literal.elements, token);
        return element ? literalPlace(element) : undefined;
      }
      return undefined;
    },
  };
}

function namePlace(name: NameSyntax | undefined): Place | undefined {
  return name ? { span: spanOf(name) } : undefined;
}

function nodePlace(statement: NodeDeclaration | undefined, subjects: Map<string, SubjectStatement>): Place | undefined {
  if (!statement) return undefined;
  if (statement.type === "node") {
    if (!statement.value) return undefined;
    const place = literalPlace(statement.value);
    // A node is found by its id, even when written as JSON.
    const id = stringMemberOf(statement.value, "id");
    return id ? { ...place, span: spanOf(id) } : place;
  }
  const nameSpan = (statement.name && spanOf(statement.name)) ?? keywordOf(statement);
  const id = namePlace(statement.name);
  switch (statement.type) {
    case "trigger":
    case "destination": {
      const spec = statement.spec;
      const field = statement.type;
      return fieldsPlace(
        nameSpan,
        (token) => (token === "id" ? id : token === "kind" ? { span: keywordOf(statement) } : token === field && spec ? kindSpecPlace(spec, field) : undefined),
        statement.with,
      );
    }
    case "gate":
      return fieldsPlace(
        nameSpan,
        (token) => (token === "id" ? id : token === "kind" ? { span: keywordOf(statement) } : token === "belowFloor" ? namePlace(statement.belowFloor) : undefined),
        statement.with,
      );
    case "part": {
      const block = statement.block;
      return fieldsPlace(
        nameSpan,
        (token) => {
          switch (token) {
            case "id":
              return id;
            case "partId":
              return namePlace(statement.partId);
            case "partVersion":
              return statement.version ? { span: valueSpanOf(statement.version) } : undefined;
            case "terminal":
              return block ? terminalPlace(block, subjects) : undefined;
            default:
              return undefined;
          }
        },
        statement.with,
      );
    }
  }
}

function kindSpecPlace(spec: KindSpec, kind: BlockKind): Place {
  const contents = readBlock(spec.block, kind);
  return fieldsPlace(
    spanOf(spec.kind),
    (token) => {
      if (token === "kind") return { span: spanOf(spec.kind) };
      if (token === "schedule" && contents.schedule?.value) return { span: spanOf(contents.schedule.value), keySpan: keywordOf(contents.schedule) };
      if (token === "timezone" && contents.timezone?.value) return { span: spanOf(contents.timezone.value), keySpan: keywordOf(contents.timezone) };
      return undefined;
    },
    contents.with,
  );
}

function terminalPlace(block: NonNullable<import("./ast.js").PartStatement["block"]>, subjects: Map<string, SubjectStatement>): Place {
  const contents = readBlock(block, "part");
  return fieldsPlace(
    { start: block.open, end: block.open + 1 },
    (token) => {
      if (token === "job" && contents.job) {
        const job = contents.job;
        return fieldsPlace(
          spanOf(job),
          (field) => (field === "id" ? namePlace(job.id) : field === "version" && job.version ? { span: valueSpanOf(job.version) } : undefined),
          job.with,
          keywordOf(job),
        );
      }
      if (token === "subjectRefs" && contents.subjects) {
        const list = contents.subjects;
        return {
          span: spanOf(list),
          keySpan: keywordOf(list),
          child: (index) => {
            const item = at(list.items, index);
            return item ? subjectRefPlace(item, subjects.get(item.text)) : undefined;
          },
        };
      }
      return undefined;
    },
    contents.with,
  );
}

/** A subject reference is its name in the list; its fields are their words in the declaration. */
function subjectRefPlace(item: NameSyntax, declaration: SubjectStatement | undefined): Place {
  const body = declaration?.body;
  if (!body) return { span: spanOf(item) };
  if (body.type === "raw") return { ...literalPlace(body.value), span: spanOf(item) };
  return fieldsPlace(
    spanOf(item),
    (field) => {
      switch (field) {
        case "canonicalId":
          return namePlace(body.canonicalId);
        case "kind":
          return namePlace(body.kind);
        case "label":
          return namePlace(body.label);
        case "identifiers":
          return body.identifiers?.value ? literalPlace(body.identifiers.value, keywordSpan(body.identifiers, "identifiers")) : undefined;
        default:
          return undefined;
      }
    },
    body.with,
  );
}

function edgePlace(origin: EdgeOrigin | undefined): Place | undefined {
  if (!origin) return undefined;
  if (origin.type === "raw") return origin.statement.value ? literalPlace(origin.statement.value) : undefined;
  const { from, to, arrow, statement } = origin;
  return fieldsPlace({ start: arrow.start, end: to.end }, (token) => (token === "from" ? { span: spanOf(from) } : token === "to" ? { span: spanOf(to) } : undefined), statement.with);
}
