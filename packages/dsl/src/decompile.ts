/**
 * The decompiler: any JSON value to `.wf` text such that compiling the text gives back a
 * value deep-equal to the input (object key order aside, which JSON does not give meaning).
 *
 * It uses the typed statements wherever they say exactly what the JSON holds, and falls back
 * step by step where they cannot: a field wfkit does not know, or a known field of an
 * unexpected type, goes into a `with { ... }` block; a node or edge no typed statement can
 * say is written as JSON (`node {...}`, `edge {...}`); a value that is not a workflow
 * document at all is kept whole (`document ...`). The output is in canonical layout (the
 * formatter's), so `format(decompile(x))` changes nothing.
 */
import type {
  Block,
  BlockProperty,
  ChainStatement,
  JsonLiteral,
  KindSpec,
  NameSyntax,
  Statement,
  SubjectStatement,
  TypedSubject,
  VersionSyntax,
  WfFile,
  WithClause,
} from "./ast.js";
import { DESTINATION_SPEC_TABLE, type Field, type FieldTable, NODE_TABLES, SUBJECT_TABLE, TRIGGER_SPEC_TABLE } from "./fields.js";
import { hasOwn, numberToJson, setOwnField } from "./json-value.js";
import type { Span } from "./positions.js";
import { printFile } from "./printer.js";
import { isPlainObject, ownField } from "@wfkit/core";

const NO_SPAN: Span = { start: 0, end: 0 };

export interface DecompileOptions {
  /** Written as `workflow "name"` (the name is metadata: it is not part of the JSON). */
  workflowName?: string;
}

/**
 * `.wf` text for any JSON value. Values that are not JSON (undefined, NaN, functions) are
 * first read the way JSON.stringify would write them (a top-level `undefined` as `null`).
 */
export function decompile(value: unknown, options: DecompileOptions = {}): string {
  return new Decompiler(toJsonValue(value), options).run();
}

type JsonObject = Record<string, unknown>;

/** The fields of `object` other than `known`, as a `with` clause (undefined when there are none). */
function extrasOf(object: JsonObject, known: readonly string[]): JsonObject | undefined {
  let extras: JsonObject | undefined;
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    extras ??= {};
    setOwnField(extras, key, object[key]);
  }
  return extras;
}

function name(text: string): NameSyntax {
  return { text, quoted: false, ...NO_SPAN };
}

function version(text: string): VersionSyntax {
  return { text, quoted: false, ...NO_SPAN, valueStart: 0 };
}

function withClause(extras: JsonObject | undefined): WithClause | undefined {
  return extras ? { value: literalOf(extras), ...NO_SPAN } : undefined;
}

function block(properties: BlockProperty[]): Block {
  return { open: 0, close: 0, properties, ...NO_SPAN };
}

/** The statements a Definition's nodes and edges become, with the sections they fall in. */
type Section = "header" | "subjects" | "nodes" | "edges";

class Decompiler {
  private readonly statements: Statement[] = [];
  private readonly sections: Section[] = [];
  private readonly subjectNames = new Map<string, string>();
  private readonly usedSubjectNames = new Set<string>();
  private readonly subjectStatements: SubjectStatement[] = [];
  /** Names typed node statements declare (a second one would be a duplicate-name fault). */
  private readonly typedNodeNames = new Set<string>();
  /** Every name an edge may use: typed names and the string ids of JSON nodes. */
  private readonly declaredNames = new Set<string>();

  constructor(
    private readonly value: unknown,
    private readonly options: DecompileOptions,
  ) {}

  run(): string {
    const value = this.value;
    if (isDefinition(value)) {
      this.header(value, undefined);
      this.graph(value);
    } else if (isBody(value)) {
      const graph = (value["scope"] as JsonObject)["graph"] as JsonObject;
      this.header(graph, value);
      this.graph(graph);
    } else {
      this.add({ type: "document", value: literalOf(value), ...NO_SPAN }, "header");
    }
    const file: WfFile = { type: "file", statements: this.statements, comments: [], ...NO_SPAN };
    return printFile(file, { blankLineBefore: (index) => index > 0 && this.sections[index] !== this.sections[index - 1] });
  }

