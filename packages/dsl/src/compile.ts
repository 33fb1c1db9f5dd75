/**
 * The compiler: a `.wf` tree to the Definition JSON (or version-save body) it stands for,
 * with a source map, and the faults of the language itself (undeclared names, names
 * declared twice, fields written twice).
 *
 * Fields are written in one canonical order per object (the typed fields of the statement,
 * then its `with` fields in the order written), so compiling is deterministic; JSON object
 * key order carries no meaning and is not preserved from a decompiled document.
 *
 * Compiling is meant to cost a small fraction of JSON.parse of the same definition: it
 * allocates little beyond the output (faults, pointers and the source map's tables are made
 * only when a fault needs them, or stored as flat arrays), and a `CompileCache` lets the
 * language server recompile only the statements an edit touched.
 */
import { DSL_CODES, joinPointer, Suggester, type DslCode } from "@wfkit/core";
import type {
  Block,
  ChainStatement,
  DocumentStatement,
  EdgeStatement,
  JsonLiteral,
  NameSyntax,
  NodeDeclaration,
  Statement,
  SubjectStatement,
  SubjectsProperty,
  VersionStatement,
  WfFile,
  WithClause,
  WorkflowStatement,
} from "./ast.js";
import { isNodeDeclaration, keywordOf, keywordSpan } from "./ast.js";
import { BLOCKS, printName, readBlock, wordList, type BlockContents, type BlockKind, type BlockProblem } from "./syntax-table.js";
import type { FieldWriter } from "./fields.js";
import { writeDestinationNode, writeDestinationSpec, writeGateNode, writePartNode, writeSubject, writeTriggerNode, writeTriggerSpec } from "./generated/from-tables.js";
import { sourceFault, type SourceFault, type SourceFaultExtra, type SourceRelated } from "./diagnostics.js";
import { hasOwn, literalValue, type LiteralProblem, memberOf, setOwnField, stringMemberOf } from "./json-value.js";
import { parse } from "./chunks.js";
import { LineIndex, type Span, spanOf } from "./positions.js";
import { edgesBeforeLink, WfSourceMap, type WfOrigins } from "./source-map.js";

export interface CompiledAst {
  /** The Definition, version-save body, or (for `document`) any JSON value the file stands for. */
  definition: unknown;
  sourceMap: WfSourceMap;
  /** Faults of the language (not syntax errors, which `parse` reports). */
  faults: SourceFault[];
  /** The `workflow "name"` of the file: metadata for tools, never written into the JSON. */
  workflowName: string | undefined;
}

export interface CompileResult extends CompiledAst {
  /** Syntax errors and faults of the language, in text order. */
  faults: SourceFault[];
  ast: WfFile;
}

/** Parses and compiles `.wf` text. Never throws; with syntax errors the definition is partial. */
export function compile(text: string): CompileResult {
  const parsed = parse(text);
  const compiled = compileAst(parsed.ast, text);
  const faults = [...parsed.faults, ...compiled.faults].sort((a, b) => a.span.start - b.span.start);
  return { definition: compiled.definition, sourceMap: compiled.sourceMap, faults, ast: parsed.ast, workflowName: compiled.workflowName };
}

export interface CompileOptions {
  /**
   * What earlier compiles of the same document left to reuse (see `CompileCache`). The result
   * is the same with or without it.
   */
  cache?: CompileCache;
  /** The line index of `text`, when the caller keeps one (it places faults). */
  lines?: LineIndex;
}

/** Compiles a parsed tree. `text` is the source it was parsed from (for positions). */
export function compileAst(ast: WfFile, text: string, options: CompileOptions = {}): CompiledAst {
  const lines = options.lines?.text === text ? options.lines : new LineIndex(text);
  const cache = options.cache;
  try {
    return new Compiler(ast, text, lines, cache).run();
  } catch (error) {
    // A cache left half-updated would make the next compile wrong: start it afresh.
    cache?.clear();
    throw error;
  }
}

