/**
 * The canonical layout of `.wf`, shared by the formatter (printing a parsed file) and the
 * decompiler (printing a tree it built): one statement per line; a block, list, JSON literal
 * or chain stays on one line while it fits and holds no comment, else it is written one
 * item per line, indented by two spaces. Every comment is kept: a comment at the end of a
 * line stays at the end of that item's line, a comment on its own line stays before the item
 * that follows it, and any comment the layout cannot place there is kept before its
 * statement. At most one blank line separates statements, as in the source.
 *
 * Layout decisions depend only on the tree and its comments, never on where the text used
 * to break lines, so printing is idempotent.
 */
import {
  ARROW,
  type Block,
  type BlockProperty,
  type ChainStatement,
  type Comment,
  type JsonLiteral,
  type JsonMember,
  type NameSyntax,
  type Statement,
  type SubjectStatement,
  type WfFile,
  type WithClause,
} from "./ast.js";
import { blockOf, DESTINATION_SPEC_TABLE, type Field, fieldNamed, type FieldTable, JOB_TABLE, NODE_TABLES, propertyField, SUBJECT_TABLE, TRIGGER_SPEC_TABLE } from "./fields.js";
import { partitionPoint, type Span, spanOf } from "./positions.js";
import { printName, printVersion } from "./syntax-table.js";
import { jsonEqual } from "@wfkit/core";
import { parse } from "./chunks.js";
import { compileAst } from "./compile.js";
import type { SourceFault } from "./diagnostics.js";

const INDENT = "  ";
/** The widest a list or JSON literal may be to stay on one line. */
const INLINE_WIDTH = 80;
/** The longest a line may grow when a block stays on it. */
const LINE_WIDTH = 100;
/** The widest a chain may be to stay on one line. */
const CHAIN_WIDTH = 100;
/** Literals nested deeper than this are written on one line (the printer recurses per level). */
const MAX_EXPANDED_DEPTH = 200;

export interface PrintOptions {
  /** The source text the tree was parsed from: where blank lines were (none for built trees). */
  text?: string;
  /** For trees without text: whether a blank line goes before statement `index`. */
  blankLineBefore?: (index: number) => boolean;
}

/** Unprinted comments, found by offset. */
class CommentPool {
  private readonly printed = new Set<Comment>();

  constructor(private readonly comments: readonly Comment[]) {}

  /** Comments not yet printed that lie inside `span`. */
  within(span: Span): Comment[] {
    if (this.comments.length === 0) return [];
    const found: Comment[] = [];
    for (let i = this.firstAtOrAfter(span.start); i < this.comments.length; i++) {
      const comment = this.comments[i]!;
      if (comment.start >= span.end) break;
      if (!this.printed.has(comment)) found.push(comment);
    }
    return found;
  }

  any(span: Span): boolean {
    return this.within(span).length > 0;
  }

  take(comment: Comment): string {
    this.printed.add(comment);
    return comment.text.trimEnd();
  }

  private firstAtOrAfter(offset: number): number {
    const comments = this.comments;
    return partitionPoint(comments.length, (i) => comments[i]!.start < offset);
  }
}

/** An item of a one-per-line layout, with the comments that go with it. */
interface LaidOutItem<T> {
  item: T;
  leading: Comment[];
  trailing: Comment | undefined;
}

export class Printer {
  private readonly pool: CommentPool;
  private readonly text: string | undefined;

  constructor(
    private readonly file: WfFile,
    private readonly options: PrintOptions = {},
  ) {
    this.pool = new CommentPool(file.comments);
    this.text = options.text;
  }

