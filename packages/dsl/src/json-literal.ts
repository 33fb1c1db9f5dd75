/**
 * JSON literals inside `.wf` (`with { ... }`, `node { ... }`, `identifiers [...]`), built a
 * token at a time by one builder for both parsers: the fast parser feeds it as it scans, the
 * chevrotain grammar each token its `jsonLiteral` rule consumes, as it consumes it.
 *
 * It keeps an explicit stack of open containers, so reading never touches the call stack,
 * and refuses nesting past `MAX_JSON_DEPTH` as a `.json` file is refused (what comes after a
 * literal, its value as JSON text above all, walks it recursively). A malformed literal
 * yields one clear problem, at the first place it goes wrong, and the part read so far.
 */
import type { JsonArrayLiteral, JsonLiteral, JsonMember, JsonObjectLiteral, JsonScalarLiteral } from "./ast.js";
import { spanOf } from "./positions.js";
import { decodeString } from "./syntax-table.js";
import { type LiteralProblem, MAX_JSON_DEPTH, tooDeeplyNestedMessage } from "./json-value.js";

/** Why a literal cannot be read, and where. */
type SyntaxProblem = Pick<LiteralProblem, "span" | "message">;

/** The tokens of a literal, as the builder tells them apart. */
export const JsonKind = { openObject: 0, closeObject: 1, openArray: 2, closeArray: 3, comma: 4, colon: 5, string: 6, number: 7, true: 8, false: 9, null: 10 } as const;
export type JsonKind = (typeof JsonKind)[keyof typeof JsonKind];

// What an open container takes next.
const KEY_OR_END = 0;
const KEY = 1;
const COLON = 2;
const VALUE = 3;
const COMMA_OR_END = 4;
const VALUE_OR_END = 5;

export class JsonLiteralBuilder {
  literal: JsonLiteral | undefined;
  problem: SyntaxProblem | undefined;
  private readonly open: Array<JsonObjectLiteral | JsonArrayLiteral> = [];
  private readonly states: number[] = [];
  private lastStart = -1;
  private lastEnd = -1;

  /** `text`: what the offsets of the tokens index. */
  constructor(private readonly text: string) {}

  /** True once the value is whole: nothing more belongs to it. */
  get complete(): boolean {
    return this.literal !== undefined && this.open.length === 0;
  }

  /** Takes the next token; sets `problem` where it cannot go on (then take no more). */
  add(kind: JsonKind, start: number, end: number): void {
    const depth = this.open.length;
    const container = depth ? this.open[depth - 1]! : undefined;
    const state = depth ? this.states[depth - 1]! : VALUE;
    const inObject = container?.type === "object";
    const wantsValue = container ? state === VALUE || state === VALUE_OR_END : this.literal === undefined;
    if (wantsValue && (kind === JsonKind.openObject || kind === JsonKind.openArray)) {
      if (depth >= MAX_JSON_DEPTH) {
        this.problem = { span: { start, end }, message: tooDeeplyNestedMessage("a JSON literal") };
        return;
      }
      const node: JsonObjectLiteral | JsonArrayLiteral = kind === JsonKind.openObject ? { type: "object", members: [], start, end } : { type: "array", elements: [], start, end };
      this.attach(node);
      // A container's own state moves on only when it closes; `attach` set its parent's.
      this.open.push(node);
      this.states.push(node.type === "object" ? KEY_OR_END : VALUE_OR_END);
    } else if (wantsValue && kind >= JsonKind.string) {
      this.attach(this.scalar(kind, start, end));
    } else if (inObject && (state === KEY_OR_END || state === KEY) && kind === JsonKind.string) {
      const key = { text: this.stringAt(start, end), quoted: true, start, end };
      (container as JsonObjectLiteral).members.push({ key, value: undefined, start, end });
      this.states[depth - 1] = COLON;
    } else if (inObject && state === COLON && kind === JsonKind.colon) {
      this.states[depth - 1] = VALUE;
    } else if (container && state === COMMA_OR_END && kind === JsonKind.comma) {
      this.states[depth - 1] = inObject ? KEY : VALUE;
    } else if (container && (state === COMMA_OR_END || state === (inObject ? KEY_OR_END : VALUE_OR_END)) && kind === (inObject ? JsonKind.closeObject : JsonKind.closeArray)) {
      this.close(end);
    } else {
      const last = this.lastStart < 0 ? "" : ` after \`${this.text.slice(this.lastStart, this.lastEnd)}\``;
      this.problem = { span: { start, end }, message: `expected ${this.expected(container, state)}${last}, found \`${this.text.slice(start, end)}\`` };
      return;
    }
    this.lastStart = start;
    this.lastEnd = end;
  }

