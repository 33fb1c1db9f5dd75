/**
 * The fast path of `parse`: a hand-written scanner and recursive-descent parser for
 * well-formed `.wf` text. It reads straight from the string (no token objects, no recovery
 * machinery, no chevrotain start-up: docs/performance.md has the figures) and builds the tree
 * directly; the chevrotain path (lexer.ts, parser.ts) stays the reference, and the fallback
 * that recovers and explains errors.
 *
 * The contract, held by property tests (test/fast-parser.property.test.ts):
 * - It returns a tree only for text the chevrotain path reads with zero diagnostics, and then
 *   exactly the tree that path builds: the same nodes, spans, field order, comments.
 * - On anything else (a syntax error, a string left open, a bad escape, a character no token
 *   matches) it declines, and `parse` gives that statement's chunk to chevrotain. All or
 *   nothing per statement: it never explains an error itself, so it can stay small.
 * - It declines no valid text today: every construct of the grammar is read here (the tests
 *   check both directions). Should one ever be left to chevrotain, list it here and weaken
 *   the test's second direction.
 *
 * It reads the lexical table (syntax-table.ts) as the lexer does, and every statement and
 * block property by its steps, as the grammar does. It mirrors the lexer's tokens (each
 * pattern matched greedily, tried in the lexer's order; keywords only as whole words;
 * newlines as tokens, except before a line that continues a chain with `->`) and the
 * parser's decisions on valid input (see each decision).
 */
import type { Block, BlockProperty, ChainStatement, Comment, JsonLiteral, KindSpec, NameSyntax, Statement, SubjectsProperty, Syntax, VersionSyntax, WfFile, WithClause } from "./ast.js";
import {
  BLANKS,
  BLOCKS,
  CLAUSES,
  decodeString,
  ESCAPE_PATTERN,
  KEYWORD_TEXTS,
  NAME_CHAR,
  NAME_JOINERS,
  NAME_START as NAME_START_CHAR,
  NUMBER_PATTERN,
  PROPERTIES,
  PUNCTUATION,
  STATEMENTS,
  TYPED_SUBJECT,
  VERSION_JOINERS,
  wordContinuesBlock,
  type BlockKind,
  type KeywordText,
  type PropertyKeyword,
  type StatementKeyword,
  type Step,
} from "./syntax-table.js";
import { JsonKind, JsonLiteralBuilder } from "./json-literal.js";
import { EMPTY_PROPERTIES, EMPTY_STATEMENTS, EMPTY_SUBJECT_BODIES } from "./generated/from-tables.js";

// ---------------------------------------------------------------- token types

// Small integers rather than objects: the scanner keeps only the current token (and one
// token of lookahead) in plain fields, so no token object is ever allocated.
const EOF = 0;
const NEWLINE = 1;
const NAME = 2;
const STRING = 3;
const NUMBER = 4;
const ARROW = 5;
const VERSION_LITERAL = 6;
const AT = 7;
const LBRACE = 8;
const RBRACE = 9;
const LBRACKET = 10;
const RBRACKET = 11;
const COMMA = 12;
const COLON = 13;
const EQUALS = 14;
// Keywords: every one is also a name (the lexer puts them in the `Name` category). Codes from
// KEYWORD_BASE up, one per word of the table, in its order.
const KEYWORD_BASE = 16;
const KW = Object.fromEntries(KEYWORD_TEXTS.map((word, i) => [word, KEYWORD_BASE + i])) as Record<KeywordText, number>;
const KW_WITH = KW.with;

/** Keywords by length, for the whole-word check after a name is scanned. */
const KEYWORDS_BY_LENGTH: ReadonlyArray<ReadonlyArray<readonly [string, number]>> = Array.from({ length: Math.max(...KEYWORD_TEXTS.map((word) => word.length)) + 1 }, (_, length) =>
  KEYWORD_TEXTS.filter((word) => word.length === length).map((word) => [word, KW[word]] as const),
);

/** An element of the tree being read, by key. */
type Element = Syntax & Record<string, unknown>;

