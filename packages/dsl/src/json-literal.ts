/**
 * JSON literals inside `.wf` (`with { ... }`, `node { ... }`, `identifiers [...]`).
 *
 * The parser consumes a literal as a flat run of tokens (brackets counted, not recursed), and
 * this module builds its tree with an explicit stack, so reading never touches the call
 * stack. Nesting past `MAX_JSON_DEPTH` is refused as it is in a `.json` file (what comes
 * after a literal, its value as JSON text above all, walks it recursively). A malformed
 * literal yields one clear error and the part that could be read.
 */
import type { IToken } from "chevrotain";
import type { JsonArrayLiteral, JsonLiteral, JsonMember, JsonObjectLiteral, JsonScalarLiteral, NameSyntax } from "./ast.js";
import { Colon, Comma, Keywords, LBrace, LBracket, Newline, NumberLiteral, RBrace, RBracket, StringLiteral } from "./lexer.js";
import { type Span, spanOf } from "./positions.js";
import { decodeString } from "./syntax-table.js";
import { MAX_JSON_DEPTH, tooDeeplyNestedMessage } from "./json-value.js";

export interface LiteralProblem {
  span: Span;
  message: string;
}

type Frame =
  | { kind: "object"; node: JsonObjectLiteral; state: "keyOrEnd" | "key" | "colon" | "value" | "commaOrEnd"; member?: JsonMember }
  | { kind: "array"; node: JsonArrayLiteral; state: "valueOrEnd" | "value" | "commaOrEnd" };

export function tokenSpan(token: IToken): Span {
  return { start: token.startOffset, end: token.startOffset + token.image.length };
}

/** Builds a literal from its tokens. Reports at most one problem: the first place it goes wrong. */
export function buildJsonLiteral(tokens: readonly IToken[]): { literal: JsonLiteral | undefined; problem: LiteralProblem | undefined } {
  let root: JsonLiteral | undefined;
  const stack: Frame[] = [];
  let problem: LiteralProblem | undefined;
  let last: IToken | undefined;

  const attach = (value: JsonLiteral): void => {
    const frame = stack[stack.length - 1];
    if (!frame) {
      root = value;
    } else if (frame.kind === "array") {
      frame.node.elements.push(value);
      frame.state = "commaOrEnd";
    } else if (frame.member) {
      frame.member.value = value;
      frame.member.end = value.end;
      frame.state = "commaOrEnd";
    }
  };

  const fail = (token: IToken, expected: string): void => {
    const found = token.tokenType === Newline ? "" : `, found \`${token.image}\``;
    problem = { span: tokenSpan(token), message: `expected ${expected}${last ? ` after \`${last.image}\`` : ""}${found}` };
  };

  const expectation = (frame: Frame | undefined): string => {
    if (!frame) return "the end of the JSON value";
    if (frame.kind === "array") return frame.state === "commaOrEnd" ? "`,` or `]`" : frame.state === "value" ? "a JSON value" : "a JSON value or `]`";
    switch (frame.state) {
      case "keyOrEnd":
        return "a field name in double quotes or `}`";
      case "key":
        return "a field name in double quotes (JSON allows no comma before `}`)";
      case "colon":
        return "`:`";
      case "value":
        return "a JSON value";
      default:
        return "`,` or `}`";
    }
  };

  for (const token of tokens) {
    if (token.tokenType === Newline) continue;
    const frame = stack[stack.length - 1];
    const type = token.tokenType;
    const wantsValue = !frame ? root === undefined : frame.kind === "array" ? frame.state !== "commaOrEnd" : frame.state === "value";

    if (wantsValue && (type === LBrace || type === LBracket)) {
      if (stack.length >= MAX_JSON_DEPTH) {
        problem = { span: tokenSpan(token), message: tooDeeplyNestedMessage("a JSON literal") };
        break;
      }
      const { start, end } = tokenSpan(token);
      const node: JsonObjectLiteral | JsonArrayLiteral = type === LBrace ? { type: "object", members: [], start, end } : { type: "array", elements: [], start, end };
      attach(node);
      // A container's own state moves on only when it closes; `attach` set its parent's.
      stack.push(node.type === "object" ? { kind: "object", node, state: "keyOrEnd" } : { kind: "array", node, state: "valueOrEnd" });
    } else if (wantsValue && isScalarToken(type)) {
      attach(scalarOf(token));
    } else if (frame?.kind === "object" && (frame.state === "keyOrEnd" || frame.state === "key") && type === StringLiteral) {
      const key: NameSyntax = { text: decodeString(token.image), quoted: true, ...tokenSpan(token) };
      frame.member = { key, value: undefined, start: key.start, end: key.end };
      frame.node.members.push(frame.member);
      frame.state = "colon";
    } else if (frame?.kind === "object" && frame.state === "colon" && type === Colon) {
      frame.state = "value";
    } else if (frame && frame.state === "commaOrEnd" && type === Comma) {
      frame.state = frame.kind === "object" ? "key" : "value";
      if (frame.kind === "object") frame.member = undefined;
    } else if (frame?.kind === "object" && (frame.state === "keyOrEnd" || frame.state === "commaOrEnd") && type === RBrace) {
      closeFrame(stack, token);
    } else if (frame?.kind === "array" && (frame.state === "valueOrEnd" || frame.state === "commaOrEnd") && type === RBracket) {
      closeFrame(stack, token);
    } else {
      fail(token, expectation(frame));
      break;
    }
    last = token;
  }

  if (!problem && stack.length > 0) {
    const open = stack[stack.length - 1]!;
    const closer = open.kind === "object" ? "`}`" : "`]`";
    const at = last ? tokenSpan(last) : spanOf(open.node);
    problem = { span: at, message: `expected ${closer} to close the ${open.kind === "object" ? "object" : "array"} opened here${last ? ` (after \`${last.image}\`)` : ""}` };
  }
  // Close whatever is still open at the last token read, so every span covers its content.
  const end = last ? tokenSpan(last).end : 0;
  while (stack.length) {
    const frame = stack.pop()!;
    frame.node.end = Math.max(frame.node.end, end);
  }
  return { literal: root, problem };
}

function closeFrame(stack: Frame[], token: IToken): void {
  const frame = stack.pop()!;
  frame.node.end = token.startOffset + token.image.length;
  const parent = stack[stack.length - 1];
  if (parent?.kind === "object" && parent.member) parent.member.end = frame.node.end;
}

function isScalarToken(type: IToken["tokenType"]): boolean {
  return type === StringLiteral || type === NumberLiteral || type === Keywords.true || type === Keywords.false || type === Keywords.null;
}

function scalarOf(token: IToken): JsonScalarLiteral {
  const { start, end } = tokenSpan(token);
  const raw = token.image;
  switch (token.tokenType) {
    case StringLiteral:
      return { type: "string", value: decodeString(raw), raw, start, end };
    case NumberLiteral:
      return { type: "number", value: Number(raw), raw, start, end };
    case Keywords.null:
      return { type: "null", value: null, raw, start, end };
    default:
      return { type: "boolean", value: raw === "true", raw, start, end };
  }
}

export function isJsonContainer(literal: JsonLiteral | undefined): literal is JsonObjectLiteral | JsonArrayLiteral {
  return literal?.type === "object" || literal?.type === "array";
}
