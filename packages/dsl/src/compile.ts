/**
 * The compiler: a `.wf` tree to the Definition JSON (or version-save body) it stands for,
 * with a source map, and the faults of the language itself (undeclared names, names
 * declared twice, fields written twice).
 *
 * Fields are written in one canonical order per object (the typed fields of the statement,
 * then its `with` fields in the order written), so compiling is deterministic; JSON object
 * key order carries no meaning and is not preserved from a decompiled document.
 */
import { joinPointer } from "@wfkit/core";
import type {
  Block,
  ChainStatement,
  DestinationStatement,
  DocumentStatement,
  EdgeStatement,
  GateStatement,
  JsonLiteral,
  KindSpec,
  NameSyntax,
  NodeDeclaration,
  PartStatement,
  Statement,
  SubjectStatement,
  TriggerStatement,
  VersionStatement,
  WfFile,
  WithClause,
  WorkflowStatement,
} from "./ast.js";
import { isNodeDeclaration } from "./ast.js";
import { BLOCK_PROPERTIES, BLOCK_SUBJECT, readBlock, type BlockProblem } from "./block-properties.js";
import { DSL_CODES, sourceFault, type SourceFault, type SourceRelated } from "./diagnostics.js";
import { literalValue, type LiteralIssue } from "./json-convert.js";
import { hasOwn, setOwnField } from "./json-value.js";
import { parse } from "./parser.js";
import type { BlockKind } from "./parser.js";
import { LineIndex, type Span } from "./positions.js";
import { WfSourceMap, type EdgeOrigin, type WfOrigins } from "./wf-source-map.js";

export interface CompileResult {
  /** The Definition, version-save body, or (for `document`) any JSON value the file stands for. */
  definition: unknown;
  sourceMap: WfSourceMap;
  /** Syntax errors and faults of the language, in text order. */
  diagnostics: SourceFault[];
  ast: WfFile;
  /** The `workflow "name"` of the file: metadata for tools, never written into the JSON. */
  workflowName: string | undefined;
}

/** Parses and compiles `.wf` text. Never throws; with syntax errors the definition is partial. */
export function compile(text: string): CompileResult {
  const parsed = parse(text);
  const compiled = compileAst(parsed.ast, text);
  const diagnostics = [...parsed.diagnostics, ...compiled.diagnostics].sort((a, b) => a.span.start - b.span.start);
  return { definition: compiled.definition, sourceMap: compiled.sourceMap, diagnostics, ast: parsed.ast, workflowName: compiled.workflowName };
}

export interface CompiledAst {
  definition: unknown;
  sourceMap: WfSourceMap;
  /** Faults of the language (not syntax errors, which `parse` reports). */
  diagnostics: SourceFault[];
  workflowName: string | undefined;
}

/** Compiles a parsed tree. `text` is the source it was parsed from (for positions). */
export function compileAst(ast: WfFile, text: string): CompiledAst {
  return new Compiler(ast, text).run();
}

/**
 * A JSON Pointer built only if a fault needs it: a large file has millions of fields and
 * almost never a fault, and escaping every pointer eagerly cost more than compiling.
 */
type LazyPointer = () => string;

function pointerTo(parent: LazyPointer | string, ...tokens: (string | number)[]): LazyPointer {
  return () => joinPointer(typeof parent === "string" ? parent : parent(), ...tokens);
}

interface Declared {
  name: NameSyntax;
  /** Index of the node in `nodes`. */
  index: number;
  /** Declared by a typed statement (as opposed to the id of a raw `node {...}`). */
  typed: boolean;
}

class Compiler {
  private readonly lines: LineIndex;
  private readonly diagnostics: SourceFault[] = [];
  private readonly subjects = new Map<string, { statement: SubjectStatement; name: NameSyntax }>();
  private readonly nodeNames = new Map<string, Declared>();
  private readonly origins: WfOrigins;
  private graphPointer = "";

  constructor(
    private readonly ast: WfFile,
    private readonly text: string,
  ) {
    this.lines = new LineIndex(text);
    this.origins = { mode: "graph", rootSpan: { start: 0, end: 0 }, nodes: [], edges: [], subjects: new Map() };
  }

