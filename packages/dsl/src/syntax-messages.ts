/**
 * Syntax error messages in the words of the language ("expected `->` or a new line after
 * `compare`"), never chevrotain's token names.
 */
import { EOF, type IParserErrorMessageProvider, type IToken, type TokenType } from "chevrotain";
import {
  Arrow,
  At,
  Colon,
  Comma,
  Equals,
  JsonToken,
  Keywords,
  LBrace,
  LBracket,
  Name,
  Newline,
  NonNewline,
  NumberLiteral,
  RBrace,
  RBracket,
  StringLiteral,
  UnterminatedString,
  VersionLiteral,
} from "./lexer.js";

const LABELS = new Map<TokenType, string>([
  [Newline, "a new line"],
  [EOF, "the end of the file"],
  [Arrow, "`->`"],
  [NumberLiteral, "a number"],
  [StringLiteral, "a quoted string"],
  [UnterminatedString, "a quoted string"],
  [VersionLiteral, "a version such as `@1`"],
  [At, "`@`"],
  [LBrace, "`{`"],
  [RBrace, "`}`"],
  [LBracket, "`[`"],
  [RBracket, "`]`"],
  [Comma, "`,`"],
  [Colon, "`:`"],
  [Equals, "`=`"],
  [Name, "a name"],
  [NonNewline, "more on this line"],
  [JsonToken, "JSON"],
]);
for (const [word, type] of Object.entries(Keywords)) LABELS.set(type, `\`${word}\``);

function labelOf(type: TokenType): string {
  return LABELS.get(type) ?? `\`${type.name}\``;
}

/** How an actual token is named in a message. */
export function describeToken(token: IToken | undefined): string {
  if (!token || token.tokenType === EOF) return "the end of the file";
  if (token.tokenType === Newline) return "the end of the line";
  const image = token.image.length > 30 ? token.image.slice(0, 30) + "…" : token.image;
  return `\`${image}\``;
}

/**
 * Joins what was expected into words: "a name", "`->` or a new line", "`{`, `with` or a new line".
 * A name and a quoted string together are just "a name" (a quoted name is a name); keywords
 * are dropped when any name would do, since a keyword is a name too.
 */
export function listExpected(types: readonly TokenType[]): string {
  const unique = [...new Set(types)];
  const anyName = unique.includes(Name);
  const labels: string[] = [];
  for (const type of unique) {
    if (anyName && (type === StringLiteral || Object.values(Keywords).includes(type as (typeof Keywords)[keyof typeof Keywords]))) continue;
    const label = labelOf(type);
    if (!labels.includes(label)) labels.push(label);
  }
  // Stable, readable order: punctuation and words first, the line's end last.
  labels.sort((a, b) => rank(a) - rank(b));
  if (labels.length === 0) return "something else";
  if (labels.length === 1) return labels[0]!;
  return `${labels.slice(0, -1).join(", ")} or ${labels[labels.length - 1]}`;
}

function rank(label: string): number {
  if (label === "a new line") return 3;
  if (label === "the end of the file") return 4;
  if (label.startsWith("`")) return 1;
  return 2;
}

function after(previous: IToken | undefined): string {
  return !previous || previous.tokenType === Newline || !previous.image ? "" : ` after ${describeToken(previous)}`;
}

function found(actual: IToken | undefined): string {
  return `, found ${describeToken(actual)}`;
}

export const errorMessageProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, previous }) {
    if (expected === RBrace) return `expected \`}\` to close the block${after(previous)}${found(actual)}`;
    if (expected === RBracket) return `expected \`]\` to close the list${after(previous)}${found(actual)}`;
    return `expected ${labelOf(expected)}${after(previous)}${found(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    return `unexpected ${describeToken(firstRedundant)}`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, customUserDescription }) {
    const expected = customUserDescription ?? listExpected(expectedPathsPerAlt.flat().flatMap((path) => path[0] ?? []));
    return `expected ${expected}${after(previous)}${found(actual[0])}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, previous, customUserDescription }) {
    const expected = customUserDescription ?? listExpected(expectedIterationPaths.flatMap((path) => path[0] ?? []));
    return `expected ${expected}${after(previous)}${found(actual[0])}`;
  },
};