/**
 * What compiling one document's versions can reuse, for an editor that recompiles on every
 * keystroke: the statements of the last compile and what each one compiled to, by position,
 * and the node names they declare.
 *
 * An incremental parser hands back the very same tree objects for the statements an edit did
 * not touch, so the statements of two versions are the same objects but for a stretch in the
 * middle. What a statement compiles to depends only on its own tree (a part's `subjects
 * [...]` also on the subjects it names, looked up again when a subject changed), so only that
 * stretch is compiled; the nodes and edges of the others are taken as they are. A statement
 * that reported a fault is compiled every time, because its faults carry positions and
 * pointers that depend on the rest of the file, and names are counted incrementally, so
 * faults that depend on other statements (undeclared or repeated names) cost nothing while
 * there are none. The result is always exactly what compiling without a cache gives.
 *
 * The outputs of compiles that share a cache share node and edge objects: they must not be
 * mutated.
 */
export class CompileCache {
  /** @internal The statements of the last compile. */
  statements: readonly Statement[] = [];
  /** @internal What each of them compiled to, by position (undefined: not a node or edge statement). */
  outputs: (StatementOutput | undefined)[] = [];
  /** @internal The node names the statements of the last compile declare. */
  declarations = new Set<string>();
  /** @internal How many statements declare each name declared more than once (the only ones that can be `duplicate-name`). */
  repeated = new Map<string, number>();
  /** @internal The values of subjects that compiled without a fault; each reference gets a copy. */
  readonly subjects = new WeakMap<SubjectStatement, unknown>();
  /**
   * @internal The last compile did not compile the graph (a `document` file), so the outputs
   * were not checked against its names and subjects: the next compile checks them all.
   */
  stale = false;

  /** @internal Forgets every compile. */
  clear(): void {
    this.statements = [];
    this.outputs = [];
    this.declarations = new Set();
    this.repeated = new Map();
    this.stale = false;
  }
}

/** @internal What one statement compiled to. */
export class StatementOutput {
  constructor(
    /** A node declaration's node, a chain's edges (in order), or a raw edge's edge. */
    public value: unknown,
    /** It reported a fault (so it is compiled again every time). */
    public faulty: boolean,
    /** For a part that copies subjects: the declarations its names found, in order. */
    public subjectStatements: SubjectStatement[] | undefined,
    /** For a chain: it named an undeclared node when last checked. */
    public undeclared: boolean,
  ) {}
}

const NO_NAMES: readonly NameSyntax[] = [];

/** A declared subject and, once referenced in a compile, its value. */
interface SubjectValue {
  statement: SubjectStatement;
  compiled: boolean;
  value: unknown;
  /** Compiling the value reported a fault. */
  faulty: boolean;
}

/** Compiles one tree; the objects of typed statements are written by the generated writers (see fields.ts). */
class Compiler implements FieldWriter {
  private readonly faults: SourceFault[] = [];
  /**
   * Core's did-you-mean search, one per compile: its work budget caps the searches of a file
   * with thousands of misspelt names, as it does in the checker.
   */
  private readonly suggester = new Suggester();
  /** Declared subjects by name (the first declaration of a name counts). */
  private readonly subjects = new Map<string, SubjectStatement>();
  /** The declared node names, and how many statements declare each one declared more than once. */
  private readonly declarations: Set<string>;
  private readonly repeated: Map<string, number>;
  /** For names declared more than once: the index in `nodes` of the first declaration met so far in this compile. */
  private readonly firstDeclarations = new Map<string, number>();
  private readonly origins: WfOrigins;
  private graphPointer = "";

  /**
   * With a cache: each statement's output from the last compile, by position in this compile's
   * statements (undefined for the statements that are not the last compile's), filled in as
   * statements are compiled.
   */
  private readonly outputs: (StatementOutput | undefined)[] | undefined;
  /** Whether the set of declared node names, or the subjects, differ from the last compile's. */
  private namesChanged = true;
  private subjectsChanged = true;

  /**
   * The pointer of the object being compiled, as a base and the tokens below it, pushed and
   * popped on the way down and joined only when a fault needs it: escaping a pointer for
   * every field of a large file cost more than compiling it.
   */
  private base = "";
  private readonly path: (string | number)[] = [];
  /** How many tokens of `path` are in use (the array is reused, never shrunk). */
  private depth = 0;