// What each step reads, as a small integer for the reader's switch.
const READS = ["name", "version", "block", "kind", "with", "json", "clause", "subject", "equals", "list", "group"] as const;
const [R_NAME, R_VERSION, R_BLOCK, R_KIND, R_WITH, R_JSON, R_CLAUSE, R_SUBJECT, R_EQUALS, R_LIST, R_GROUP] = READS.map((_, i) => i) as number[];

/**
 * A step as this parser reads it, every field present whatever the step (one object shape
 * for every step the hot loop reads). `token` begins an optional step that one token decides.
 */
class Op {
  readonly read: number;
  readonly key: string;
  readonly optional: boolean;
  readonly block: BlockKind;
  readonly token: number;
  readonly group: readonly Op[];
  constructor(step: Step) {
    this.read = READS.indexOf(step.read);
    this.key = "key" in step ? (step.key ?? "") : "";
    this.optional = step.read === "version" || step.read === "clause" || step.read === "group" || ("optional" in step && step.optional === true);
    this.block = "block" in step ? step.block : "part";
    this.token = step.read === "block" ? LBRACE : step.read === "with" ? KW_WITH : step.read === "clause" ? KW[step.keyword] : EQUALS;
    this.group = step.read === "group" ? step.steps.map((inner) => new Op(inner)) : [];
  }
}

/** How to read an element: make it empty (generated from the table), then read its steps. */
interface ElementForm {
  make: (start: number, end: number) => Element;
  ops: readonly Op[];
  keyword: boolean;
}

function elementForm(make: ElementForm["make"], steps: readonly Step[], keyword: boolean): ElementForm {
  return { make, ops: steps.map((step) => new Op(step)), keyword };
}

/** By keyword code: how to read the statement it begins, and the block property it begins. */
const STATEMENT_FORMS = KEYWORD_TEXTS.map((word) => (word in STATEMENTS ? elementForm(EMPTY_STATEMENTS[word as StatementKeyword], STATEMENTS[word as StatementKeyword].steps, true) : undefined));
const PROPERTY_FORMS = KEYWORD_TEXTS.map((word) => {
  if (!(word in PROPERTIES)) return undefined;
  const property: { steps: readonly Step[]; keyword?: false } = PROPERTIES[word as PropertyKeyword];
  return elementForm(EMPTY_PROPERTIES[word as PropertyKeyword], property.steps, property.keyword !== false);
});
const TYPED_SUBJECT_FORM = elementForm(EMPTY_SUBJECT_BODIES.typed, TYPED_SUBJECT, false);
/** By keyword code, for a clause word (CLAUSES): the bracket token after it that makes it a clause. */
const CLAUSE_BRACKET = KEYWORD_TEXTS.map((word) => (word in CLAUSES ? (CLAUSES[word as keyof typeof CLAUSES] === "{" ? LBRACE : LBRACKET) : -1));
/** By block kind, then token type: whether a line that begins with it goes on with the block (`wordContinuesBlock`). */
const BLOCK_LINE_STARTS = Object.fromEntries(
  (Object.keys(BLOCKS) as BlockKind[]).map((kind) => {
    const starts = new Uint8Array(KEYWORD_BASE + KEYWORD_TEXTS.length);
    starts[RBRACE] = 1;
    KEYWORD_TEXTS.forEach((word, i) => (starts[KEYWORD_BASE + i] = wordContinuesBlock(kind, word) ? 1 : 0));
    return [kind, starts];
  }),
) as Record<BlockKind, Uint8Array>;

function isNameToken(type: number): boolean {
  return type === NAME || type >= KEYWORD_BASE;
}

/** `nameRef`: a bare name (keywords included) or a quoted string. */
function isNameRefToken(type: number): boolean {
  return type === NAME || type === STRING || type >= KEYWORD_BASE;
}

/** By token type, what a token of the lexer's `JsonToken` category is to a literal's builder (a line break in a literal goes on only before one). */
const JSON_KINDS: Array<JsonKind | undefined> = [];
for (const [type, kind] of [[LBRACE, JsonKind.openObject], [RBRACE, JsonKind.closeObject], [LBRACKET, JsonKind.openArray], [RBRACKET, JsonKind.closeArray], [COMMA, JsonKind.comma], [COLON, JsonKind.colon], [STRING, JsonKind.string], [NUMBER, JsonKind.number], [KW.true, JsonKind.true], [KW.false, JsonKind.false], [KW.null, JsonKind.null]] as const) JSON_KINDS[type] = kind;