  private add(statement: Statement, section: Section): void {
    this.statements.push(statement);
    this.sections.push(section);
  }

  private header(graph: JsonObject, body: JsonObject | undefined): void {
    const extras = extrasOf(graph, ["schemaVersion", "nodes", "edges"]);
    if (this.options.workflowName !== undefined || extras) {
      const workflowName = this.options.workflowName === undefined ? undefined : { ...name(this.options.workflowName), quoted: true };
      this.add({ type: "workflow", name: workflowName, with: withClause(extras), ...NO_SPAN }, "header");
    }
    if (body) this.add({ type: "version", block: this.versionBlock(body), ...NO_SPAN }, "header");
  }

  private versionBlock(body: JsonObject): Block {
    const properties: BlockProperty[] = [];
    const rest: JsonObject = {};
    const keep = (key: string): void => setOwnField(rest, key, body[key]);
    if (hasOwn(body, "trigger")) {
      const spec = this.typed<KindSpec>(TRIGGER_SPEC_TABLE, body["trigger"]);
      if (spec) properties.push({ type: "trigger", spec, ...NO_SPAN });
      else keep("trigger");
    }
    const destinations = ownField(body, "destinations");
    if (hasOwn(body, "destinations")) {
      const specs = Array.isArray(destinations) && destinations.length > 0 ? destinations.map((entry) => this.typed<KindSpec>(DESTINATION_SPEC_TABLE, entry)) : undefined;
      if (specs && specs.every((spec) => spec !== undefined)) {
        for (const spec of specs) properties.push({ type: "destination", spec, ...NO_SPAN });
      } else {
        keep("destinations");
      }
    }
    const scopeExtras = extrasOf(body["scope"] as JsonObject, ["graph"]);
    if (scopeExtras) properties.push({ type: "scope", with: withClause(scopeExtras), ...NO_SPAN });
    for (const key of Object.keys(body)) if (!["scope", "trigger", "destinations"].includes(key)) keep(key);
    if (Object.keys(rest).length) properties.push({ type: "with", clause: withClause(rest)!, ...NO_SPAN });
    return block(properties);
  }

  private graph(graph: JsonObject): void {
    const nodes = graph["nodes"] as unknown[];
    const edges = graph["edges"] as unknown[];
    const nodeStatements = nodes.map((node) => this.node(node));
    for (const statement of this.subjectStatements) this.add(statement, "subjects");
    for (const statement of nodeStatements) this.add(statement, "nodes");
    for (const statement of this.edges(edges)) this.add(statement, "edges");
  }

  // ---------------------------------------------------------------- nodes

  private node(node: unknown): Statement {
    const typed = isPlainObject(node) ? this.typedNode(node) : undefined;
    if (typed) {
      const id = (node as JsonObject)["id"] as string;
      this.typedNodeNames.add(id);
      this.declaredNames.add(id);
      return typed;
    }
    if (isPlainObject(node) && typeof ownField(node, "id") === "string") this.declaredNames.add(node["id"] as string);
    return { type: "node", value: literalOf(node), ...NO_SPAN };
  }

  /** The typed statement for a node, or undefined when only JSON can say it exactly. */
  private typedNode(node: JsonObject): Statement | undefined {
    const id = ownField(node, "id");
    if (typeof id !== "string" || this.typedNodeNames.has(id)) return undefined;
    const kind = ownField(node, "kind");
    // A part may carry no kind; `kind: "part"` is kept in its `with`.
    const type = kind === undefined ? "part" : kind;
    if (type !== "trigger" && type !== "destination" && type !== "gate" && type !== "part") return undefined;
    return this.typed<Statement>(NODE_TABLES[type], node, { type });
  }