  /** Scratch lists, reused by every block and literal. */
  private readonly problems: BlockProblem[] = [];
  private readonly literalProblems: LiteralProblem[] = [];

  /**
   * Each declared subject's value, compiled at its first reference (copied for each one), and
   * whether compiling it reported a fault (what copies it then cannot be cached).
   */
  private readonly subjectValues = new Map<string, SubjectValue>();

  /** While a statement is compiled for the cache: the subjects it copied, and whether one was faulty. */
  private subjectStatements: SubjectStatement[] | undefined;
  private usedFaultySubject = false;

  constructor(
    private readonly ast: WfFile,
    private readonly text: string,
    private readonly lines: LineIndex,
    private readonly cache: CompileCache | undefined,
  ) {
    this.origins = { mode: "graph", rootSpan: { start: 0, end: 0 }, nodes: [], edgeStatements: [], edgeStarts: [], edgeCount: 0, subjects: this.subjects };
    const statements = ast.statements;
    if (!cache) {
      this.declarations = new Set();
      this.repeated = new Map();
      this.countDeclarations(statements, 0, statements.length, 1);
      this.outputs = undefined;
      return;
    }
    // The statements both compiles share: a run at the start and a run at the end.
    const old = cache.statements;
    const shortest = Math.min(old.length, statements.length);
    let prefix = 0;
    while (prefix < shortest && old[prefix] === statements[prefix]) prefix++;
    let suffix = 0;
    while (suffix < shortest - prefix && old[old.length - 1 - suffix] === statements[statements.length - 1 - suffix]) suffix++;
    const changedTo = statements.length - suffix;
    const oldChangedTo = old.length - suffix;
    this.declarations = cache.declarations;
    this.repeated = cache.repeated;
    this.namesChanged = cache.stale;
    this.subjectsChanged = cache.stale;
    cache.stale = false;
    // Count the new declarations before dropping the old ones: a statement edited without
    // touching its name leaves the set of declared names as it was.
    this.countDeclarations(statements, prefix, changedTo, 1);
    this.countDeclarations(old, prefix, oldChangedTo, -1);
    const changed = new Array<undefined>(changedTo - prefix).fill(undefined);
    const previous = cache.outputs;
    this.outputs = previous.slice(0, prefix).concat(changed, previous.slice(oldChangedTo));
    cache.statements = statements;
    cache.outputs = this.outputs;
  }

  /** Adds (`by` 1) or removes (-1) the names that statements `from`..`to` declare. */
  private countDeclarations(statements: readonly Statement[], from: number, to: number, by: 1 | -1): void {
    const declarations = this.declarations;
    for (let i = from; i < to; i++) {
      const statement = statements[i]!;
      if (statement.type === "subject") {
        this.subjectsChanged = true;
        continue;
      }
      if (!isNodeDeclaration(statement) || !willEmitNode(statement)) continue;
      const name = declaredName(statement);
      if (name === undefined) continue;
      // A name is counted only once it repeats: one set operation per name in the common case.
      if (by === 1) {
        const size = declarations.size;
        declarations.add(name);
        if (declarations.size > size) this.namesChanged = true;
        else this.repeated.set(name, (this.repeated.get(name) ?? 1) + 1);
      } else {
        const count = this.repeated.get(name);
        if (count === undefined) {
          declarations.delete(name);
          this.namesChanged = true;
        } else if (count === 2) this.repeated.delete(name);
        else this.repeated.set(name, count - 1);
      }
    }
  }

  run(): CompiledAst {
    const { workflow, version, document } = this.readTopLevel();
    this.origins.workflow = workflow;
    this.origins.version = version;
    this.origins.rootSpan = this.rootSpan(workflow);
    const workflowName = workflow?.name?.text;

    if (document) {
      this.origins.mode = "document";
      this.origins.document = document;
      // Nothing of the file but the document is compiled, so no node stands for a statement.
      this.origins.nodes = [];
      if (this.cache) this.cache.stale = true;
      const definition = document.value ? this.valueOf(document.value) : null;
      return { definition, sourceMap: new WfSourceMap(this.text, this.origins, this.lines), faults: this.faults, workflowName };
    }

    if (version) {
      this.origins.mode = "version";
      this.graphPointer = "/scope/graph";
    }
    const graph = this.compileGraph(workflow);
    const definition = version ? this.compileVersion(version, graph) : graph;
    return { definition, sourceMap: new WfSourceMap(this.text, this.origins, this.lines), faults: this.faults, workflowName };
  }