  run(): CompiledAst {
    const { workflow, version, document } = this.readTopLevel();
    this.origins.workflow = workflow;
    this.origins.version = version;
    this.origins.rootSpan = this.rootSpan(workflow);
    this.origins.subjects = new Map([...this.subjects].map(([name, entry]) => [name, entry.statement]));
    const workflowName = workflow?.name?.text;

    if (document) {
      this.origins.mode = "document";
      this.origins.document = document;
      const definition = document.value ? this.valueOf(document.value) : null;
      return { definition, sourceMap: new WfSourceMap(this.text, this.origins), diagnostics: this.diagnostics, workflowName };
    }

    if (version) {
      this.origins.mode = "version";
      this.graphPointer = "/scope/graph";
    }
    const graph = this.compileGraph(workflow);
    const definition = version ? this.compileVersion(version, graph) : graph;
    return { definition, sourceMap: new WfSourceMap(this.text, this.origins), diagnostics: this.diagnostics, workflowName };
  }

  // ---------------------------------------------------------------- declarations

  /** Finds the one-per-file statements and every declared name, reporting repeats. */
  private readTopLevel(): { workflow?: WorkflowStatement; version?: VersionStatement; document?: DocumentStatement } {
    let workflow: WorkflowStatement | undefined;
    let version: VersionStatement | undefined;
    let document: DocumentStatement | undefined;
    const others: Statement[] = [];
    const once = <T extends WorkflowStatement | VersionStatement | DocumentStatement>(current: T | undefined, statement: T, word: string): T => {
      if (!current) return statement;
      this.report(DSL_CODES.duplicateStatement, "error", `\`${word}\` may appear once in a file; this repeats the one above`, statement.keyword, {
        related: [this.related(current.keyword, `the first \`${word}\``)],
      });
      return current;
    };
    let nodeIndex = 0;
    for (const statement of this.ast.statements) {
      switch (statement.type) {
        case "workflow":
          workflow = once(workflow, statement, "workflow");
          break;
        case "version":
          version = once(version, statement, "version");
          break;
        case "document":
          document = once(document, statement, "document");
          break;
        case "subject":
          others.push(statement);
          if (statement.name) this.declareSubject(statement, statement.name);
          break;
        case "invalid":
          break;
        default:
          others.push(statement);
          if (isNodeDeclaration(statement) && this.willEmitNode(statement)) {
            this.declareNode(statement, nodeIndex);
            nodeIndex++;
          }
      }
    }
    if (document && (others.length > 0 || workflow || version)) {
      this.report(
        DSL_CODES.mixedDocument,
        "error",
        "`document` stands for the whole file, so the file can hold nothing else (comments aside); remove the other statements, or remove `document`",
        document.keyword,
      );
    }
    return { workflow, version, document };
  }

  private declareSubject(statement: SubjectStatement, name: NameSyntax): void {
    const first = this.subjects.get(name.text);
    if (first) {
      this.report(DSL_CODES.duplicateName, "error", `subject \`${name.text}\` is already declared; give this one another name`, name.span, {
        related: [this.related(first.name.span, `\`${name.text}\` is first declared here`)],
      });
      return;
    }
    this.subjects.set(name.text, { statement, name });
  }

  /**
   * Typed declarations own their names: a second one is a `duplicate-name` fault. A raw
   * `node {...}` with a string id makes that id usable in edges but is not judged here
   * (core reports duplicate ids on the JSON), so decompiled files never fault.
   */
  private declareNode(statement: NodeDeclaration, index: number): void {
    if (statement.type === "node") {
      const id = rawNodeId(statement.value);
      if (id && !this.nodeNames.has(id.text)) this.nodeNames.set(id.text, { name: id, index, typed: false });
      return;
    }
    const name = statement.name!;
    const first = this.nodeNames.get(name.text);
    if (!first) {
      this.nodeNames.set(name.text, { name, index, typed: true });
      return;
    }
    if (first.typed) {
      this.report(DSL_CODES.duplicateName, "error", `a node named \`${name.text}\` is already declared; node ids must be unique`, name.span, {
        nodeId: name.text,
        pointer: joinPointer(this.graphPointer, "nodes", index, "id"),
        related: [this.related(first.name.span, `\`${name.text}\` is first declared here`, joinPointer(this.graphPointer, "nodes", first.index, "id"))],
      });
    }
  }

  /** Only declarations whose name (or JSON) could be read become nodes. */
  private willEmitNode(statement: NodeDeclaration): boolean {
    return statement.type === "node" ? statement.value !== undefined : statement.name !== undefined;
  }

  private rootSpan(workflow: WorkflowStatement | undefined): Span {
    if (workflow) return workflow.name?.span ?? workflow.keyword;
    const first = this.ast.statements.find((statement) => statement.type !== "invalid");
    if (!first) return { start: 0, end: 0 };
    if ("keyword" in first) return first.keyword;
    return first.span;
  }