  print(): string {
    const out: string[] = [];
    const statements = this.file.statements.filter((statement) => statement.type !== "invalid");
    const entries = this.layOut(statements, (statement) => spanOf(statement), { start: 0, end: Number.MAX_SAFE_INTEGER });
    let previousEnd: number | undefined;
    entries.items.forEach((entry, index) => {
      const start = entry.leading[0]?.start ?? entry.item.start;
      if (index > 0 && this.blankBefore(index, previousEnd, start)) out.push("");
      this.printLeading(out, entry.leading, "");
      // Comments inside the statement that its layout cannot place are kept before it.
      const body = this.printStatement(entry.item);
      const orphans = this.pool.within(spanOf(entry.item));
      for (const orphan of orphans) out.push(this.pool.take(orphan));
      out.push(withTrailing(body, entry.trailing, this.pool));
      previousEnd = entry.trailing?.end ?? entry.item.end;
    });
    if (entries.dangling.length) {
      const start = entries.dangling[0]!.start;
      if (out.length && this.blankBefore(entries.items.length, previousEnd, start)) out.push("");
      this.printLeading(out, entries.dangling, "");
    }
    return out.length ? out.join("\n") + "\n" : "";
  }

  private blankBefore(index: number, previousEnd: number | undefined, start: number): boolean {
    if (this.text === undefined) return this.options.blankLineBefore?.(index) ?? false;
    if (previousEnd === undefined) return false;
    return countLineBreaks(this.text, previousEnd, start) >= 2;
  }

  private printLeading(out: string[], comments: Comment[], indent: string): void {
    let previousEnd: number | undefined;
    for (const comment of comments) {
      if (this.text !== undefined && previousEnd !== undefined && countLineBreaks(this.text, previousEnd, comment.start) >= 2) out.push("");
      out.push(indent + this.pool.take(comment));
      previousEnd = comment.end;
    }
  }

  /**
   * Assigns the comments of a container to its items: a comment on the same line as the end of
   * an item trails it; any other comment leads the next item, or dangles before the container
   * closes. Comments inside an item are left for the item's own layout.
   */
  private layOut<T>(items: readonly T[], spanOf: (item: T) => Span, container: Span): { items: LaidOutItem<T>[]; dangling: Comment[] } {
    const laidOut: LaidOutItem<T>[] = items.map((item) => ({ item, leading: [], trailing: undefined }));
    const dangling: Comment[] = [];
    const comments = this.pool.within(container);
    if (comments.length === 0) return { items: laidOut, dangling };
    let index = 0;
    for (const comment of comments) {
      while (index < items.length && spanOf(items[index]!).end <= comment.start) index++;
      const current = items[index];
      if (current && spanOf(current).start < comment.end) continue; // inside an item
      const previous = laidOut[index - 1];
      if (previous && !previous.trailing && this.text !== undefined && countLineBreaks(this.text, spanOf(previous.item).end, comment.start) === 0) {
        previous.trailing = comment;
      } else if (laidOut[index]) {
        laidOut[index]!.leading.push(comment);
      } else {
        dangling.push(comment);
      }
    }
    return { items: laidOut, dangling };
  }

  // ---------------------------------------------------------------- statements

  private printStatement(statement: Statement): string {
    switch (statement.type) {
      case "workflow":
        return join(["workflow", statement.name && JSON.stringify(statement.name.text), this.withText(statement.with, "")]);
      case "subject":
        return this.printSubject(statement);
      case "trigger":
      case "part":
      case "gate":
      case "destination":
        return this.fieldsText([statement.type], NODE_TABLES[statement.type], statement, "", 0);
      case "node":
      case "edge":
      case "document":
        return join([statement.type, statement.value && this.literalText(statement.value, "", 0)]);
      case "version":
        return join(["version", statement.block ? this.blockText(statement.block, true, "", 8) : "{}"]);
      case "chain":
        return this.printChain(statement);
      case "invalid":
        return "";
    }
  }

  private printSubject(statement: SubjectStatement): string {
    const body = statement.body;
    const head = `subject ${statement.name && printName(statement.name.text)} =`;
    if (!body) return head;
    if (body.type === "raw") return `${head} ${this.literalText(body.value, "", 0)}`;
    return this.fieldsText([head], SUBJECT_TABLE, body, "", 0);
  }