// ---------------------------------------------------------------- characters

// ASCII character classes, one table lookup per character.
const WORD = 1; // NAME_CHAR
const NAME_START = 2;
const DIGIT = 4; // [0-9]
const NAME_JOIN = 16; // NAME_JOINERS
const VERSION_JOIN = 32; // VERSION_JOINERS
const BLANK = 64; // BLANKS
const CLASSES = (() => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (NAME_CHAR.test(ch)) table[c]! |= WORD;
    if (NAME_START_CHAR.test(ch)) table[c]! |= NAME_START;
    if (/[0-9]/.test(ch)) table[c]! |= DIGIT;
    if (NAME_JOINERS.includes(ch)) table[c]! |= NAME_JOIN;
    if (VERSION_JOINERS.includes(ch)) table[c]! |= VERSION_JOIN;
    if (BLANKS.includes(ch)) table[c]! |= BLANK;
  }
  return table;
})();

/** The token of each character that is a token by itself, by its code (0: none). */
const ONE_CHARACTER_TOKENS = new Uint8Array(128);
for (const [mark, type] of [["openBlock", LBRACE], ["closeBlock", RBRACE], ["openList", LBRACKET], ["closeList", RBRACKET], ["comma", COMMA], ["colon", COLON], ["equals", EQUALS]] as const) ONE_CHARACTER_TOKENS[PUNCTUATION[mark].charCodeAt(0)] = type;

// Strings and numbers, matched where they start (sticky): a string without escapes, one with
// only the escapes the lexer accepts, and a number.
const PLAIN_STRING = /"[^"\\\r\n]*"/y;
const ESCAPED_STRING = new RegExp(`"(?:[^"\\\\\\r\\n]|${ESCAPE_PATTERN.source})*"`, "y");
const NUMBER_AT = new RegExp(NUMBER_PATTERN.source, "y");

/** charCodeAt past the end is NaN; `NaN < 128` is false, so every class test fails there. */
function is(c: number, cls: number): boolean {
  return c < 128 && (CLASSES[c]! & cls) !== 0;
}

const HIGH_BLANKS = [...BLANKS].map((blank) => blank.charCodeAt(0)).filter((c) => c >= 128);

/** The lexer's Whitespace token: BLANKS. */
function isSpace(c: number): boolean {
  return c < 128 ? (CLASSES[c]! & BLANK) !== 0 : HIGH_BLANKS.includes(c);
}

/** Thrown to give up: the caller falls back to the chevrotain path. */
class Decline {}
const DECLINE = new Decline();

// ---------------------------------------------------------------- the parser

class FastParser {
  private readonly text: string;
  private readonly length: number;
  /**
   * Lists under construction (a chain's groups, a group's names, a block's properties, a
   * subject list's items), nested as the calls are: each list is pushed above its caller's
   * and taken off as one exact-size array (`takeFrom`), instead of growing an array of its
   * own and copying it to its exact size. Never shrunk: `top` marks the end.
   */
  private readonly stack: unknown[] = [];
  private top = 0;
  /** The same for a chain's arrows (their offsets), pushed while its groups are on `stack`. */
  private readonly arrowStack: number[] = [];
  private arrowTop = 0;
  /** Where the scanner reads next (after the lookahead token, when there is one). */
  private pos = 0;
  comments: Comment[] = [];

  // The current token.
  private type = EOF;
  private start = 0;
  private end = 0;
  /** For a string: it contains a backslash, so it needs decoding. */
  private escaped = false;

  /** The end of the token before the current one: where an element read up to it ends. */
  private lastEnd = 0;

  // One token of lookahead, scanned on demand.
  private hasPeek = false;
  private peekType = EOF;
  private peekStart = 0;
  private peekEnd = 0;
  private peekEscaped = false;

  // Output of `scan`.
  private scannedStart = 0;
  private scannedEnd = 0;
  private scannedEscaped = false;