  // ---------------------------------------------------------------- the graph

  private compileGraph(workflow: WorkflowStatement | undefined): Record<string, unknown> {
    const nodes: unknown[] = [];
    const edges: unknown[] = [];
    const graph: Record<string, unknown> = { schemaVersion: 1, nodes, edges };
    this.mergeWith(graph, workflow?.with, this.graphPointer);
    for (const statement of this.ast.statements) {
      if (isNodeDeclaration(statement)) {
        const node = this.compileNode(statement, pointerTo(this.graphPointer, "nodes", nodes.length));
        if (node === undefined) continue;
        nodes.push(node);
        this.origins.nodes.push(statement);
      } else if (statement.type === "chain") {
        this.compileChain(statement, edges);
      } else if (statement.type === "edge") {
        this.compileRawEdge(statement, edges);
      }
    }
    return graph;
  }

  private compileNode(statement: NodeDeclaration, pointer: LazyPointer): unknown {
    switch (statement.type) {
      case "trigger":
        return this.compileTrigger(statement, pointer);
      case "part":
        return this.compilePart(statement, pointer);
      case "gate":
        return this.compileGate(statement, pointer);
      case "destination":
        return this.compileDestination(statement, pointer);
      case "node":
        return statement.value ? this.valueOf(statement.value) : undefined;
    }
  }

  private compileTrigger(statement: TriggerStatement, pointer: LazyPointer): unknown {
    if (!statement.name) return undefined;
    const node: Record<string, unknown> = { id: statement.name.text, kind: "trigger" };
    if (statement.spec) node["trigger"] = this.compileKindSpec(statement.spec, "trigger", pointerTo(pointer, "trigger"));
    this.mergeWith(node, statement.with, pointer);
    return node;
  }

  private compileDestination(statement: DestinationStatement, pointer: LazyPointer): unknown {
    if (!statement.name) return undefined;
    const node: Record<string, unknown> = { id: statement.name.text, kind: "destination" };
    if (statement.spec) node["destination"] = this.compileKindSpec(statement.spec, "destination", pointerTo(pointer, "destination"));
    this.mergeWith(node, statement.with, pointer);
    return node;
  }

  /** A trigger or destination object: `{kind, schedule?, timezone?, ...with}`. */
  private compileKindSpec(spec: KindSpec, kind: "trigger" | "destination", pointer: LazyPointer): Record<string, unknown> {
    const object: Record<string, unknown> = { kind: spec.kind.text };
    const contents = this.readBlock(spec.block, kind);
    if (contents.schedule?.value) object["schedule"] = contents.schedule.value.text;
    if (contents.timezone?.value) object["timezone"] = contents.timezone.value.text;
    this.mergeWith(object, contents.with, pointer);
    return object;
  }

  private compileGate(statement: GateStatement, pointer: LazyPointer): unknown {
    if (!statement.name) return undefined;
    const node: Record<string, unknown> = { id: statement.name.text, kind: "gate" };
    if (statement.belowFloor) node["belowFloor"] = statement.belowFloor.text;
    this.mergeWith(node, statement.with, pointer);
    return node;
  }

  private compilePart(statement: PartStatement, pointer: LazyPointer): unknown {
    if (!statement.name) return undefined;
    const node: Record<string, unknown> = { id: statement.name.text };
    if (statement.partId) node["partId"] = statement.partId.text;
    if (statement.version) node["partVersion"] = statement.version.text;
    if (statement.block) node["terminal"] = this.compileTerminal(statement.block, pointerTo(pointer, "terminal"));
    this.mergeWith(node, statement.with, pointer);
    return node;
  }

  /** A part's block is its `terminal` object: `{job?, subjectRefs?, ...with}`. */
  private compileTerminal(block: Block, pointer: LazyPointer): Record<string, unknown> {
    const terminal: Record<string, unknown> = {};
    const contents = this.readBlock(block, "part");
    if (contents.job) {
      const job: Record<string, unknown> = {};
      if (contents.job.id) job["id"] = contents.job.id.text;
      if (contents.job.version) job["version"] = contents.job.version.text;
      this.mergeWith(job, contents.job.with, pointerTo(pointer, "job"));
      terminal["job"] = job;
    }
    if (contents.subjects) {
      terminal["subjectRefs"] = contents.subjects.items.map((item, index) => this.subjectRef(item, pointerTo(pointer, "subjectRefs", index)));
    }
    this.mergeWith(terminal, contents.with, pointer);
    return terminal;
  }