  private printChain(statement: ChainStatement): string {
    const groups = statement.groups.map((group) => group.map((name) => printName(name.text)).join(", "));
    const withPart = this.withText(statement.with, INDENT);
    const inline = groups.join(" -> ") + (withPart ? ` ${withPart}` : "");
    if (!this.pool.any(spanOf(statement)) && !inline.includes("\n") && inline.length <= CHAIN_WIDTH) return inline;
    // One link per line; comments between links stay with the link they follow or precede.
    const links = statement.arrows.map((arrow, index) => ({ span: { start: arrow, end: groupEnd(statement.groups[index + 1]) ?? arrow + ARROW.length }, text: groups[index + 1] ?? "" }));
    const firstGroupSpan = { start: statement.start, end: groupEnd(statement.groups[0]) ?? statement.start };
    const laidOut = this.layOut([{ span: firstGroupSpan, text: groups[0] ?? "" }, ...links], (link) => link.span, spanOf(statement));
    const lines: string[] = [];
    laidOut.items.forEach((entry, index) => {
      const indent = index === 0 ? "" : INDENT;
      for (const comment of entry.leading) lines.push(indent + this.pool.take(comment));
      const isLast = index === laidOut.items.length - 1;
      const text = (index === 0 ? "" : indent + "-> ") + entry.item.text + (isLast && withPart ? ` ${withPart}` : "");
      lines.push(withTrailing(text, entry.trailing, this.pool));
    });
    for (const comment of laidOut.dangling) lines.push(INDENT + this.pool.take(comment));
    return lines.join("\n");
  }

  // ---------------------------------------------------------------- parts of statements

  /**
   * An element's text by its field table (see fields.ts), after `words`: its fields as the
   * text writes them, then its block and its `with`. `column` is where `words` start on the
   * line.
   */
  private fieldsText(words: string[], table: FieldTable, element: object, indent: string, column: number): string {
    // Where the next word starts: a block or list stays inline only within LINE_WIDTH.
    const next = () => column + (words.length ? join(words).length + 1 : 0);
    const syntaxOf = (field: Field) => (field.key === undefined ? undefined : (element as Record<string, { text: string; value?: JsonLiteral } | undefined>)[field.key]);
    for (const field of table.written) {
      const syntax = syntaxOf(field);
      // The keyword is written first; block properties are written by their block.
      if (!syntax || field.form === "type") continue;
      if (field.mark) words.push(field.mark);
      if (field.form === "version") {
        if (syntaxOf(fieldNamed(table, field.after!)!)) words[words.length - 1] += printVersion(syntax.text);
      } else if (field.form === "literal") words.push(join([field.keyword, syntax.value && this.literalText(syntax.value, "", 0)]));
      else if (typeof field.form === "string") words.push(valueText(field, syntax.text));
      else words.push(this.fieldsText([], field.form, syntax, indent, next()));
    }
    const block = table.block && blockOf(table, element);
    if (block) words.push(this.blockText(block, false, indent, next()));
    if (!table.block) words.push(this.withText((element as { with?: WithClause }).with, indent) ?? "");
    return join(words);
  }

  private withText(clause: WithClause | undefined, indent: string): string | undefined {
    if (!clause) return undefined;
    return join(["with", clause.value && this.literalText(clause.value, indent, 0)]);
  }

  /**
   * A block, on one line when it fits (from `column`) and has no comment. A block-level `with`
   * right after `job` forces one property per line: on one line it would read as the job's.
   */
  private blockText(block: Block, expandAlways: boolean, indent: string, column: number): string {
    const inner = indent + INDENT;
    const properties = block.properties;
    if (properties.length === 0 && !this.pool.any(spanOf(block))) return "{}";
    const expand =
      expandAlways ||
      this.pool.any(spanOf(block)) ||
      properties.some((property, index) => property.type === "with" && properties[index - 1]?.type === "job") ||
      properties.some((property) => this.propertyText(property, inner).includes("\n"));
    if (!expand) {
      const inline = `{ ${properties.map((property) => this.propertyText(property, inner)).join(" ")} }`;
      if (indent.length + column + inline.length <= LINE_WIDTH) return inline;
    }
    return this.onePerLine(properties, (property) => this.propertyText(property, inner), ["{", "}"], { start: block.open + 1, end: block.close ?? block.end }, indent, "");
  }