  /**
   * Recently sliced names, by a cheap hash of their characters. A name recurs in every edge
   * that mentions it, and part and job ids on every part: reusing one string instead of
   * slicing another saves a string per repeat (less memory for the garbage collector), and
   * later passes that key maps by name hash it only once.
   * A collision only costs a fresh slice.
   */
  private readonly pieces: Array<string | undefined>;
  private readonly pieceMask: number;

  constructor(text: string) {
    this.text = text;
    this.length = text.length;
    // About one slot per 16 characters, between 64 and 4096 slots.
    let size = 64;
    while (size < 4096 && size * 16 < text.length) size *= 2;
    this.pieces = new Array<string | undefined>(size).fill(undefined);
    this.pieceMask = size - 1;
  }

  /** `text.slice(start, end)`, or an equal string sliced before. */
  private piece(start: number, end: number): string {
    const text = this.text;
    const length = end - start;
    // V8 already shares one-character strings.
    if (length < 2) return text.slice(start, end);
    const hash =
      (Math.imul(length, 0x9e3779b1) ^ Math.imul(text.charCodeAt(start), 0x85ebca6b) ^ Math.imul(text.charCodeAt(end - 1), 0xc2b2ae35) ^ Math.imul(text.charCodeAt(end - 2), 31) ^ Math.imul(text.charCodeAt(start + (length >> 1)), 0x27d4eb2f)) >>> 0;
    const slot = (hash ^ (hash >>> 15)) & this.pieceMask;
    const cached = this.pieces[slot];
    if (cached !== undefined && cached.length === length && text.startsWith(cached, start)) return cached;
    const fresh = text.slice(start, end);
    this.pieces[slot] = fresh;
    return fresh;
  }

  // ------------------------------------------------------------ scanning

  /**
   * Scans the next token from `pos`; returns its type and leaves its extent in `scanned*`.
   * Skips whitespace and records comments. A run of newlines (with blank and comment lines)
   * is one NEWLINE token, which the parser treats exactly as chevrotain treats several;
   * a run whose next token is `->` is no token at all (parser.ts `dropContinuationNewlines`).
   */
  private scan(): number {
    const text = this.text;
    const length = this.length;
    let p = this.pos;
    for (;;) {
      if (p >= length) {
        this.scannedStart = this.scannedEnd = this.pos = length;
        return EOF;
      }
      const c = text.charCodeAt(p);
      if (c === 0x20 || c === 0x09 || isSpace(c)) {
        p++;
        continue;
      }
      if (c === 0x23 /* # */) {
        p = this.comment(p);
        continue;
      }
      if (c === 0x0a || c === 0x0d) {
        const first = p;
        // Skip the whole run: newlines, whitespace, comments. The lexer would make a
        // Newline token of each line end; the parser only ever looks past them to the next
        // significant token, which is where this stops.
        for (;;) {
          const d = text.charCodeAt(p);
          if (d === 0x0a || d === 0x0d || isSpace(d)) p++;
          else if (d === 0x23) p = this.comment(p);
          else break;
        }
        if (text.charCodeAt(p) === 0x2d && text.charCodeAt(p + 1) === 0x3e) continue; // `->` continues the chain
        this.scannedStart = first;
        this.scannedEnd = first + 1;
        this.pos = p;
        return NEWLINE;
      }
      this.scannedStart = p;
      this.scannedEscaped = false;
      let type = c < 128 ? ONE_CHARACTER_TOKENS[c]! : 0;
      if (type !== 0) p++;
      else if (is(c, NAME_START)) {
        // Name (NAME_PATTERN); a keyword only when it is the whole of that match (the
        // lexer's `longer_alt: Name`).
        p++;
        for (;;) {
          while (is(text.charCodeAt(p), WORD)) p++;
          if (is(text.charCodeAt(p), NAME_JOIN) && is(text.charCodeAt(p + 1), WORD)) p += 2;
          else break;
        }
        type = this.keyword(this.scannedStart, p);
      } else if (c === 0x22) {
        type = STRING;
        p = this.string(p);
      } else if (c === 0x40) {
        // VersionLiteral `@` VERSION_PATTERN, else a lone At.
        if (is(text.charCodeAt(p + 1), WORD)) {
          p += 2;
          for (;;) {
            while (is(text.charCodeAt(p), WORD)) p++;
            if (is(text.charCodeAt(p), VERSION_JOIN) && is(text.charCodeAt(p + 1), WORD)) p += 2;
            else break;
          }
          type = VERSION_LITERAL;
        } else {
          type = AT;
          p++;
        }
      } else if (c === 0x2d) {
        // Arrow is tried before NumberLiteral, as in the lexer's token order.
        if (text.charCodeAt(p + 1) === 0x3e) {
          type = ARROW;
          p += 2;
        } else {
          type = NUMBER;
          p = this.number(p);
        }
      } else if (is(c, DIGIT)) {
        type = NUMBER;
        p = this.number(p);
      } else {
        // No token matches (a non-ASCII letter, `'`, `>`, a control character...): the
        // lexer reports it.
        throw DECLINE;
      }
      this.scannedEnd = p;
      this.pos = p;
      return type;
    }
  }

