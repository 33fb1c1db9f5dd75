/**
 * A symbol index of a `.wf` tree: where each node and subject is declared and where it is
 * referred to, for the language server (go to definition, find references, rename, outline,
 * completion of names).
 */
import type { JsonLiteral, NameSyntax, Statement, WfFile } from "./ast.js";
import { stringMemberOf } from "./json-convert.js";
import { type Span, spanOf } from "./positions.js";
import { printVersion } from "./syntax-table.js";

export type SymbolKind = "node" | "subject";

export interface SymbolDeclaration {
  kind: SymbolKind;
  name: string;
  /** The name as written (for a JSON node, its `"id"` string, quotes included). */
  span: Span;
  /** The whole declaring statement. */
  statement: Statement;
  /** What declares it: `trigger`, `part`, `gate`, `destination`, `node` (JSON) or `subject`. */
  declaredBy: Statement["type"];
  /** A short description for outlines and hovers: `terminal.compare@1`, `company "cmp_tesco"`. */
  detail: string;
  /** True for the id of a `node {...}`: renaming it means editing JSON text. */
  inJson: boolean;
}

export interface SymbolReference {
  kind: SymbolKind;
  name: string;
  span: Span;
  statement: Statement;
  /** True for `"from"`/`"to"` strings of an `edge {...}`. */
  inJson: boolean;
}

export interface SymbolAt {
  kind: SymbolKind;
  name: string;
  span: Span;
  isDeclaration: boolean;
}

export class SymbolIndex {
  private readonly byName = new Map<string, { declarations: SymbolDeclaration[]; references: SymbolReference[] }>();

  constructor(
    readonly declarations: readonly SymbolDeclaration[],
    readonly references: readonly SymbolReference[],
  ) {
    for (const declaration of declarations) this.entry(declaration.kind, declaration.name).declarations.push(declaration);
    for (const reference of references) this.entry(reference.kind, reference.name).references.push(reference);
  }

  /** Declarations of a name (more than one means `duplicate-name`). */
  declarationsOf(kind: SymbolKind, name: string): SymbolDeclaration[] {
    return this.byName.get(key(kind, name))?.declarations ?? [];
  }

  referencesTo(kind: SymbolKind, name: string): SymbolReference[] {
    return this.byName.get(key(kind, name))?.references ?? [];
  }

  /** The declaration or reference whose name covers `offset` (its end included, as a cursor sits). */
  symbolAt(offset: number): SymbolAt | undefined {
    const covers = (span: Span) => span.start <= offset && offset <= span.end;
    const declaration = this.declarations.find((candidate) => covers(candidate.span));
    if (declaration) return { kind: declaration.kind, name: declaration.name, span: declaration.span, isDeclaration: true };
    const reference = this.references.find((candidate) => covers(candidate.span));
    if (reference) return { kind: reference.kind, name: reference.name, span: reference.span, isDeclaration: false };
    return undefined;
  }

  /** Names declared of a kind, in declaration order (first declarations only). */
  names(kind: SymbolKind): string[] {
    const names = new Set<string>();
    for (const declaration of this.declarations) if (declaration.kind === kind) names.add(declaration.name);
    return [...names];
  }

  private entry(kind: SymbolKind, name: string) {
    const entryKey = key(kind, name);
    let entry = this.byName.get(entryKey);
    if (!entry) {
      entry = { declarations: [], references: [] };
      this.byName.set(entryKey, entry);
    }
    return entry;
  }
}

function key(kind: SymbolKind, name: string): string {
  return `${kind}\u0000${name}`;
}

/** Collects the declarations and references of nodes and subjects of a tree. */
export function collectSymbols(ast: WfFile): SymbolIndex {
  const declarations: SymbolDeclaration[] = [];
  const references: SymbolReference[] = [];
  const declare = (kind: SymbolKind, name: NameSyntax | undefined, statement: Statement, detail: string, inJson = false) => {
    if (name) declarations.push({ kind, name: name.text, span: spanOf(name), statement, declaredBy: statement.type, detail, inJson });
  };
  const refer = (kind: SymbolKind, name: NameSyntax, statement: Statement, inJson = false) => {
    references.push({ kind, name: name.text, span: spanOf(name), statement, inJson });
  };
  for (const statement of ast.statements) {
    switch (statement.type) {
      case "subject": {
        const body = statement.body;
        const detail = body?.type === "typed" ? `${body.kind.text}${body.canonicalId ? ` ${JSON.stringify(body.canonicalId.text)}` : ""}${body.label ? ` ${JSON.stringify(body.label.text)}` : ""}` : "subject (JSON)";
        declare("subject", statement.name, statement, detail);
        break;
      }
      case "trigger":
      case "destination":
        declare("node", statement.name, statement, `${statement.type} ${statement.spec?.kind.text ?? ""}`.trim());
        break;
      case "gate":
        declare("node", statement.name, statement, `gate ${statement.belowFloor?.text ?? ""}`.trim());
        break;
      case "part": {
        declare("node", statement.name, statement, statement.partId ? `${statement.partId.text}${statement.version ? printVersion(statement.version.text) : ""}` : "part");
        for (const property of statement.block?.properties ?? []) {
          if (property.type === "subjects") for (const item of property.items) refer("subject", item, statement);
        }
        break;
      }
      case "node":
        declare("node", stringMember(statement.value, "id"), statement, "node (JSON)", true);
        break;
      case "chain":
        for (const group of statement.groups) for (const name of group) refer("node", name, statement);
        break;
      case "edge":
        for (const field of ["from", "to"]) {
          const end = stringMember(statement.value, field);
          if (end) refer("node", end, statement, true);
        }
        break;
      default:
        break;
    }
  }
  return new SymbolIndex(declarations, references);
}

/** A string member of a JSON literal as a name (quoted, placed at the string). */
function stringMember(literal: JsonLiteral | undefined, field: string): NameSyntax | undefined {
  const value = stringMemberOf(literal, field);
  return value ? { text: value.value as string, quoted: true, start: value.start, end: value.end } : undefined;
}