  // ---------------------------------------------------------------- declarations

  /**
   * Finds the one-per-file statements and every declared name, reporting repeats, and lists
   * the statement of each node (its index in `nodes` is its place in that list).
   */
  private readTopLevel(): { workflow?: WorkflowStatement; version?: VersionStatement; document?: DocumentStatement } {
    let workflow: WorkflowStatement | undefined;
    let version: VersionStatement | undefined;
    let document: DocumentStatement | undefined;
    let others = false;
    const nodes = this.origins.nodes;
    // Only a name declared more than once can be declared twice.
    const repeats = this.repeated.size > 0;
    // Index loops here and in the chain walks below: they run once per file, mostly before
    // V8 optimises them, and until then a `for…of` allocates an iterator result per step.
    const statements = this.ast.statements;
    for (let i = 0; i < statements.length; i++) {
      const statement = statements[i]!;
      switch (statement.type) {
        case "workflow":
          workflow = this.once(workflow, statement, "workflow");
          break;
        case "version":
          version = this.once(version, statement, "version");
          break;
        case "document":
          document = this.once(document, statement, "document");
          break;
        case "subject":
          others = true;
          if (statement.name) this.declareSubject(statement, statement.name);
          break;
        case "invalid":
          break;
        case "trigger":
        case "part":
        case "gate":
        case "destination":
        case "node":
          others = true;
          if (willEmitNode(statement)) {
            if (repeats) this.declareNode(statement, nodes.length);
            nodes.push(statement);
          }
          break;
        default:
          others = true;
      }
    }
    if (document && (others || workflow || version)) {
      this.report(
        DSL_CODES.mixedDocument,
        "`document` stands for the whole file, so the file can hold nothing else (comments aside); remove the other statements, or remove `document`",
        keywordOf(document),
      );
    }
    return { workflow, version, document };
  }

  /** The first of a once-per-file statement; a repeat is reported and ignored. */
  private once<T extends WorkflowStatement | VersionStatement | DocumentStatement>(current: T | undefined, statement: T, word: string): T {
    if (!current) return statement;
    this.report(DSL_CODES.duplicateStatement, `\`${word}\` may appear once in a file; this repeats the one above`, keywordOf(statement), {
      related: [this.related(keywordOf(current), `the first \`${word}\``)],
    });
    return current;
  }

  private declareSubject(statement: SubjectStatement, name: NameSyntax): void {
    const first = this.subjects.get(name.text);
    if (first) {
      this.report(DSL_CODES.duplicateName, `subject \`${name.text}\` is already declared; give this one another name`, spanOf(name), {
        related: [this.related(spanOf(first.name!), `\`${name.text}\` is first declared here`)],
      });
      return;
    }
    this.subjects.set(name.text, statement);
    this.subjectValues.set(name.text, { statement, compiled: false, value: undefined, faulty: false });
  }

  /**
   * Typed declarations own their names: a second one is a `duplicate-name` fault. A raw
   * `node {...}` with a string id makes that id usable in edges but is not judged here
   * (core reports duplicate ids on the JSON), so decompiled files never fault.
   */
  private declareNode(statement: NodeDeclaration, index: number): void {
    const name = declaredName(statement);
    if (name === undefined || !this.repeated.has(name)) return;
    const firstIndex = this.firstDeclarations.get(name);
    if (firstIndex === undefined) {
      this.firstDeclarations.set(name, index);
      return;
    }
    const first = this.origins.nodes[firstIndex]!;
    if (statement.type === "node" || first.type === "node") return;
    this.report(DSL_CODES.duplicateName, `a node named \`${name}\` is already declared; node ids must be unique`, spanOf(statement.name!), {
      nodeId: name,
      pointer: joinPointer(this.graphPointer, "nodes", index, "id"),
      related: [this.related(spanOf(first.name!), `\`${name}\` is first declared here`, joinPointer(this.graphPointer, "nodes", firstIndex, "id"))],
    });
  }