  private comment(p: number): number {
    const text = this.text;
    const start = p;
    p++;
    while (p < this.length) {
      const c = text.charCodeAt(p);
      if (c === 0x0a || c === 0x0d) break;
      p++;
    }
    this.comments.push({ text: text.slice(start, p), start, end: p });
    return p;
  }

  /** NumberLiteral (NUMBER_PATTERN), or a decline where none matches (a lone `-`). */
  private number(p: number): number {
    NUMBER_AT.lastIndex = p;
    if (!NUMBER_AT.test(this.text)) throw DECLINE;
    return NUMBER_AT.lastIndex;
  }

  /**
   * StringLiteral, declining where the lexer reports a problem: no closing quote on the line,
   * or an escape other than ESCAPE_PATTERN's.
   */
  private string(p: number): number {
    PLAIN_STRING.lastIndex = p;
    if (PLAIN_STRING.test(this.text)) return PLAIN_STRING.lastIndex;
    ESCAPED_STRING.lastIndex = p;
    if (!ESCAPED_STRING.test(this.text)) throw DECLINE;
    this.scannedEscaped = true;
    return ESCAPED_STRING.lastIndex;
  }

  private keyword(start: number, end: number): number {
    const length = end - start;
    if (length >= KEYWORDS_BY_LENGTH.length) return NAME;
    const candidates = KEYWORDS_BY_LENGTH[length]!;
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i]!;
      if (this.text.startsWith(candidate[0], start)) return candidate[1];
    }
    return NAME;
  }

  // ------------------------------------------------------------ token stream

  private advance(): void {
    this.lastEnd = this.end;
    if (this.hasPeek) {
      this.hasPeek = false;
      this.type = this.peekType;
      this.start = this.peekStart;
      this.end = this.peekEnd;
      this.escaped = this.peekEscaped;
      return;
    }
    this.type = this.scan();
    this.start = this.scannedStart;
    this.end = this.scannedEnd;
    this.escaped = this.scannedEscaped;
  }

  /** The type of the token after the current one (the parser's LA(2)). */
  private peek(): number {
    if (!this.hasPeek) {
      this.peekType = this.scan();
      this.peekStart = this.scannedStart;
      this.peekEnd = this.scannedEnd;
      this.peekEscaped = this.scannedEscaped;
      this.hasPeek = true;
    }
    return this.peekType;
  }

  private expect(type: number): void {
    if (this.type !== type) throw DECLINE;
  }

  private push(item: unknown): void {
    this.stack[this.top++] = item;
  }
  /** The items pushed since `base`, as an array of their own; pops them. */
  private takeFrom<T>(base: number): T[] {
    const items = this.stack.slice(base, this.top) as T[];
    this.top = base;
    return items;
  }

  /** The current token, a string, decoded; `decodeString` only when it holds an escape. */
  private stringValue(): string {
    return this.escaped ? decodeString(this.text.slice(this.start, this.end)) : this.piece(this.start + 1, this.end - 1);
  }

  // ------------------------------------------------------------ file and statements

  /**
   * Reads statements from `from` (a chunk boundary, see chunks.ts) for as long as it can: to
   * the end of the text, or up to the statement it declines; nothing of the declined
   * statement is kept.
   */
  readStatements(from: number): FastStatements {
    this.pos = from;
    this.hasPeek = false;
    this.top = 0;
    this.arrowTop = 0;
    // A decline while scanning the first token blames `from`.
    this.type = NEWLINE;
    this.start = this.end = from;
    this.comments = [];
    const statements: Statement[] = [];
    let end = from;
    let previousEnd = from;
    try {
      this.advance();
      for (;;) {
        const type = this.type;
        if (type === EOF) return { statements, comments: this.comments, end: this.length, previousEnd: end, declinedAt: undefined };
        if (type === NEWLINE) {
          this.advance();
          continue;
        }
        const statement = this.statement();
        if (this.type !== NEWLINE && this.type !== EOF) throw DECLINE;
        statements.push(statement);
        if (this.type === NEWLINE) {
          // The chunk ends just after the line break that ends the statement's line.
          previousEnd = end;
          const lineBreak = this.start;
          end = lineBreak + (this.text.charCodeAt(lineBreak) === 0x0d && this.text.charCodeAt(lineBreak + 1) === 0x0a ? 2 : 1);
        }
      }
    } catch {
      // DECLINE, or (defensively) any bug here: the caller gives the rest to chevrotain.
      const kept = this.comments.filter((comment) => comment.start < end);
      return { statements, comments: kept, end, previousEnd, declinedAt: Math.max(this.start, end) };
    }
  }

  /**
   * The parser's `realStatement` choice, by two tokens: a name followed by `->` or `,` is a
   * chain (chains are tried first, so `part -> x` is an edge); else the first keyword decides,
   * and each declaration needs its second token to fit, as chevrotain's LL(2) lookahead
   * requires (otherwise the line is invalid).
   */
  private statement(): Statement {
    const type = this.type;
    if (isNameRefToken(type)) {
      const second = this.peek();
      if (second === ARROW || second === COMMA) return this.chain();
    }
    const form = type >= KEYWORD_BASE ? STATEMENT_FORMS[type - KEYWORD_BASE] : undefined;
    if (!form) throw DECLINE;
    return this.element(form) as unknown as Statement;
  }

  /** An element: its keyword, if it has one, then its steps (the parser's `element`). */
  private element(form: ElementForm): Element {
    const element = form.make(this.start, 0);
    if (form.keyword) this.advance();
    this.steps(element, form.ops);
    element.end = this.lastEnd;
    return element;
  }

  private steps(element: Element, ops: readonly Op[]): void {
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      const read = op.read;
      // An optional step that one token decides, absent.
      if (op.optional && read !== R_NAME && read !== R_VERSION && this.type !== op.token) continue;
      let value: Syntax | undefined;
      switch (read) {
        case R_NAME:
          value = op.optional ? this.optionalName() : this.nameRef();
          break;
        case R_VERSION:
          value = this.optionalVersion();
          break;
        case R_BLOCK:
          this.expect(LBRACE);
          value = this.block(op.block);
          break;
        case R_KIND:
          value = this.kindSpec(op.block);
          break;
        case R_WITH:
          this.expect(KW_WITH);
          value = this.withClause();
          break;
        case R_JSON:
          value = this.json();
          break;
        case R_CLAUSE: {
          const start = this.start;
          this.advance();
          const literal = this.json();
          value = { value: literal, start, end: literal.end } as Syntax;
          break;
        }
        case R_SUBJECT:
          // One token decides (the rule's gated OR): `{` begins a JSON object, a name a typed subject.
          if (this.type === LBRACE) {
            const literal = this.json();
            value = { type: "raw", value: literal, start: literal.start, end: literal.end } as Syntax;
          } else {
            value = this.element(TYPED_SUBJECT_FORM);
          }
          break;
        case R_EQUALS:
          this.expect(EQUALS);
          if (op.key) element[op.key] = this.start;
          this.advance();
          continue;
        case R_LIST:
          this.nameList(element as unknown as SubjectsProperty);
          continue;
        case R_GROUP:
          this.steps(element, op.group);
          continue;
      }
      element[op.key] = value;
    }
  }

  /** `a, b -> c -> d, e with {...}`; lines starting with `->` were already joined by the scanner. */
  private chain(): ChainStatement {
    const base = this.top;
    const arrowBase = this.arrowTop;
    const first = this.nameGroup();
    this.push(first);
    const start = first[0]!.start;
    let end = first[first.length - 1]!.end;
    // At least one arrow (`a, b` alone is no statement).
    this.expect(ARROW);
    while (this.type === ARROW) {
      this.arrowStack[this.arrowTop++] = this.start;
      this.advance();
      const group = this.nameGroup();
      this.push(group);
      end = group[group.length - 1]!.end;
    }
    const groups = this.takeFrom<NameSyntax[]>(base);
    const arrows = this.arrowStack.slice(arrowBase, this.arrowTop);
    this.arrowTop = arrowBase;
    const clause = this.optionalWith();
    if (clause) end = clause.end;
    return { type: "chain", groups, arrows, with: clause, start, end };
  }

  private nameGroup(): NameSyntax[] {
    const first = this.nameRef();
    if (this.type !== COMMA) return [first];
    const base = this.top;
    this.push(first);
    while (this.type === COMMA) {
      this.advance();
      this.push(this.nameRef());
    }
    return this.takeFrom<NameSyntax>(base);
  }

  // ------------------------------------------------------------ parts of statements

  private nameRef(): NameSyntax {
    const type = this.type;
    let name: NameSyntax;
    if (type === STRING) name = { text: this.stringValue(), quoted: true, start: this.start, end: this.end };
    else if (isNameToken(type)) name = { text: this.piece(this.start, this.end), quoted: false, start: this.start, end: this.end };
    else throw DECLINE;
    this.advance();
    return name;
  }

  /**
   * An optional name (workflow name, gate floor, subject label): taken when the next token is
   * a name, unless it begins a clause (`with {` or `identifiers [`), the rules' GATE
   * `!clauseAhead()`. A bare `with` not followed by `{` is thus a name, as in chevrotain.
   */
  private optionalName(): NameSyntax | undefined {
    const type = this.type;
    if (!isNameRefToken(type)) return undefined;
    if (type >= KEYWORD_BASE && this.peek() === CLAUSE_BRACKET[type - KEYWORD_BASE]) return undefined;
    return this.nameRef();
  }

  private optionalWith(): WithClause | undefined {
    return this.type === KW_WITH ? this.withClause() : undefined;
  }

  private withClause(): WithClause {
    const start = this.start;
    this.advance();
    const value = this.json();
    return { value, start, end: value.end };
  }

  /** `@1` or `@"2024 Q1"` (the `@` and the string may be apart, on one line). */
  private optionalVersion(): VersionSyntax | undefined {
    if (this.type === VERSION_LITERAL) {
      const version: VersionSyntax = { text: this.piece(this.start + 1, this.end), quoted: false, start: this.start, end: this.end, valueStart: this.start + 1 };
      this.advance();
      return version;
    }
    if (this.type === AT) {
      const at = this.start;
      this.advance();
      this.expect(STRING);
      const version: VersionSyntax = { text: this.stringValue(), quoted: true, start: at, end: this.end, valueStart: this.start };
      this.advance();
      return version;
    }
    return undefined;
  }

  private kindSpec(blockKind: BlockKind): KindSpec {
    const kind = this.nameRef();
    if (this.type !== LBRACE) return { kind, block: undefined, start: kind.start, end: kind.end };
    const block = this.block(blockKind);
    return { kind, block, start: kind.start, end: block.end };
  }

  /**
   * `{ property... }`. Properties may share a line; a line break inside goes on only when the
   * next line begins a property (or `}`): chevrotain's `continuesBlock`, where any other line
   * ends the block unclosed, an error. Which properties suit the block's kind is the
   * compiler's business, not the parser's.
   */
  private block(kind: BlockKind): Block {
    const open = this.start;
    this.advance();
    const base = this.top;
    const lineStarts = BLOCK_LINE_STARTS[kind];
    for (;;) {
      const type = this.type;
      if (type === RBRACE) break;
      if (type === NEWLINE) {
        if (lineStarts[this.peek()] !== 1) throw DECLINE;
        this.advance();
        continue;
      }
      this.push(this.blockProperty());
    }
    const properties = this.takeFrom<BlockProperty>(base);
    const close = this.start;
    const end = this.end;
    this.advance();
    return { open, close, properties, start: open, end };
  }

  private blockProperty(): BlockProperty {
    const form = this.type >= KEYWORD_BASE ? PROPERTY_FORMS[this.type - KEYWORD_BASE] : undefined;
    // Anything else in a block is the rest of a line to chevrotain (an error).
    if (!form) throw DECLINE;
    return this.element(form) as unknown as BlockProperty;
  }

  /** `[a, b]` after its keyword: line breaks only where the parser's `continuesList` allows them. */
  private nameList(property: SubjectsProperty): void {
    this.expect(LBRACKET);
    property.open = this.start;
    this.advance();
    const base = this.top;
    this.listNewlines(false);
    if (isNameRefToken(this.type)) {
      this.push(this.nameRef());
      this.listNewlines(true);
      while (this.type === COMMA) {
        this.advance();
        this.listNewlines(false);
        this.push(this.nameRef());
        this.listNewlines(true);
      }
    }
    property.items = this.takeFrom<NameSyntax>(base);
    this.expect(RBRACKET);
    property.close = this.start;
    property.end = this.end;
    this.advance();
  }

  /**
   * A line break in a list is skipped when the next line goes on with it: `]`, or after an
   * item `,`, else a name. Otherwise chevrotain stops there and the list is unclosed.
   */
  private listNewlines(afterItem: boolean): void {
    if (this.type !== NEWLINE) return;
    const next = this.peek();
    if (next !== RBRACKET && !(afterItem ? next === COMMA : isNameRefToken(next))) throw DECLINE;
    this.advance();
  }

  // ------------------------------------------------------------ JSON literals

  /**
   * A JSON literal, read as the grammar's `jsonLiteral` reads it (a line break inside only
   * where JSON follows it) and built by the builder the chevrotain path uses; declined where
   * that finds a problem.
   */
  private json(): JsonLiteral {
    const builder = new JsonLiteralBuilder(this.text);
    for (;;) {
      const kind = JSON_KINDS[this.type];
      if (kind === undefined) throw DECLINE;
      builder.add(kind, this.start, this.end);
      if (builder.problem) throw DECLINE;
      this.advance();
      if (builder.complete) return builder.literal!;
      if (this.type === NEWLINE) {
        if (JSON_KINDS[this.peek()] === undefined) throw DECLINE;
        this.advance();
      }
    }
  }
}

