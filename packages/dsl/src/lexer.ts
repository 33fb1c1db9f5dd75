/**
 * The `.wf` lexer: chevrotain tokens made from the lexical table (syntax-table.ts), and a
 * lexer built once (on first need) and reused. It is the reference and fallback for the
 * hand-written scanner in fast-parser.ts.
 *
 * - Newlines are tokens: a statement ends at the end of its line. Inside blocks, lists and
 *   JSON literals the parser skips them.
 * - Keywords are tokens in the `Name` category, so every keyword is also a valid name
 *   (`part part = pack@1` declares a node called `part`); the parser tells them apart by
 *   position.
 * - Positions are tracked as offsets only: line/character are computed lazily
 *   (positions.ts), which keeps tokens small on very large files.
 */
import { createToken, Lexer, type IToken, type TokenType } from "chevrotain";
import { BLANKS, COMMENT_START, ESCAPE_PATTERN, PUNCTUATION, ESCAPES_ALLOWED, JSON_WORDS, KEYWORD_TEXTS, NAME_PATTERN, NUMBER_PATTERN, STRING_PATTERN, VERSION_PATTERN, type KeywordText } from "./syntax-table.js";

/** Every token but a newline: lets the parser skip "the rest of this line". */
export const NonNewline = createToken({ name: "NonNewline", pattern: Lexer.NA });
/** Tokens that can appear inside a JSON literal (a newline before them continues the literal). */
export const JsonToken = createToken({ name: "JsonToken", pattern: Lexer.NA });

const plain = (name: string, pattern: RegExp): TokenType => createToken({ name, pattern, categories: [NonNewline] });
const json = (name: string, pattern: RegExp): TokenType => createToken({ name, pattern, categories: [NonNewline, JsonToken] });

const escapeClass = (chars: string): string => chars.replace(/[\\\]^-]/g, "\\$&");
const literal = (text: string): RegExp => new RegExp(text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&"));
export const Whitespace = createToken({ name: "Whitespace", pattern: new RegExp(`[${escapeClass(BLANKS)}]+`), group: Lexer.SKIPPED });
export const Newline = createToken({ name: "Newline", pattern: /\r\n|\r|\n/, line_breaks: true });
export const Comment = createToken({ name: "Comment", pattern: new RegExp(`${COMMENT_START}[^\\r\\n]*`), group: "comments" });

export const Arrow = plain("Arrow", literal(PUNCTUATION.arrow));
export const NumberLiteral = json("NumberLiteral", NUMBER_PATTERN);
export const StringLiteral = json("StringLiteral", STRING_PATTERN);
/** A string missing its closing quote: reported, then parsed as a string so the line still makes sense. */
export const UnterminatedString = plain("UnterminatedString", /"(?:[^"\\\r\n]|\\[^\r\n])*\\?/);
/** `@1`, `@2.0.1`: a version written without quotes. */
export const VersionLiteral = plain("VersionLiteral", new RegExp(`${literal(PUNCTUATION.at).source}${VERSION_PATTERN.source}`));
/** A lone `@`, before a quoted version: `@"2024 Q1"`. */
export const At = plain("At", literal(PUNCTUATION.at));
export const LBrace = json("LBrace", literal(PUNCTUATION.openBlock));
export const RBrace = json("RBrace", literal(PUNCTUATION.closeBlock));
export const LBracket = json("LBracket", literal(PUNCTUATION.openList));
export const RBracket = json("RBracket", literal(PUNCTUATION.closeList));
export const Comma = json("Comma", literal(PUNCTUATION.comma));
export const Colon = json("Colon", literal(PUNCTUATION.colon));
export const Equals = plain("Equals", literal(PUNCTUATION.equals));

export const Name = plain("Name", NAME_PATTERN);

function keyword(word: KeywordText): TokenType {
  return createToken({
    name: `Keyword_${word}`,
    pattern: new RegExp(word),
    longer_alt: Name,
    categories: [Name, NonNewline, ...((JSON_WORDS as readonly string[]).includes(word) ? [JsonToken] : [])],
  });
}

/** Each keyword's token. */
export const Keywords = Object.fromEntries(KEYWORD_TEXTS.map((word) => [word, keyword(word)])) as Record<KeywordText, TokenType>;

export const allTokens: TokenType[] = [
  Whitespace,
  Newline,
  Comment,
  Arrow,
  NumberLiteral,
  StringLiteral,
  UnterminatedString,
  VersionLiteral,
  At,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Comma,
  Colon,
  Equals,
  // Keywords before Name (`longer_alt` hands `partner` or `part.v2` back to Name), longest
  // first so that `subjects` is not read as `subject` followed by `s`.
  ...Object.entries(Keywords)
    .sort(([a], [b]) => b.length - a.length)
    .map(([, type]) => type),
  Name,
  NonNewline,
  JsonToken,
];

