/**
 * Names in a `.wf` file: where each node and subject is declared and where it is used.
 * Navigation, rename, highlights, semantic tokens and completion all read this table.
 *
 * Nodes and subjects are separate namespaces (`subjects [...]` lists name subjects, edges
 * name nodes), so a node and a subject may share a name without clashing.
 */
import { type JsonLiteral, type NameSyntax, printName, quoteString, type Statement, type WfFile, spanOf, stringMemberOf } from "@wfkit/dsl";
import type { Span } from "@wfkit/dsl";

export type Namespace = "node" | "subject";
export type DeclarationKind = "trigger" | "part" | "gate" | "destination" | "node" | "subject";

export interface Occurrence {
  name: string;
  namespace: Namespace;
  span: Span;
  /** A name written as a JSON string (in `node {...}` / `edge {...}`) must stay quoted when renamed. */
  alwaysQuoted: boolean;
  quoted: boolean;
  statement: Statement;
}

export interface Declaration extends Occurrence {
  kind: DeclarationKind;
}

export class SymbolTable {
  /** Declarations by name; the first owns the name (later ones are duplicates). */
  readonly nodes = new Map<string, Declaration[]>();
  readonly subjects = new Map<string, Declaration[]>();
  readonly references: Occurrence[] = [];
  /** Declarations in document order. */
  readonly declarations: Declaration[] = [];

  constructor(ast: WfFile) {
    for (const statement of ast.statements) this.collect(statement);
  }

  declarationsOf(namespace: Namespace, name: string): Declaration[] {
    return (namespace === "node" ? this.nodes : this.subjects).get(name) ?? [];
  }

  /** The declaration or reference whose name covers `offset` (touching either end counts). */
  occurrenceAt(offset: number): Occurrence | Declaration | undefined {
    const hit = (occurrence: Occurrence) => occurrence.span.start <= offset && offset <= occurrence.span.end;
    return this.declarations.find(hit) ?? this.references.find(hit);
  }

  /** Every occurrence of a name: declarations first, then references, each in document order. */
  occurrencesOf(namespace: Namespace, name: string): Occurrence[] {
    return [...this.declarationsOf(namespace, name), ...this.references.filter((r) => r.namespace === namespace && r.name === name)];
  }

  private declare(statement: Statement, kind: DeclarationKind, name: NameSyntax | undefined): void {
    if (!name || name.text === "") return;
    const namespace: Namespace = kind === "subject" ? "subject" : "node";
    const declaration: Declaration = { name: name.text, namespace, span: spanOf(name), alwaysQuoted: false, quoted: name.quoted, statement, kind };
    const table = namespace === "node" ? this.nodes : this.subjects;
    const list = table.get(name.text);
    if (list) list.push(declaration);
    else table.set(name.text, [declaration]);
    this.declarations.push(declaration);
  }

  private refer(statement: Statement, namespace: Namespace, name: NameSyntax, alwaysQuoted = false): void {
    if (name.text === "") return;
    this.references.push({ name: name.text, namespace, span: spanOf(name), alwaysQuoted, quoted: name.quoted || alwaysQuoted, statement });
  }

  private collect(statement: Statement): void {
    switch (statement.type) {
      case "trigger":
      case "gate":
      case "destination":
        this.declare(statement, statement.type, statement.name);
        break;
      case "part":
        this.declare(statement, "part", statement.name);
        for (const property of statement.block?.properties ?? [])
          if (property.type === "subjects") for (const item of property.items) this.refer(statement, "subject", item);
        break;
      case "subject":
        this.declare(statement, "subject", statement.name);
        break;
      case "chain":
        for (const group of statement.groups) for (const name of group) this.refer(statement, "node", name);
        break;
      case "node": {
        const id = stringMember(statement.value, "id");
        if (id) {
          const declaration: Declaration = { ...id, namespace: "node", alwaysQuoted: true, quoted: true, statement, kind: "node" };
          const list = this.nodes.get(id.name);
          if (list) list.push(declaration);
          else this.nodes.set(id.name, [declaration]);
          this.declarations.push(declaration);
        }
        break;
      }
      case "edge":
        for (const field of ["from", "to"]) {
          const end = stringMember(statement.value, field);
          if (end) this.references.push({ ...end, namespace: "node", alwaysQuoted: true, quoted: true, statement });
        }
        break;
      default:
        break;
    }
  }
}

/** A string member of a JSON object literal (the one JSON keeps): its value and span (quotes included). */
function stringMember(value: JsonLiteral | undefined, key: string): { name: string; span: Span } | undefined {
  const member = stringMemberOf(value, key);
  return member ? { name: String(member.value), span: spanOf(member) } : undefined;
}

/** How a name is written in `.wf` (the DSL's `printName`), or quoted where the text must keep it a string. */
export function writeName(name: string, alwaysQuoted = false): string {
  return alwaysQuoted ? quoteString(name) : printName(name);
}