/** What `FastParser.readStatements` read before it stopped. */
export interface FastStatements {
  statements: Statement[];
  comments: Comment[];
  /**
   * Where reading stopped: the end of the text, or just after the line break that ends the
   * last statement read (or where reading began, if none was).
   */
  end: number;
  /** Where the chunk of the last statement read began (`end` of the one before it). */
  previousEnd: number;
  /**
   * When a statement was declined: an offset at or after `end` in the chunk that holds it
   * (or in a chunk before that one, never after).
   */
  declinedAt: number | undefined;
}

/**
 * A reader of statements from chunk boundaries of one text, for text the whole-file fast
 * path declines: the parser reads it a chunk at a time, around the chunks it cannot read.
 */
export function fastStatementReader(text: string): (from: number) => FastStatements {
  const parser = new FastParser(text);
  return (from) => parser.readStatements(from);
}

/**
 * Parses well-formed `.wf` text without chevrotain. Returns the tree chevrotain would build
 * (with no diagnostics), or `undefined` when the text is not something this path reads with
 * certainty: the caller then parses it with chevrotain, which also explains any error.
 */
export function fastParse(text: string): WfFile | undefined {
  const read = new FastParser(text).readStatements(0);
  return read.declinedAt === undefined ? { type: "file", statements: read.statements, comments: read.comments, start: 0, end: text.length } : undefined;
}