let lexerInstance: Lexer | undefined;

/**
 * The chevrotain lexer, built on first call: building it analyses every pattern, which a CLI
 * run on valid files never needs, since the fast path (fast-parser.ts) scans those without it.
 */
export function wfLexer(): Lexer {
  lexerInstance ??= new Lexer(allTokens, {
    positionTracking: "onlyOffset",
    ensureOptimizations: true,
    // Line terminators are exactly the token Newline's; no other pattern can span a line.
    lineTerminatorCharacters: ["\n", "\r"],
  });
  return lexerInstance;
}

export interface LexedText {
  tokens: IToken[];
  comments: IToken[];
  /** Problems of the text itself: characters no token matches, unclosed strings, bad escapes. */
  problems: LexProblem[];
}

export interface LexProblem {
  offset: number;
  length: number;
  message: string;
}

/**
 * Tokenises `text`. Never throws: characters no token matches are reported and skipped, an
 * unterminated string becomes a string token plus a problem.
 */
export function lex(text: string): LexedText {
  const result = wfLexer().tokenize(text);
  const problems: LexProblem[] = [];
  // A non-ASCII letter's problem underlines its whole word; the lexer reports each run of
  // unmatched characters in that word again (`é1eé1e…`), and describing each would rescan the
  // word each time: quadratic. One problem per word, the same one.
  let coveredUntil = 0;
  for (const error of result.errors) {
    if (error.offset < coveredUntil) continue;
    const problem = describeLexError(text, error.offset, error.length);
    problems.push(problem);
    coveredUntil = problem.offset + problem.length;
  }
  const tokens = result.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.tokenType === UnterminatedString) {
      problems.push({ offset: token.startOffset, length: token.image.length, message: "this string is not closed: add `\"` before the end of the line" });
      tokens[i] = { ...token, tokenType: StringLiteral, tokenTypeIdx: StringLiteral.tokenTypeIdx! };
    } else if (token.tokenType === StringLiteral && token.image.includes("\\")) {
      checkEscapes(token, problems);
    }
  }
  return { tokens, comments: (result.groups["comments"] as IToken[] | undefined) ?? [], problems };
}

/** Every backslash in a string: a valid escape (group 1), or a backslash and what follows it. */
const BACKSLASHES = new RegExp(`(${ESCAPE_PATTERN.source})|\\\\[^]?`, "g");

function checkEscapes(token: IToken, problems: LexProblem[]): void {
  const image = token.image;
  for (const { 1: valid, index: i } of image.matchAll(BACKSLASHES)) {
    if (valid !== undefined) continue;
    const length = image[i + 1] === "u" ? Math.min(6, image.length - 1 - i) : 2;
    problems.push({ offset: token.startOffset + i, length: Math.max(1, length), message: `invalid escape \`${image.slice(i, i + length)}\`: strings allow ${ESCAPES_ALLOWED}` });
  }
}

function describeLexError(text: string, offset: number, length: number): LexProblem {
  const skipped = text.slice(offset, offset + length);
  const first = String.fromCodePoint(skipped.codePointAt(0) ?? 0x3f);
  if (/^\p{L}/u.test(first)) {
    // Underline the whole word (`café`, not just `é`), and show it quoted.
    let start = offset;
    let end = offset + length;
    while (start > 0 && /[\p{L}\p{N}_.-]/u.test(text[start - 1]!)) start--;
    while (end < text.length && /[\p{L}\p{N}_.-]/u.test(text[end]!)) end++;
    const word = text.slice(start, end);
    const fix = word.length > SHOWN_MAX ? "put it in double quotes" : `write ${JSON.stringify(word)}`;
    return { offset: start, length: end - start, message: `\`${shown(word)}\` must be quoted: a bare name is ASCII letters, digits, \`_\`, \`-\` and \`.\`; ${fix}` };
  }
  if (first === "'") return { offset, length, message: "unexpected `'`: strings and quoted names use double quotes (\")" };
  if (first === "-") return { offset, length, message: "unexpected `-`: an edge is written `->`" };
  if (first === ">") return { offset, length, message: "unexpected `>`: an edge is written `->`" };
  return { offset, length, message: `unexpected \`${shown(skipped)}\`` };
}

/** Longest piece of the text a message quotes: a 1 MB run of junk must not make a 2 MB message. */
const SHOWN_MAX = 40;

/**
 * `text` as a message quotes it: control characters, lone surrogates and U+FFFD (what invalid
 * UTF-8 decodes to) as `\uXXXX`, since a terminal would swallow or garble them; cut after
 * SHOWN_MAX code units, with `…`.
 */
function shown(text: string): string {
  let end = Math.min(text.length, SHOWN_MAX);
  if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1]!)) end--;
  const visible = text
    .slice(0, end)
    .replace(/[\u0000-\u001f\u007f-\u009f\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return end < text.length ? `${visible}…` : visible;
}