  /** Every declared node name, in the order the file first declares them (for suggestions). */
  private declaredNames: string[] | undefined;

  private namesInOrder(): string[] {
    this.declaredNames ??= [...new Set(this.origins.nodes.map(declaredName))].filter((name) => name !== undefined);
    return this.declaredNames;
  }

  private rootSpan(workflow: WorkflowStatement | undefined): Span {
    if (workflow) return (workflow.name && spanOf(workflow.name)) ?? keywordOf(workflow);
    const first = this.ast.statements.find((statement) => statement.type !== "invalid");
    if (!first) return { start: 0, end: 0 };
    return first.type === "chain" ? spanOf(first) : keywordOf(first);
  }

  // ---------------------------------------------------------------- the graph

  private compileGraph(workflow: WorkflowStatement | undefined): Record<string, unknown> {
    const nodes: unknown[] = [];
    const edges: unknown[] = [];
    const graph: Record<string, unknown> = { schemaVersion: 1, nodes, edges };
    this.at(this.graphPointer);
    this.mergeWith(graph, workflow?.with);
    const { edgeStatements, edgeStarts } = this.origins;
    const statements = this.ast.statements;
    for (let i = 0; i < statements.length; i++) {
      const statement = statements[i]!;
      switch (statement.type) {
        case "trigger":
        case "part":
        case "gate":
        case "destination":
        case "node": {
          const node = this.nodeOf(statement, i, nodes.length);
          if (node !== undefined) nodes.push(node);
          break;
        }
        case "chain": {
          const first = edges.length;
          this.compileChain(statement, i, edges);
          if (edges.length > first) {
            edgeStatements.push(statement);
            edgeStarts.push(first);
          }
          break;
        }
        case "edge":
          if (statement.value) {
            edgeStatements.push(statement);
            edgeStarts.push(edges.length);
            edges.push(this.rawEdgeOf(statement, i));
          }
          break;
      }
    }
    this.origins.edgeCount = edges.length;
    return graph;
  }

  /** The output the last compile left for statement `position`, if it may be reused as it is. */
  private reusable(position: number): StatementOutput | undefined {
    const output = this.outputs?.[position];
    return output === undefined || output.faulty ? undefined : output;
  }

  /** The node a declaration stands for (undefined when it has none): reused when it can be. */
  private nodeOf(statement: NodeDeclaration, position: number, index: number): unknown {
    const output = this.reusable(position);
    if (output !== undefined && (!this.subjectsChanged || this.subjectsStillResolve(output))) return output.value;
    this.subjectStatements = undefined;
    this.usedFaultySubject = false;
    const faultsBefore = this.faults.length;
    this.at(this.graphPointer);
    this.push("nodes");
    this.push(index);
    const node = this.compileNode(statement);
    if (this.outputs) this.outputs[position] = new StatementOutput(node, this.faults.length > faultsBefore || this.usedFaultySubject, this.subjectStatements, false);
    return node;
  }

  /** A reused part copied subjects: it still stands only if each of their names finds the same declaration. */
  private subjectsStillResolve(output: StatementOutput): boolean {
    const statements = output.subjectStatements;
    if (statements === undefined) return true;
    for (let i = 0; i < statements.length; i++) if (this.subjects.get(statements[i]!.name!.text) !== statements[i]) return false;
    return true;
  }

  private compileNode(statement: NodeDeclaration): unknown {
    if (statement.type === "node") return statement.value ? this.valueOf(statement.value) : undefined;
    if (!statement.name) return undefined;
    switch (statement.type) {
      case "trigger":
        return writeTriggerNode(this, statement);
      case "destination":
        return writeDestinationNode(this, statement);
      case "gate":
        return writeGateNode(this, statement);
      case "part":
        return writePartNode(this, statement);
    }
  }

  /** A part's `subjects [...]`: each subject copied in full. */
  subjectRefs(list: SubjectsProperty): unknown[] {
    const items = list.items;
    const refs: unknown[] = [];
    for (let index = 0; index < items.length; index++) refs.push(this.subjectRef(items[index]!, index));
    return refs;
  }