  /** The subject a name refers to, copied in full (the JSON has no references). */
  private subjectRef(name: NameSyntax, pointer: LazyPointer): unknown {
    const declared = this.subjects.get(name.text);
    if (!declared) {
      const known = [...this.subjects.keys()];
      this.report(
        DSL_CODES.undeclaredSubject,
        "error",
        `no subject named \`${name.text}\` is declared; declare it with \`subject ${printableName(name.text)} = company "<canonical id>" "<label>"\`${known.length ? ` (declared: ${known.slice(0, 5).map((k) => `\`${k}\``).join(", ")})` : ""}`,
        name.span,
        { pointer: pointer() },
      );
      // The name stands in for the subject, so the JSON still shows what was written.
      return name.text;
    }
    return this.compileSubject(declared.statement, this.reported.has(declared.statement));
  }

  /** Subjects referenced several times have their literals reported once. */
  private readonly reported = new WeakSet<SubjectStatement>();

  private compileSubject(statement: SubjectStatement, quiet: boolean): unknown {
    this.reported.add(statement);
    const body = statement.body;
    if (!body) return {};
    if (body.type === "raw") return this.valueOf(body.value, quiet);
    const subject: Record<string, unknown> = {};
    if (body.canonicalId) subject["canonicalId"] = body.canonicalId.text;
    subject["kind"] = body.kind.text;
    if (body.label) subject["label"] = body.label.text;
    if (body.identifiers?.value) subject["identifiers"] = this.valueOf(body.identifiers.value, quiet);
    this.mergeWith(subject, body.with, "", quiet);
    return subject;
  }

  // ---------------------------------------------------------------- edges

  private compileChain(statement: ChainStatement, edges: unknown[]): void {
    const firstEdge = edges.length;
    statement.arrows.forEach((arrow, link) => {
      const sources = statement.groups[link] ?? [];
      const targets = statement.groups[link + 1] ?? [];
      for (const from of sources) {
        for (const to of targets) {
          const edge: Record<string, unknown> = { from: from.text, to: to.text };
          this.mergeWith(edge, statement.with, pointerTo(this.graphPointer, "edges", edges.length), edges.length > firstEdge);
          const origin: EdgeOrigin = { type: "chain", statement, from, to, arrow };
          this.origins.edges.push(origin);
          edges.push(edge);
        }
      }
    });
    this.checkChainNames(statement, firstEdge);
  }