  /** The literal read, and its problem: the first place it went wrong, or a container left open. */
  finish(): { literal: JsonLiteral | undefined; problem: SyntaxProblem | undefined } {
    const open = this.open[this.open.length - 1];
    if (!this.problem && open) {
      const closer = open.type === "object" ? "`}`" : "`]`";
      const at = this.lastStart < 0 ? spanOf(open) : { start: this.lastStart, end: this.lastEnd };
      const after = this.lastStart < 0 ? "" : ` (after \`${this.text.slice(this.lastStart, this.lastEnd)}\`)`;
      this.problem = { span: at, message: `expected ${closer} to close the ${open.type} opened here${after}` };
    }
    // Close whatever is still open at the last token read, so every span covers its content.
    for (const container of this.open) container.end = Math.max(container.end, this.lastEnd);
    return { literal: this.literal, problem: this.problem };
  }

  private attach(value: JsonLiteral): void {
    const depth = this.open.length;
    if (depth === 0) {
      this.literal = value;
      return;
    }
    const container = this.open[depth - 1]!;
    if (container.type === "array") {
      container.elements.push(value);
    } else {
      const member = container.members[container.members.length - 1]!;
      member.value = value;
      member.end = value.end;
    }
    this.states[depth - 1] = COMMA_OR_END;
  }

  private close(end: number): void {
    const node = this.open.pop()!;
    this.states.pop();
    // At its exact size: an array grown by `push` keeps room for more, and a large file's
    // tree may hold tens of thousands of literals (the garbage collector's work grows with it).
    if (node.type === "object") node.members = node.members.slice();
    else node.elements = node.elements.slice();
    node.end = end;
    const parent = this.open[this.open.length - 1];
    if (parent?.type === "object") (parent.members[parent.members.length - 1] as JsonMember).end = end;
  }

  private scalar(kind: JsonKind, start: number, end: number): JsonScalarLiteral {
    const raw = this.text.slice(start, end);
    switch (kind) {
      case JsonKind.string:
        return { type: "string", value: this.stringAt(start, end), raw, start, end };
      case JsonKind.number:
        return { type: "number", value: Number(raw), raw, start, end };
      case JsonKind.null:
        return { type: "null", value: null, raw, start, end };
      default:
        return { type: "boolean", value: kind === JsonKind.true, raw, start, end };
    }
  }

  /** The value of the string token at `start` (decoded only when it holds an escape). */
  private stringAt(start: number, end: number): string {
    const body = this.text.slice(start + 1, end - 1);
    return body.includes("\\") ? decodeString(this.text.slice(start, end)) : body;
  }

  private expected(container: JsonObjectLiteral | JsonArrayLiteral | undefined, state: number): string {
    if (!container) return "the end of the JSON value";
    if (container.type === "array") return state === COMMA_OR_END ? "`,` or `]`" : state === VALUE ? "a JSON value" : "a JSON value or `]`";
    switch (state) {
      case KEY_OR_END:
        return "a field name in double quotes or `}`";
      case KEY:
        return "a field name in double quotes (JSON allows no comma before `}`)";
      case COLON:
        return "`:`";
      case VALUE:
        return "a JSON value";
      default:
        return "`,` or `}`";
    }
  }
}