  /** The subject a name refers to, copied in full (the JSON has no references). */
  private subjectRef(name: NameSyntax, index: number): unknown {
    const declared = this.subjectValues.get(name.text);
    if (!declared) {
      const known = [...this.subjects.keys()];
      this.report(
        DSL_CODES.undeclaredSubject,
        `no subject named \`${name.text}\` is declared; declare it with \`subject ${printName(name.text)} = company "<canonical id>" "<label>"\`${known.length ? ` (declared: ${known.slice(0, 5).map((k) => `\`${k}\``).join(", ")})` : ""}`,
        spanOf(name),
        { pointer: this.pointer("subjectRefs", index) },
      );
      // The name stands in for the subject, so the JSON still shows what was written.
      return name.text;
    }
    if (this.outputs) (this.subjectStatements ??= []).push(declared.statement);
    if (!declared.compiled) this.compileSubjectValue(declared);
    if (declared.faulty) this.usedFaultySubject = true;
    return cloneJson(declared.value);
  }

  /**
   * A subject's value, compiled at its first reference in this compile (which reports the
   * faults of its literals, once) or taken from the cache when it compiled without any.
   */
  private compileSubjectValue(entry: SubjectValue): void {
    entry.compiled = true;
    const cache = this.cache;
    if (cache?.subjects.has(entry.statement)) {
      entry.value = cache.subjects.get(entry.statement);
      return;
    }
    const faultsBefore = this.faults.length;
    // A subject's own fields are reported at pointers below the document root, as written.
    const base = this.base;
    const depth = this.depth;
    const path = this.path.slice(0, depth);
    this.at("");
    entry.value = this.compileSubject(entry.statement);
    this.at(base);
    for (const token of path) this.push(token);
    if (this.faults.length === faultsBefore) cache?.subjects.set(entry.statement, entry.value);
    else entry.faulty = true;
  }

  private compileSubject(statement: SubjectStatement): unknown {
    const body = statement.body;
    if (!body) return {};
    return body.type === "raw" ? this.valueOf(body.value) : writeSubject(this, body);
  }

  // ---------------------------------------------------------------- edges

  /** The edges of a chain (reused when they can be), then its undeclared names. */
  private compileChain(statement: ChainStatement, position: number, edges: unknown[]): void {
    const firstEdge = edges.length;
    const output = this.reusable(position);
    if (output !== undefined) {
      for (const edge of output.value as unknown[]) edges.push(edge);
      // Its names were all declared, and the declared names are the same: nothing to report.
      if (!output.undeclared && !this.namesChanged) return;
      output.undeclared = this.checkChainNames(statement, firstEdge);
      return;
    }
    const faultsBefore = this.faults.length;
    const { arrows, groups } = statement;
    const clause = statement.with;
    for (let link = 0; link < arrows.length; link++) {
      const sources = groups[link] ?? NO_NAMES;
      const targets = groups[link + 1] ?? NO_NAMES;
      for (let f = 0; f < sources.length; f++) {
        const from = sources[f]!;
        for (let t = 0; t < targets.length; t++) {
          const to = targets[t]!;
          const edge: Record<string, unknown> = { from: from.text, to: to.text };
          if (clause) {
            this.at(this.graphPointer);
            this.push("edges");
            this.push(edges.length);
            // One `with` gives every edge of the chain its fields: its faults are reported once.
            this.mergeWith(edge, clause, edges.length > firstEdge);
          }
          edges.push(edge);
        }
      }
    }
    const faulty = this.faults.length > faultsBefore;
    const undeclared = this.checkChainNames(statement, firstEdge);
    if (this.outputs) this.outputs[position] = new StatementOutput(edges.slice(firstEdge), faulty, undefined, undeclared);
  }