  private propertyText(property: BlockProperty, indent: string): string {
    switch (property.type) {
      case "schedule":
      case "timezone":
        return join([property.type, property.value && valueText(propertyField(property.type)!, property.value.text)]);
      case "job":
        return this.fieldsText(["job"], JOB_TABLE, property, indent, 0);
      case "subjects":
        return `subjects ${this.listText(property.items, spanOf(property), indent)}`;
      case "with":
        return this.withText(property.clause, indent) ?? "with";
      case "trigger":
      case "destination":
        return join([property.type, property.spec && this.fieldsText([], property.type === "trigger" ? TRIGGER_SPEC_TABLE : DESTINATION_SPEC_TABLE, property.spec, indent, property.type.length + 1)]);
      case "scope":
        return join(["scope", this.withText(property.with, indent)]);
    }
  }

  private listText(items: NameSyntax[], span: Span, indent: string): string {
    const names = items.map((item) => printName(item.text));
    const inline = `[${names.join(", ")}]`;
    if (!this.pool.any(span) && inline.length <= INLINE_WIDTH) return inline;
    return this.onePerLine(items, (item) => printName(item.text), ["[", "]"], span, indent, ",");
  }

  // ---------------------------------------------------------------- JSON literals

  literalText(literal: JsonLiteral, indent: string, depth: number): string {
    if (literal.type !== "object" && literal.type !== "array") return literal.raw;
    const inline = depth >= MAX_EXPANDED_DEPTH ? compactLiteral(literal) : this.inlineLiteral(literal);
    if (inline !== undefined) return inline;
    const inner = indent + INDENT;
    const inside = { start: literal.start + 1, end: literal.end - 1 };
    if (literal.type === "array") return this.onePerLine(literal.elements, (element) => this.literalText(element, inner, depth + 1), ["[", "]"], inside, indent, ",");
    const memberText = (member: JsonMember) => `${JSON.stringify(member.key.text)}: ${member.value ? this.literalText(member.value, inner, depth + 1) : "null"}`;
    return this.onePerLine(literal.members, memberText, ["{", "}"], inside, indent, ",");
  }

  /**
   * Items one per line between `open` and `close`, indented one level further than `indent`,
   * each with its comments (see layOut) and followed by `separator` but the last.
   */
  private onePerLine<T extends Span>(items: readonly T[], text: (item: T) => string, [open, close]: [string, string], container: Span, indent: string, separator: string): string {
    const inner = indent + INDENT;
    const laidOut = this.layOut(items, (item) => item, container);
    const lines = [open];
    laidOut.items.forEach((entry, index) => {
      for (const comment of entry.leading) lines.push(inner + this.pool.take(comment));
      const after = index < items.length - 1 ? separator : "";
      lines.push(withTrailing(inner + text(entry.item) + after, entry.trailing, this.pool));
    });
    for (const comment of laidOut.dangling) lines.push(inner + this.pool.take(comment));
    lines.push(indent + close);
    return lines.join("\n");
  }

  /** The literal on one line, if it has no comments and is narrow enough; else undefined. */
  private inlineLiteral(literal: JsonLiteral): string | undefined {
    if (this.pool.any(spanOf(literal))) return undefined;
    const text = compactLiteral(literal, INLINE_WIDTH + 1);
    return text.length <= INLINE_WIDTH ? text : undefined;
  }
}

/**
 * A literal on one line (`{"a": [1, 2]}`), built with an explicit stack so that nesting depth
 * never meets the call stack. Stops early once longer than `limit`.
 */