  /** Reports each undeclared name of a chain once, at the name. */
  private checkChainNames(statement: ChainStatement, firstEdge: number): void {
    let uses: Map<NameSyntax, { index: number; field: "from" | "to" }> | undefined;
    for (const group of statement.groups) {
      for (const name of group) {
        if (this.nodeNames.has(name.text)) continue;
        uses ??= this.firstUses(statement, firstEdge);
        const use = uses.get(name);
        const pointer = use ? joinPointer(this.graphPointer, "edges", use.index, use.field) : this.graphPointer;
        const suggestion = closestName(name.text, [...this.nodeNames.keys()]);
        this.report(
          DSL_CODES.undeclaredNode,
          "error",
          `no node named \`${name.text}\` is declared${suggestion ? `; did you mean \`${suggestion}\`?` : `; declare it (for example \`part ${printableName(name.text)} = pack@1\`)`}`,
          name.span,
          { nodeId: name.text, pointer, ...(suggestion ? { suggestion } : {}) },
        );
      }
    }
  }

  /** For each name of a chain, the first edge it produced and which end of it the name is. */
  private firstUses(statement: ChainStatement, firstEdge: number): Map<NameSyntax, { index: number; field: "from" | "to" }> {
    const uses = new Map<NameSyntax, { index: number; field: "from" | "to" }>();
    for (let i = firstEdge; i < this.origins.edges.length; i++) {
      const origin = this.origins.edges[i]!;
      if (origin.type !== "chain" || origin.statement !== statement) break;
      if (!uses.has(origin.from)) uses.set(origin.from, { index: i, field: "from" });
      if (!uses.has(origin.to)) uses.set(origin.to, { index: i, field: "to" });
    }
    return uses;
  }

  private compileRawEdge(statement: EdgeStatement, edges: unknown[]): void {
    if (!statement.value) return;
    this.origins.edges.push({ type: "raw", statement });
    edges.push(this.valueOf(statement.value));
  }

  // ---------------------------------------------------------------- the version-save body

  private compileVersion(version: VersionStatement, graph: Record<string, unknown>): Record<string, unknown> {
    const contents = this.readBlock(version.block, "version");
    const scope: Record<string, unknown> = { graph };
    this.mergeWith(scope, contents.scope?.with, "/scope");
    const body: Record<string, unknown> = { scope };
    if (contents.trigger?.spec) body["trigger"] = this.compileKindSpec(contents.trigger.spec, "trigger", () => "/trigger");
    if (contents.destinations.length) {
      body["destinations"] = contents.destinations.map((property, index) =>
        property.spec ? this.compileKindSpec(property.spec, "destination", pointerTo("/destinations", index)) : {},
      );
    }
    this.mergeWith(body, contents.with, "");
    return body;
  }

  // ---------------------------------------------------------------- shared

  private readBlock(block: Block | undefined, kind: BlockKind) {
    const problems: BlockProblem[] = [];
    const contents = readBlock(block, kind, problems);
    for (const problem of problems) {
      const at = "keyword" in problem.property ? problem.property.keyword : problem.property.clause.keyword;
      const word = problem.property.type;
      if (problem.kind === "misplaced") {
        const allowed = BLOCK_PROPERTIES[kind].map((name) => `\`${name}\``);
        this.report(DSL_CODES.syntax, "error", `\`${word}\` does not belong in ${BLOCK_SUBJECT[kind]}, which holds ${allowed.slice(0, -1).join(", ")} and ${allowed[allowed.length - 1]}`, at);
      } else {
        this.report(DSL_CODES.duplicateField, "error", `\`${word}\` is already written in this block; write it once`, at);
      }
    }
    return contents;
  }

  /**
   * Adds the fields of a `with` block. A field the statement already writes is reported
   * and the statement's value is kept: `with` adds fields, it does not replace them.
   */
  private mergeWith(target: Record<string, unknown>, clause: WithClause | undefined, pointer: LazyPointer | string, quiet = false): void {
    if (!clause?.value) return;
    if (clause.value.type !== "object") {
      if (!quiet) this.report(DSL_CODES.syntax, "error", "a `with` block is a JSON object: `with { \"field\": value }`", clause.value.span);
      return;
    }
    const extra = this.valueOf(clause.value, quiet) as Record<string, unknown>;
    for (const key of Object.keys(extra)) {
      if (hasOwn(target, key)) {
        if (!quiet) {
          const member = [...clause.value.members].reverse().find((candidate) => candidate.key.text === key);
          this.report(DSL_CODES.duplicateField, "error", `\`${key}\` is already set by the statement; \`with\` only adds fields the statement does not write`, member?.key.span ?? clause.keyword, {
            pointer: pointerTo(pointer, key)(),
          });
        }
        continue;
      }
      setOwnField(target, key, extra[key]);
    }
  }

  private valueOf(literal: JsonLiteral, quiet = false): unknown {
    const issues: LiteralIssue[] = [];
    const value = literalValue(literal, issues);
    if (!quiet) {
      for (const issue of issues) {
        if (issue.kind === "duplicate-key") {
          this.report(DSL_CODES.duplicateField, "error", issue.message, issue.span, issue.first ? { related: [this.related(issue.first, "first written here")] } : {});
        } else {
          const severity = issue.message.includes("too large") ? "error" : "warning";
          this.report(DSL_CODES.numberPrecision, severity, issue.message, issue.span);
        }
      }
    }
    return value;
  }

  private report(
    code: string,
    severity: "error" | "warning",
    message: string,
    span: Span,
    extra: { nodeId?: string | null; pointer?: string; related?: SourceRelated[]; suggestion?: string } = {},
  ): void {
    this.diagnostics.push(sourceFault(this.lines, code, severity, message, span, extra));
  }

  private related(span: Span, message: string, pointer = ""): SourceRelated {
    return { nodeId: null, pointer, message, span, range: this.lines.rangeOf(span) };
  }
}

/** The string id of a raw node literal, if it has one. */
export function rawNodeId(value: JsonLiteral | undefined): NameSyntax | undefined {
  if (value?.type !== "object") return undefined;
  for (let i = value.members.length - 1; i >= 0; i--) {
    const member = value.members[i]!;
    if (member.key.text !== "id") continue;
    if (member.value?.type === "string") return { text: member.value.value as string, quoted: true, span: member.value.span };
    return undefined;
  }
  return undefined;
}

/** A name as `.wf` would write it in a message. */
function printableName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*(?:[.-][A-Za-z0-9_]+)*$/.test(name) ? name : JSON.stringify(name);
}

/** The declared name closest to a misspelt one (edit distance at most a third of its length). */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const distance = editDistance(name, candidate, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string, cap: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= cap) return cap;
    previous = current;
  }
  return previous[b.length]!;
}