  /** Reports each undeclared name of a chain once, at the name; true when there was one. */
  private checkChainNames(statement: ChainStatement, firstEdge: number): boolean {
    let undeclared = false;
    const groups = statement.groups;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g]!;
      for (let n = 0; n < group.length; n++) {
        const name = group[n]!;
        if (this.declarations.has(name.text)) continue;
        undeclared = true;
        const use = firstUse(statement, g, n);
        const pointer = use ? joinPointer(this.graphPointer, "edges", firstEdge + use.index, use.field) : this.graphPointer;
        const suggestion = this.suggester.closest(name.text, this.namesInOrder());
        this.report(
          DSL_CODES.undeclaredNode,
          `no node named \`${name.text}\` is declared${suggestion ? `; did you mean \`${suggestion}\`?` : `; declare it (for example \`part ${printName(name.text)} = pack@1\`)`}`,
          spanOf(name),
          { nodeId: name.text, pointer, ...(suggestion ? { suggestion } : {}) },
        );
      }
    }
    return undeclared;
  }

  private rawEdgeOf(statement: EdgeStatement, position: number): unknown {
    const output = this.reusable(position);
    if (output !== undefined) return output.value;
    const faultsBefore = this.faults.length;
    const edge = this.valueOf(statement.value!);
    if (this.outputs) this.outputs[position] = new StatementOutput(edge, this.faults.length > faultsBefore, undefined, false);
    return edge;
  }

  // ---------------------------------------------------------------- the version-save body

  private compileVersion(version: VersionStatement, graph: Record<string, unknown>): Record<string, unknown> {
    const contents = this.readBlock(version.block, "version");
    const scope: Record<string, unknown> = { graph };
    this.at("/scope");
    this.mergeWith(scope, contents.scope?.with);
    const body: Record<string, unknown> = { scope };
    if (contents.trigger?.spec) {
      this.at("/trigger");
      body["trigger"] = writeTriggerSpec(this, contents.trigger.spec);
    }
    if (contents.destinations.length) {
      body["destinations"] = contents.destinations.map((property, index) => {
        if (!property.spec) return {};
        this.at("/destinations");
        this.push(index);
        return writeDestinationSpec(this, property.spec);
      });
    }
    this.at("");
    this.mergeWith(body, contents.with);
    return body;
  }

  // ---------------------------------------------------------------- shared

  /** Sets the pointer of the object being compiled: `base`, no tokens yet. */
  private at(base: string): void {
    this.base = base;
    this.depth = 0;
  }

  push(token: string | number): void {
    this.path[this.depth++] = token;
  }

  pop(): void {
    this.depth--;
  }

  /** The pointer of the object being compiled, or of a field below it. */
  private pointer(...tokens: (string | number)[]): string {
    return joinPointer(this.base, ...this.path.slice(0, this.depth), ...tokens);
  }

  readBlock(block: Block | undefined, kind: BlockKind): BlockContents {
    const problems = this.problems;
    if (problems.length) problems.length = 0;
    const contents = readBlock(block, kind, problems);
    for (let i = 0; i < problems.length; i++) {
      const problem = problems[i]!;
      // Every block property opens with the word of its type (`with` included).
      const at = keywordSpan(problem.property, problem.property.type);
      const word = problem.property.type;
      if (problem.kind === "misplaced") {
        this.report(DSL_CODES.syntax, `\`${word}\` does not belong in ${BLOCKS[kind].what}, which holds ${wordList(BLOCKS[kind].properties, "and")}`, at);
      } else {
        this.report(DSL_CODES.duplicateField, `\`${word}\` is already written in this block, and the first is kept; remove this one`, at);
      }
    }
    return contents;
  }

  /**
   * Adds the fields of a `with` block. A field the statement already writes is reported
   * and the statement's value is kept: `with` adds fields, it does not replace them.
   */
  mergeWith(target: Record<string, unknown>, clause: WithClause | undefined, quiet = false): void {
    if (!clause?.value) return;
    if (clause.value.type !== "object") {
      if (!quiet) this.report(DSL_CODES.syntax, "a `with` block is a JSON object: `with { \"field\": value }`", spanOf(clause.value));
      return;
    }
    const extra = this.valueOf(clause.value, quiet) as Record<string, unknown>;
    for (const key of Object.keys(extra)) {
      if (hasOwn(target, key)) {
        if (!quiet) {
          const member = memberOf(clause.value, key);
          this.report(DSL_CODES.duplicateField, `\`${key}\` is already set by the statement, whose value is kept: \`with\` only adds fields the statement does not write`, (member ? spanOf(member.key) : keywordSpan(clause, "with")), {
            pointer: this.pointer(key),
          });
        }
        continue;
      }
      setOwnField(target, key, extra[key]);
    }
  }

  valueOf(literal: JsonLiteral, quiet = false): unknown {
    // Strings, booleans and null are their own value and never a fault.
    if (literal.type === "string" || literal.type === "boolean" || literal.type === "null") return literal.value;
    const problems = this.literalProblems;
    if (problems.length) problems.length = 0;
    const value = literalValue(literal, problems);
    if (!quiet) {
      for (let i = 0; i < problems.length; i++) {
        const problem = problems[i]!;
        if (problem.kind === "duplicate-key") {
          this.report(DSL_CODES.duplicateField, problem.message, problem.span, problem.first ? { related: [this.related(problem.first, "first written here")] } : {});
        } else {
          // Too large for a double is the error form: no config may lower it.
          this.report(DSL_CODES.numberPrecision, problem.message, problem.span, problem.message.includes("too large") ? { severity: "error" } : {});
        }
      }
    }
    return value;
  }

  private report(code: DslCode, message: string, span: Span, extra: SourceFaultExtra = {}): void {
    this.faults.push(sourceFault(this.lines, code, message, span, extra));
  }

  private related(span: Span, message: string, pointer = ""): SourceRelated {
    return { nodeId: null, pointer, message, span, range: this.lines.rangeOf(span) };
  }
}