export function compactLiteral(literal: JsonLiteral, limit = Infinity): string {
  let out = "";
  type Step = { literal: JsonLiteral } | { text: string };
  const stack: Step[] = [{ literal }];
  while (stack.length && out.length <= limit) {
    const step = stack.pop()!;
    if ("text" in step) {
      out += step.text;
      continue;
    }
    const current = step.literal;
    if (current.type === "object") {
      const steps: Step[] = [{ text: "{" }];
      current.members.forEach((member, index) => {
        if (index > 0) steps.push({ text: ", " });
        steps.push({ text: `${JSON.stringify(member.key.text)}: ` });
        steps.push(member.value ? { literal: member.value } : { text: "null" });
      });
      steps.push({ text: "}" });
      for (let i = steps.length - 1; i >= 0; i--) stack.push(steps[i]!);
    } else if (current.type === "array") {
      const steps: Step[] = [{ text: "[" }];
      current.elements.forEach((element, index) => {
        if (index > 0) steps.push({ text: ", " });
        steps.push({ literal: element });
      });
      steps.push({ text: "]" });
      for (let i = steps.length - 1; i >= 0; i--) stack.push(steps[i]!);
    } else {
      out += current.raw;
    }
  }
  return out;
}

/** A name or string field's value as written: a `string` always quoted, a `name` bare when it can be. */
function valueText(field: Field, text: string): string {
  return field.form === "string" ? JSON.stringify(text) : printName(text);
}

function join(parts: (string | undefined | false)[]): string {
  return parts.filter((part): part is string => typeof part === "string" && part !== "").join(" ");
}

function withTrailing(text: string, trailing: Comment | undefined, pool: CommentPool): string {
  return trailing ? `${text}  ${pool.take(trailing)}` : text;
}

function groupEnd(group: NameSyntax[] | undefined): number | undefined {
  return group?.[group.length - 1]?.end;
}

function countLineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) count++;
    else if (code === 13 && text.charCodeAt(i + 1) !== 10) count++;
  }
  return count;
}

/** Prints a whole tree canonically. */
export function printFile(file: WfFile, options: PrintOptions = {}): string {
  return new Printer(file, options).print();
}

// ---------------------------------------------------------------- the formatter

// `.wf` text in the one canonical layout above. It keeps every comment and never changes
// meaning: the result is checked to compile to the same JSON with the same comments, and if
// it ever did not, the text is returned unchanged.

export interface FormatResult {
  /** The formatted text; the input itself when it has syntax errors. */
  text: string;
  changed: boolean;
  /** Syntax errors that prevented formatting (empty when the text was formatted). */
  faults: SourceFault[];
}

/** Formats `.wf` text. Text with syntax errors is returned unchanged, with the errors. */
export function format(text: string): FormatResult {
  const parsed = parse(text);
  const errors = parsed.faults.filter((fault) => fault.severity === "error");
  if (errors.length) return { text, changed: false, faults: parsed.faults };
  const bom = text.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
  // Keep the file's line ending (that of its first line break).
  const lineEnding = /\r\n|\r|\n/.exec(text)?.[0] ?? "\n";
  let printed = printFile(parsed.ast, { text });
  if (lineEnding !== "\n") printed = printed.replace(/\n/g, lineEnding);
  printed = bom + printed;
  if (printed === text) return { text, changed: false, faults: [] };
  if (!sameMeaning(text, parsed.ast, printed)) return { text, changed: false, faults: [] };
  return { text: printed, changed: true, faults: [] };
}

/** The formatted text compiles to the same JSON and keeps every comment. */
function sameMeaning(original: string, originalAst: ReturnType<typeof parse>["ast"], printed: string): boolean {
  const reparsed = parse(printed);
  if (reparsed.faults.some((fault) => fault.severity === "error")) return false;
  const commentTexts = (comments: { text: string }[]) => comments.map((comment) => comment.text.trimEnd()).sort();
  if (JSON.stringify(commentTexts(originalAst.comments)) !== JSON.stringify(commentTexts(reparsed.ast.comments))) return false;
  const before = compileAst(originalAst, original);
  const after = compileAst(reparsed.ast, printed);
  return before.workflowName === after.workflowName && jsonEqual(before.definition, after.definition);
}