  /**
   * The syntax that writes `value` by a field table (see fields.ts): each field that has the
   * type its syntax writes, and a `with` for every other field; undefined when a field the
   * statement needs does not fit (then JSON says the value).
   */
  private typed<T = Record<string, unknown>>(table: FieldTable, value: unknown, element: Record<string, unknown> = {}): T | undefined {
    if (!isPlainObject(value)) return undefined;
    const written: string[] = [];
    const properties: BlockProperty[] = [];
    for (const field of table.fields) {
      // The element's keyword writes its `kind`: the caller chose the element by it.
      if (field.form === "type") {
        written.push(field.json);
        continue;
      }
      const syntax = hasOwn(value, field.json) && (field.after === undefined || written.includes(field.after)) ? this.syntaxFor(field, value[field.json]) : undefined;
      if (syntax === undefined) {
        if (field.required) return undefined;
        continue;
      }
      written.push(field.json);
      const holder = field.heldValue ? { value: syntax, ...NO_SPAN } : syntax;
      if (field.key !== undefined) element[field.key] = holder;
      else properties.push({ type: field.property, ...holder } as BlockProperty);
    }
    const clause = withClause(extrasOf(value, written));
    if (!table.block) element["with"] = clause;
    else if (clause) properties.push({ type: "with", clause, ...NO_SPAN });
    if (table.block?.key !== undefined) element[table.block.key] = properties.length ? block(properties) : undefined;
    else if (table.block) Object.assign(element, block(properties));
    return Object.assign(element, NO_SPAN) as T;
  }

  /** The syntax of a field's value, or undefined when it is not of the type the syntax writes. */
  private syntaxFor(field: Field, value: unknown): Record<string, unknown> | undefined {
    switch (field.form) {
      case "name":
      case "string":
        return typeof value === "string" ? { ...name(value), quoted: field.form === "string" } : undefined;
      case "version":
        return typeof value === "string" ? { ...version(value) } : undefined;
      case "literal":
        return literalOf(value) as unknown as Record<string, unknown>;
      case "subjects":
        return Array.isArray(value) && value.every(isPlainObject) ? { open: 0, close: 0, items: value.map((ref) => name(this.subjectName(ref))), ...NO_SPAN } : undefined;
      case "type":
        return undefined;
      default:
        return this.typed(field.form, value);
    }
  }

  /** The name of the subject declaration for `subject`, declared on first use. */
  private subjectName(subject: JsonObject): string {
    const key = stableKey(subject);
    const existing = this.subjectNames.get(key);
    if (existing) return existing;
    const chosen = this.freshSubjectName(subject);
    this.subjectNames.set(key, chosen);
    const body = this.typed<TypedSubject>(SUBJECT_TABLE, subject, { type: "typed" }) ?? { type: "raw", value: literalOf(subject), ...NO_SPAN };
    this.subjectStatements.push({ type: "subject", name: name(chosen), body, ...NO_SPAN });
    return chosen;
  }