/** Only declarations whose name (or JSON) could be read become nodes. */
function willEmitNode(statement: NodeDeclaration): boolean {
  return statement.type === "node" ? statement.value !== undefined : statement.name !== undefined;
}

/**
 * The first edge of a chain that name `n` of group `g` is an end of (numbered from the chain's
 * first edge, as the compiler makes them) and which end: the target of the link before the
 * group, else the source of the link after it; undefined when neither link makes an edge.
 */
function firstUse(statement: ChainStatement, g: number, n: number): { index: number; field: "from" | "to" } | undefined {
  const { arrows, groups } = statement;
  const before = edgesBeforeLink(statement);
  if (g > 0 && g <= arrows.length && groups[g - 1]!.length > 0) return { index: before[g - 1]! + n, field: "to" };
  const targets = groups[g + 1]?.length ?? 0;
  if (g < arrows.length && targets > 0) return { index: before[g]! + n * targets, field: "from" };
  return undefined;
}

/**
 * A copy of a JSON value made by the compiler (plain objects and arrays, own fields only).
 * Recursive while shallow; a deeply nested value is copied with an explicit stack.
 */
function cloneJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > 100) return cloneDeepJson(value);
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let i = 0; i < value.length; i++) copy.push(cloneJson(value[i], depth + 1));
    return copy;
  }
  const copy: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  // for-in walks the object's cached key list (no array per object); the compiler's objects
  // have Object.prototype or none, which adds no enumerable keys.
  for (const key in record) setOwnField(copy, key, cloneJson(record[key], depth + 1));
  return copy;
}

function cloneDeepJson(value: object): unknown {
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: [object, unknown][] = [[value, root]];
  while (stack.length) {
    const [source, target] = stack.pop()!;
    const copyOf = (child: unknown): unknown => {
      if (child === null || typeof child !== "object") return child;
      const copy: unknown = Array.isArray(child) ? [] : {};
      stack.push([child, copy]);
      return copy;
    };
    if (Array.isArray(source)) for (const element of source) (target as unknown[]).push(copyOf(element));
    else for (const key of Object.keys(source)) setOwnField(target as Record<string, unknown>, key, copyOf((source as Record<string, unknown>)[key]));
  }
  return root;
}

/** The node name a declaration declares: its name, or a raw node's string `id`. */
function declaredName(statement: NodeDeclaration): string | undefined {
  return statement.type === "node" ? (stringMemberOf(statement.value, "id")?.value as string | undefined) : statement.name?.text;
}