  /** A readable, unused name: from the label or canonical id (`Tesco PLC` → `tesco_plc`). */
  private freshSubjectName(subject: JsonObject): string {
    const label = ownField(subject, "label");
    const canonicalId = ownField(subject, "canonicalId");
    const source = typeof label === "string" && label.trim() ? label : typeof canonicalId === "string" ? canonicalId : "subject";
    let stem = source
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "");
    if (!/^[a-z_]/.test(stem)) stem = `s_${stem}`.replace(/_+$/, "");
    if (stem === "with" || stem === "s") stem = "subject";
    let candidate = stem;
    for (let n = 2; this.usedSubjectNames.has(candidate); n++) candidate = `${stem}_${n}`;
    this.usedSubjectNames.add(candidate);
    return candidate;
  }

  // ---------------------------------------------------------------- edges

  /**
   * Edges become chains where consecutive edges allow it (`a -> b -> c`, `a -> b, c`,
   * `a, b -> c`), reproducing their exact order; an edge with extra fields stands alone with
   * its `with`; an edge that is not `{from, to}` between declared names is written as JSON.
   */
  private edges(edges: unknown[]): Statement[] {
    const statements: Statement[] = [];
    const plain = edges.map((edge) => this.plainEdge(edge));
    let i = 0;
    while (i < edges.length) {
      const first = plain[i];
      if (!first) {
        const edge = edges[i];
        if (isPlainObject(edge) && this.isTypedEdge(edge)) {
          statements.push(chain([[edge["from"] as string], [edge["to"] as string]], withClause(extrasOf(edge, ["from", "to"]))));
        } else {
          statements.push({ type: "edge", value: literalOf(edge), ...NO_SPAN });
        }
        i++;
        continue;
      }
      // The first link: a fan-out from one node, else a fan-in to one node.
      const sources = [first.from];
      const targets = [first.to];
      let j = i + 1;
      while (j < edges.length && plain[j]?.from === first.from) targets.push(plain[j++]!.to);
      if (targets.length === 1) while (j < edges.length && plain[j]?.to === first.to) sources.push(plain[j++]!.from);
      const groups = [sources, targets];
      // Further links: the next edges join every node of the last group to each of a new group, row by row.
      for (;;) {
        const last = groups[groups.length - 1]!;
        const next = plain[j];
        if (!next || next.from !== last[0]) break;
        const group: string[] = [];
        let k = j;
        while (k < edges.length && plain[k]?.from === last[0]) group.push(plain[k++]!.to);
        let matches = true;
        for (let row = 1; row < last.length && matches; row++) {
          for (let column = 0; column < group.length && matches; column++) {
            const edge = plain[k + (row - 1) * group.length + column];
            matches = edge !== undefined && edge.from === last[row] && edge.to === group[column];
          }
        }
        if (!matches) break;
        groups.push(group);
        j = k + (last.length - 1) * group.length;
      }
      statements.push(chain(groups, undefined));
      i = j;
    }
    return statements;
  }

  /** `{from, to}` with exactly those fields, naming declared nodes: fit for a chain. */
  private plainEdge(edge: unknown): { from: string; to: string } | undefined {
    if (!isPlainObject(edge) || !this.isTypedEdge(edge) || Object.keys(edge).length !== 2) return undefined;
    return { from: edge["from"] as string, to: edge["to"] as string };
  }

  private isTypedEdge(edge: JsonObject): boolean {
    const from = ownField(edge, "from");
    const to = ownField(edge, "to");
    return typeof from === "string" && typeof to === "string" && this.declaredNames.has(from) && this.declaredNames.has(to);
  }
}

function chain(groups: string[][], clause: WithClause | undefined): ChainStatement {
  return { type: "chain", groups: groups.map((group) => group.map(name)), arrows: groups.slice(1).map(() => 0), with: clause, ...NO_SPAN };
}

function isDefinition(value: unknown): value is JsonObject {
  return isPlainObject(value) && ownField(value, "schemaVersion") === 1 && Array.isArray(ownField(value, "nodes")) && Array.isArray(ownField(value, "edges"));
}

/** A version-save body whose graph is a Definition (the form the `version` block writes). */
function isBody(value: unknown): value is JsonObject {
  if (!isPlainObject(value) || hasOwn(value, "nodes") || hasOwn(value, "schemaVersion")) return false;
  const scope = ownField(value, "scope");
  return isPlainObject(scope) && isDefinition(ownField(scope, "graph"));
}

/** A key equal for deep-equal subjects whatever their key order (so they share a declaration). */
function stableKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableKey).join(",")}]`;
  if (isPlainObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableKey(value[key])}`)
      .join(",")}}`;
  return typeof value === "number" ? numberToJson(value) : JSON.stringify(value);
}

/** A JSON literal tree for a value, built with an explicit stack (any nesting depth). */
export function literalOf(value: unknown): JsonLiteral {
  const make = (item: unknown): JsonLiteral => {
    if (Array.isArray(item)) return { type: "array", elements: [], ...NO_SPAN };
    if (isPlainObject(item)) return { type: "object", members: [], ...NO_SPAN };
    if (typeof item === "string") return { type: "string", value: item, raw: JSON.stringify(item), ...NO_SPAN };
    if (typeof item === "number") return { type: "number", value: item, raw: numberToJson(item), ...NO_SPAN };
    if (typeof item === "boolean") return { type: "boolean", value: item, raw: String(item), ...NO_SPAN };
    return { type: "null", value: null, raw: "null", ...NO_SPAN };
  };
  const root = make(value);
  const stack: { value: unknown; literal: JsonLiteral }[] = [{ value, literal: root }];
  while (stack.length) {
    const { value: current, literal } = stack.pop()!;
    if (literal.type === "array") {
      for (const element of current as unknown[]) {
        const child = make(element);
        literal.elements.push(child);
        stack.push({ value: element, literal: child });
      }
    } else if (literal.type === "object") {
      for (const key of Object.keys(current as JsonObject)) {
        const memberValue = (current as JsonObject)[key];
        const child = make(memberValue);
        literal.members.push({ key: { text: key, quoted: true, ...NO_SPAN }, value: child, ...NO_SPAN });
        stack.push({ value: memberValue, literal: child });
      }
    }
  }
  return root;
}

/**
 * The value JSON.stringify then JSON.parse would give, without the round trip's losses:
 * `-0` and `__proto__` fields are kept. Values that are JSON already come back unchanged.
 */
function toJsonValue(value: unknown): unknown {
  if (isPlainJson(value)) return value;
  // The objects being normalised, outermost first: meeting one again is a cycle, which JSON
  // cannot hold (JSON.stringify throws the same TypeError).
  const open = new Set<object>();
  const normalise = (item: unknown, inArray: boolean): unknown => {
    if (item !== null && typeof item === "object" && typeof (item as { toJSON?: unknown }).toJSON === "function") item = (item as { toJSON(): unknown }).toJSON();
    if (typeof item === "number") return Number.isFinite(item) ? item : null;
    if (typeof item === "string" || typeof item === "boolean" || item === null) return item;
    if (typeof item === "object") {
      if (open.has(item)) throw new TypeError("cannot decompile a cyclic value: JSON has no cycles");
      open.add(item);
      try {
        if (Array.isArray(item)) return item.map((element) => normalise(element, true));
        const out: JsonObject = {};
        for (const key of Object.keys(item)) {
          const field = normalise((item as JsonObject)[key], false);
          if (field !== undefined) setOwnField(out, key, field);
        }
        return out;
      } finally {
        open.delete(item);
      }
    }
    // undefined, functions, symbols: dropped from objects, null in arrays (as JSON.stringify).
    return inArray ? null : undefined;
  };
  return normalise(value, false) ?? null;
}

/** True when a value holds only JSON values (checked with an explicit stack). */
function isPlainJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  // An object met twice (shared, or on a cycle) is left to toJsonValue's normalising copy:
  // without this a cycle would keep this loop going for ever.
  const seen = new Set<object>();
  while (stack.length) {
    const item = stack.pop();
    if (item === null || typeof item === "string" || typeof item === "boolean") continue;
    if (typeof item === "number") {
      if (!Number.isFinite(item)) return false;
      continue;
    }
    if (typeof item === "object" && item !== null) {
      if (seen.has(item)) return false;
      seen.add(item);
    }
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        if (!(i in item)) return false;
        stack.push(item[i]);
      }
      continue;
    }
    if (typeof item === "object" && (Object.getPrototypeOf(item) === Object.prototype || Object.getPrototypeOf(item) === null)) {
      for (const key of Object.keys(item)) stack.push((item as JsonObject)[key]);
      continue;
    }
    return false;
  }
  return true;
}
