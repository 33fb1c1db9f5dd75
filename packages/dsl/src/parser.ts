/**
 * The `.wf` parser: chevrotain with embedded actions (no CST, which would cost a large file's
 * parse time and memory), built once, on first need, and reused for every parse. Valid text
 * is read by a hand-written fast path first (fast-parser.ts); this parser is the reference
 * it must agree with, and the fallback for everything else. The rest of the package reaches
 * this module only through parser-loader.ts, so that bundles can load it on first need.
 *
 * Recovery. A statement ends at the end of its line, and every rule may give up where it
 * stands: each rule's follow set includes "the rest of the line", so a rule that cannot go on
 * returns what it has and the statement continues with its next part; whatever is left on the
 * line is skipped after one error. One typo therefore costs at most the rest of its line, and
 * blocks and JSON literals only swallow a newline when the next line plausibly continues them.
 * Tokens chevrotain inserts while recovering (`isInsertedInRecovery`) never reach the tree.
 *
 * Lists and chains are repetitions (MANY / AT_LEAST_ONE), never right recursion, so a
 * 100,000-link chain parses without deep recursion; JSON literals are consumed as flat token
 * runs and built by the builder both parsers share (json-literal.ts).
 */
import {
  createSyntaxDiagramsCode,
  EmbeddedActionsParser,
  EOF,
  getLookaheadPaths,
  NoViableAltException,
  tokenMatcher,
  type IOrAlt,
  type IParserErrorMessageProvider,
  type IRecognitionException,
  type IToken,
  type LookaheadSequence,
  type ParserMethod,
  type Rule,
  type TokenType,
} from "chevrotain";
import type { Block, BlockProperty, ChainStatement, InvalidStatement, JsonLiteral, KindSpec, NameSyntax, Statement, SubjectsProperty, Syntax, VersionSyntax, WfFile, WithClause } from "./ast.js";
import { DSL_CODES } from "@wfkit/core";
import { MAX_SYNTAX_ERRORS, sourceFault, type SourceFault } from "./diagnostics.js";
import type { ParseResult } from "./chunks.js";
import { JsonKind, JsonLiteralBuilder } from "./json-literal.js";
import { EMPTY_PROPERTIES, EMPTY_STATEMENTS, EMPTY_SUBJECT_BODIES } from "./generated/from-tables.js";
import {
  allTokens,
  Arrow,
  At,
  Colon,
  Comma,
  Equals,
  JsonToken,
  Keywords,
  LBrace,
  LBracket,
  lex,
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
import { LineIndex, partitionPoint, type Span } from "./positions.js";
import {
  BLOCKS,
  blockHolds,
  CLAUSES,
  decodeString,
  KEYWORD_TEXTS,
  NAME_CHAR,
  NAME_JOINERS,
  numberedSteps,
  PROPERTIES,
  STATEMENTS,
  TYPED_SUBJECT,
  wordContinuesBlock,
  wordList,
  type BlockKind,
  type KeywordText,
  type NameRole,
  type PropertyKeyword,
  type Step,
} from "./syntax-table.js";

/** A newline token, annotated by the lexer pass with the next token that is not a newline. */
interface NewlineToken extends IToken {
  nextSignificant?: IToken;
}

/**
 * The rest of a line, from its first token that fits no rule: explained after the parse,
 * with content assist (`explainRestOfLine`).
 */
interface RestOfLine {
  /** The tokens from where the rule began up to and including `firstUnread`. */
  statementTokens: IToken[];
  firstUnread: IToken;
  /** Inside a block: which one (a property was expected); else a statement was. */
  blockKind?: BlockKind;
}

/** A problem the parser found itself (not a chevrotain exception). */
interface ParserProblem {
  span: Span;
  message: string;
  /** For a line that is not a statement: its tokens, to work out what was expected. */
  restOfLine?: RestOfLine;
}

/** The keyword each keyword token stands for. */
const KEYWORD_OF = new Map<TokenType, KeywordText>(KEYWORD_TEXTS.map((word) => [Keywords[word], word]));
/** What each token of a JSON literal is to the literal's builder. */
const JSON_KIND = new Map<TokenType, JsonKind>([
  [LBrace, JsonKind.openObject],
  [RBrace, JsonKind.closeObject],
  [LBracket, JsonKind.openArray],
  [RBracket, JsonKind.closeArray],
  [Comma, JsonKind.comma],
  [Colon, JsonKind.colon],
  [StringLiteral, JsonKind.string],
  [NumberLiteral, JsonKind.number],
  [Keywords.true, JsonKind.true],
  [Keywords.false, JsonKind.false],
  [Keywords.null, JsonKind.null],
]);
/** For each clause word, the bracket after it that makes it begin a clause. */
const CLAUSE_BRACKETS = new Map<TokenType, TokenType>(Object.entries(CLAUSES).map(([word, bracket]) => [Keywords[word as KeywordText], bracket === "{" ? LBrace : LBracket]));
/** An element of the tree being read, by key (see `WfParser.element`). */
type Element = Syntax & Record<string, unknown>;
/** Makes an element empty (generated from the table). */
type MakeElement = (start: number, end: number) => Element;

function span(token: IToken): Span {
  return { start: token.startOffset, end: token.startOffset + token.image.length };
}

function join(start: Span, end: Span | undefined): Span {
  return { start: start.start, end: Math.max(start.end, end?.end ?? start.end) };
}

/** Moves the end of `element` out to cover `end` (as `join` does, in place). */
function widen(element: Syntax, end: Span | undefined): void {
  element.end = Math.max(element.end, end?.end ?? element.end);
}

function isReal(token: IToken | undefined): token is IToken {
  return token !== undefined && !token.isInsertedInRecovery && !Number.isNaN(token.startOffset);
}

// Chevrotain recovery hooks that its type declarations do not list.
const { canRecoverWithSingleTokenDeletion: baseDeletionCheck, canRecoverWithSingleTokenInsertion: baseInsertionCheck } = EmbeddedActionsParser.prototype as unknown as {
  canRecoverWithSingleTokenDeletion(this: unknown, type: TokenType): boolean;
  canRecoverWithSingleTokenInsertion(this: unknown, type: TokenType, follows: TokenType[]): boolean;
};
/** Tokens of lookahead the parser may use (see the constructor). */
const MAX_LOOKAHEAD = 2;

// Members of chevrotain's parser that raiseNoAltException below uses, also undeclared.
interface ChevrotainErrorEngine {
  getCurrRuleFullName(): string;
  getGAstProductions(): Record<string, Rule>;
  SAVE_ERROR(error: IRecognitionException): IRecognitionException;
}

class WfParser extends EmbeddedActionsParser {
  /** Problems found by the grammar actions of the current parse. */
  problems: ParserProblem[] = [];
  /** The statement being read, returned as it stands if its rule has to give up. */
  private current: Statement | undefined;
  /** The statements read so far, kept by the top rule if it has to give up. */
  private statements: Statement[] = [];

  /**
   * `maxLookahead: 2` suffices for this grammar; the start-up analysis grows with it.
   * Grammar validations cost start-up time on every CLI run; they are skipped in the shipped
   * parser and run in a test instead (`validateGrammar`), which fails on any grammar error.
   * `readsRestOfLine`: whether a block takes tokens that begin no property (`blockRestOfLine`);
   * content assist's grammar does not, so it offers only what fits.
   */
  constructor(recoveryEnabled = true, skipValidations = true, private readonly readsRestOfLine = true) {
    super(allTokens, { recoveryEnabled, maxLookahead: MAX_LOOKAHEAD, errorMessageProvider, skipValidations });
    this.performSelfAnalysis();
  }

  /** The first token left unread because the syntax errors reached `MAX_SYNTAX_ERRORS`. */
  stoppedAt: IToken | undefined;

  /** The text being parsed, which the tokens' offsets index. */
  private text = "";

  /** Resets per-parse state; chevrotain resets its own when `input` is set. */
  begin(tokens: IToken[], text: string): void {
    this.input = tokens;
    this.text = text;
    this.problems = [];
    this.current = undefined;
    this.stoppedAt = undefined;
  }

  /**
   * Chevrotain's errors so far, read in place: its `errors` getter returns a copy, and reading
   * it once per statement made text with an error on every line quadratic.
   */
  private get savedErrors(): readonly IRecognitionException[] {
    return (this as unknown as { _errors: IRecognitionException[] })._errors;
  }

  // A missing `}` or `]` is always inserted to recover, even where the grammar cannot see
  // what follows (at the end of a rule): a block cut short keeps what it has read.
  canRecoverWithSingleTokenInsertion(expectedTokType: TokenType, follows: TokenType[]): boolean {
    if (expectedTokType === RBrace || expectedTokType === RBracket) return true;
    return baseInsertionCheck.call(this, expectedTokType, follows);
  }

  // A newline is never deleted to recover: it ends a statement, and deleting it would glue
  // two lines into one.
  canRecoverWithSingleTokenDeletion(expectedTokType: TokenType): boolean {
    if (tokenMatcher(this.LA(1), Newline)) return false;
    return baseDeletionCheck.call(this, expectedTokType);
  }

  /**
   * The lookahead paths of each alternation, by rule and occurrence, once computed. Chevrotain
   * computes them again for every syntax error it reports at a decision (its source notes the
   * cost); they depend on the grammar alone, and in text with a broken statement on every line
   * that work would be nearly all of a parse.
   */
  private readonly alternationPaths = new Map<string, LookaheadSequence[]>();

  /**
   * Chevrotain 11's `raiseNoAltException` (not in its type declarations), with the paths taken
   * from `alternationPaths`; the message and the exception are the same.
   */
  raiseNoAltException(occurrence: number, errMsgTypes: string | undefined): never {
    const engine = this as unknown as ChevrotainErrorEngine;
    const ruleName = engine.getCurrRuleFullName();
    const key = `${ruleName}#${occurrence}`;
    let expectedPathsPerAlt = this.alternationPaths.get(key);
    if (!expectedPathsPerAlt) {
      const rule = engine.getGAstProductions()[ruleName]!;
      expectedPathsPerAlt = getLookaheadPaths({ occurrence, rule, prodType: "Alternation", maxLookahead: MAX_LOOKAHEAD });
      this.alternationPaths.set(key, expectedPathsPerAlt);
    }
    const actual = Array.from({ length: MAX_LOOKAHEAD }, (_, i) => this.LA(i + 1));
    const previous = this.LA(0);
    const message = errorMessageProvider.buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, customUserDescription: errMsgTypes, ruleName });
    throw engine.SAVE_ERROR(new NoViableAltException(message, this.LA(1), previous));
  }

  private nextSignificant(): IToken {
    const token = this.LA(1) as NewlineToken;
    return tokenMatcher(token, Newline) ? (token.nextSignificant ?? this.LA(2)) : token;
  }

  /** True when the next token (after any newlines) can continue a block of this kind. */
  private continuesBlock(blockKind: BlockKind): boolean {
    const next = this.nextSignificant().tokenType;
    if (next === RBrace) return true;
    const word = KEYWORD_OF.get(next);
    return word !== undefined && wordContinuesBlock(blockKind, word);
  }

  /**
   * True when the next token (after any newlines) can continue a `[ ... ]` list of names:
   * after `[` or `,` a name or `]`; after a name only `,` or `]` (so that a list left open
   * does not swallow the statements below it).
   */
  private continuesList(afterItem: boolean): boolean {
    const next = this.nextSignificant();
    if (tokenMatcher(next, RBracket)) return true;
    return afterItem ? tokenMatcher(next, Comma) : isNameToken(next);
  }

  /** A clause ahead (`with {`, `identifiers [`: see CLAUSES), not a name that happens to be spelt so. */
  private clauseAhead(): boolean {
    const bracket = CLAUSE_BRACKETS.get(this.LA(1).tokenType);
    return bracket !== undefined && tokenMatcher(this.LA(2), bracket);
  }

  // ------------------------------------------------------------------ file and lines

  file = this.RULE(
    "file",
    (): WfFile => {
    const statements = this.ACTION((): Statement[] => (this.statements = []));
    this.MANY({
      // Past the cap, reading on would only add recovery work and messages nobody reads.
      GATE: () => {
        if (this.savedErrors.length + this.problems.length < MAX_SYNTAX_ERRORS) return true;
        // Chevrotain may ask again while it winds up: the first place it stopped counts.
        this.stoppedAt ??= this.LA(1);
        return false;
      },
      DEF: () => this.OR([
        { ALT: () => this.CONSUME(Newline) },
        {
          ALT: () => {
            const statement = this.SUBRULE(this.statementLine);
            this.ACTION(() => statement && statements.push(statement));
          },
        },
      ]),
    });
    return { type: "file", statements, comments: [], start: 0, end: 0 };
    },
    {
      // An error at the very end of the input can reach the top rule: keep every statement,
      // including the one being read.
      recoveryValueFunc: () => {
        const statements = [...this.statements];
        if (this.current && !statements.includes(this.current)) statements.push(this.current);
        return { type: "file" as const, statements, comments: [], start: 0, end: 0 };
      },
    },
  );

  /** A statement and whatever is left on its line (an error, unless one was already reported). */
  statementLine = this.RULE(
    "statementLine",
    (): Statement | undefined => {
    const errorsBefore = this.ACTION(() => {
      this.current = undefined;
      return this.savedErrors.length + this.problems.length;
    });
    const first = this.LA(1);
    const statement = this.SUBRULE(this.statement);
    const rest: IToken[] = [];
    this.MANY(() => {
      rest.push(this.CONSUME(NonNewline));
    });
    this.ACTION(() => {
      const firstUnread = rest[0];
      if (!firstUnread) return;
      if (statement) widen(statement, span(rest[rest.length - 1]!));
      if (this.savedErrors.length + this.problems.length > errorsBefore) return;
      this.problems.push({ span: span(firstUnread), message: "", restOfLine: { statementTokens: this.tokensBetween(first, firstUnread), firstUnread } });
    });
    return statement;
    },
    // An error at the end of a line gives up the statement here: keep what it has.
    { recoveryValueFunc: () => this.current },
  );

  statement = this.RULE("statement", () => this.chooseStatement([{ ALT: () => this.SUBRULE(this.realStatement) }, { ALT: () => this.SUBRULE(this.invalidLine) }]), { recoveryValueFunc: () => this.current });

  /**
   * Every statement of the language (kept apart from `invalidLine` for content assist).
   * Chains come first: a chain is a name followed by `->` or `,`, which no declaration is, so
   * `part -> report` is an edge from a node called `part` and `part x = ...` a declaration.
   */
  realStatement = this.RULE("realStatement", () => this.chooseStatement(this.statementAlternatives), { recoveryValueFunc: () => this.current });

  /**
   * Two tokens choose the statement (`part x`, `a ->`), so that a mistake later in the line is
   * an error inside that statement, which keeps what it has, not an invalid line.
   */
  private chooseStatement(alternatives: IOrAlt<Statement | undefined>[]): Statement | undefined {
    return this.OR({ MAX_LOOKAHEAD: 2, IGNORE_AMBIGUITIES: true, DEF: alternatives });
  }

  /** A line that begins no statement: reported once, with what would have made sense. */
  invalidLine = this.RULE("invalidLine", (): InvalidStatement | undefined => {
    const tokens: IToken[] = [];
    this.AT_LEAST_ONE(() => {
      tokens.push(this.CONSUME(NonNewline));
    });
    return this.ACTION(() => {
      const first = tokens[0]!;
      const statement: InvalidStatement = { type: "invalid", ...join(span(first), span(tokens[tokens.length - 1]!)) };
      // The whole line, to find its first token that makes no sense (see `explainRestOfLine`).
      this.problems.push({ span: span(first), message: "", restOfLine: { statementTokens: tokens, firstUnread: first } });
      this.current = statement;
      return statement;
    });
  });

  // ------------------------------------------------------------------ statements and properties

  /**
   * A rule for each statement (`<keyword>Statement`) and each block property
   * (`<keyword>Property`), reading its steps (syntax-table.ts). A statement that has to give
   * up returns what it has read; a property, nothing.
   */
  private readonly statementRules = this.elementRules(STATEMENTS, EMPTY_STATEMENTS, "Statement");
  private readonly propertyRules = this.elementRules(PROPERTIES, EMPTY_PROPERTIES, "Property");
  /** The alternatives of `realStatement` and `blockProperty`, made once. */
  private readonly statementAlternatives: IOrAlt<Statement | undefined>[] = [
    { ALT: () => this.SUBRULE(this.chainStatement) },
    ...Object.values(this.statementRules).map((rule) => ({ ALT: () => this.SUBRULE(rule) as Statement | undefined })),
  ];
  private readonly propertyAlternatives = Object.values(this.propertyRules).map((rule) => ({ ALT: () => this.SUBRULE(rule) as BlockProperty | undefined }));
  /** The alternatives of a JSON literal's first token. */
  private readonly jsonStarts = [LBrace, LBracket, StringLiteral, NumberLiteral, Keywords.true, Keywords.false, Keywords.null].map((type) => ({ ALT: () => this.CONSUME(type) }));

  private elementRules<W extends string>(table: Record<W, { steps: readonly Step[]; keyword?: false }>, makers: Record<W, MakeElement>, suffix: "Statement" | "Property"): Record<W, ParserMethod<[], Syntax | undefined>> {
    const entries = Object.entries(table) as [W, { steps: readonly Step[]; keyword?: false }][];
    const isStatement = suffix === "Statement";
    return Object.fromEntries(
      entries.map(([word, { steps, keyword }]) => [
        word,
        this.RULE(`${word}${suffix}`, () => this.element(`${word}${suffix}`, makers[word], steps, keyword === false ? undefined : Keywords[word as KeywordText], isStatement), {
          recoveryValueFunc: () => (isStatement ? this.current : undefined),
        }),
      ]),
    ) as Record<W, ParserMethod<[], Syntax | undefined>>;
  }

  /** A subject's typed body, which begins with its kind word. */
  typedSubject = this.RULE("typedSubject", (): Syntax | undefined => this.element("typedSubject", EMPTY_SUBJECT_BODIES.typed, TYPED_SUBJECT, undefined, false));

  /**
   * An element of the tree: its keyword, if it has one, then its steps. One without a keyword
   * exists only once its first step is read. Each step is numbered as `numberedSteps` numbers
   * it: chevrotain tells apart the places of a rule by these numbers, and completion reads them
   * back (`stepAt`).
   */
  private element(rule: string, make: MakeElement, steps: readonly Step[], keyword: TokenType | undefined, isStatement: boolean): Syntax | undefined {
    let element: Element | undefined;
    if (keyword) {
      const token = this.CONSUME(keyword);
      this.ACTION(() => {
        element = make(token.startOffset, span(token).end);
        if (isStatement) this.current = element as unknown as Statement;
      });
    }
    const numbered = STEPS_OF_RULE.get(rule)!;
    /** Puts what a step read in its field (in an action: the grammar is recorded without them). */
    const fill = (step: Step, value: () => Syntax | undefined): void => {
      this.ACTION(() => {
        const read = value();
        if (!element && read && step === steps[0]) element = make(read.start, read.end);
        if (element && "key" in step && step.key) this.extend(element, step.key, read);
      });
    };
    /** Reads a step's rule, then puts what it read in its field. */
    const sub = <T extends Syntax | undefined>(step: Step, read: () => T): void => {
      const value = read();
      fill(step, () => value);
    };
    const readStep = (step: Step): void => {
      const idx = numbered.indexOf(step);
      /** Reads an optional step when it is there; an optional name, unless a clause begins there. */
      const maybe = (optional: boolean | undefined, read: () => void): void => {
        if (!optional) return read();
        this.option(idx, step.read === "name" ? { GATE: () => !this.clauseAhead(), DEF: read } : read);
      };
      switch (step.read) {
        case "name":
          return maybe(step.optional, () => sub(step, () => this.subrule(idx, this.nameRef)));
        case "version":
          return this.option(idx, () => sub(step, () => this.subrule(idx, this.versionRef)));
        case "block":
          return maybe(step.optional, () => sub(step, () => this.subrule(idx, this.block, { ARGS: [step.block] })));
        case "kind":
          return sub(step, () => this.subrule(idx, this.kindSpec, { ARGS: [step.block] }));
        case "with":
          return maybe(step.optional, () => sub(step, () => this.subrule(idx, this.withClause)));
        case "json":
          return sub(step, () => this.subrule(idx, this.jsonLiteral));
        case "equals": {
          const equals = this.consume(idx, Equals);
          return this.ACTION(() => {
            if (!element || !isReal(equals)) return;
            if (step.key) element[step.key] = equals.startOffset;
            widen(element, span(equals));
          });
        }
        case "clause":
          return this.option(idx, () => {
            const word = this.consume(idx, Keywords[step.keyword]);
            const value = this.subrule(idx, this.jsonLiteral);
            fill(step, () => ({ value, ...join(span(word), value) }));
          });
        case "list": {
          const list = this.subrule(idx, this.nameList, { ARGS: [element as SubjectsProperty | undefined] });
          // A list that had to give up takes its property with it.
          return this.ACTION(() => {
            if (!list) element = undefined;
          });
        }
        case "subject":
          return this.or(idx, {
            // One token decides: `{` begins JSON, a name begins `company "id" "label"`.
            MAX_LOOKAHEAD: 1,
            DEF: [
              {
                // Only an object: `subject x = "..."` would read as a kind word.
                GATE: () => tokenMatcher(this.LA(1), LBrace),
                ALT: () => {
                  const value = this.subrule(idx, this.jsonLiteral);
                  fill(step, () => value && { type: "raw", value, start: value.start, end: value.end });
                },
              },
              { ALT: () => sub(step, () => this.subrule(idx, this.typedSubject)) },
            ],
          });
        case "group":
          return this.option(idx, () => step.steps.forEach(readStep));
      }
    };
    steps.forEach(readStep);
    return element;
  }

  /** `a, b -> c -> d, e with {...}` */
  chainStatement = this.RULE(
    "chainStatement",
    (): ChainStatement | undefined => {
      const first = this.SUBRULE(this.nameGroup);
      const statement = this.ACTION((): ChainStatement => (this.current = { type: "chain", groups: [first], arrows: [], with: undefined, ...groupSpan(first) }));
      this.AT_LEAST_ONE({
        ERR_MSG: "`->`",
        DEF: () => {
          const arrow = this.CONSUME(Arrow);
          const group = this.SUBRULE2(this.nameGroup);
          this.ACTION(() => {
            statement.arrows.push(arrow.startOffset);
            statement.groups.push(group);
            widen(statement, group.length ? groupSpan(group) : span(arrow));
          });
        },
      });
      this.OPTION(() => {
        const clause = this.SUBRULE(this.withClause);
        this.ACTION(() => this.extend(statement, "with", clause));
      });
      return statement;
    },
    { recoveryValueFunc: () => this.current as ChainStatement | undefined },
  );

  nameGroup = this.RULE(
    "nameGroup",
    (): NameSyntax[] => {
      const names: NameSyntax[] = [];
      const first = this.SUBRULE(this.nameRef);
      this.ACTION(() => first && names.push(first));
      this.MANY(() => {
        this.CONSUME(Comma);
        const next = this.SUBRULE2(this.nameRef);
        this.ACTION(() => next && names.push(next));
      });
      return names;
    },
    { recoveryValueFunc: () => [] },
  );

  // ------------------------------------------------------------------ parts of statements

  /** A name, bare or quoted. */
  nameRef = this.RULE("nameRef", (): NameSyntax | undefined => {
    const token = this.OR({
      ERR_MSG: "a name",
      DEF: [{ ALT: () => this.CONSUME(Name) }, { ALT: () => this.CONSUME(StringLiteral) }],
    });
    return this.ACTION(() => (isReal(token) ? { text: nameText(token), quoted: token.tokenType === StringLiteral, ...span(token) } : undefined));
  });

  /** `@1` or `@"2024 Q1"`. */
  versionRef = this.RULE("versionRef", (): VersionSyntax | undefined =>
    this.OR([
      {
        ALT: () => {
          const token = this.CONSUME(VersionLiteral);
          return this.ACTION(() => (isReal(token) ? { text: token.image.slice(1), quoted: false, ...span(token), valueStart: token.startOffset + 1 } : undefined));
        },
      },
      {
        ALT: () => {
          const at = this.CONSUME(At);
          const value = this.CONSUME2(StringLiteral);
          return this.ACTION(() =>
            isReal(at) && isReal(value) ? { text: decodeString(value.image), quoted: true, ...join(span(at), span(value)), valueStart: value.startOffset } : undefined,
          );
        },
      },
    ]),
  );

  /** The kind word of a trigger or destination, and its optional block. */
  kindSpec = this.RULE("kindSpec", (blockKind: BlockKind): KindSpec | undefined => {
    const kind = this.SUBRULE(this.nameRef);
    const spec = this.ACTION(() => (kind ? ({ kind, block: undefined, start: kind.start, end: kind.end } as KindSpec) : undefined));
    this.OPTION(() => {
      const block = this.SUBRULE(this.block, { ARGS: [blockKind] });
      this.ACTION(() => {
        if (spec && block) {
          spec.block = block;
          widen(spec, block);
        }
      });
    });
    return spec;
  });

  withClause = this.RULE("withClause", (): WithClause | undefined => {
    const keyword = this.CONSUME(Keywords.with);
    const value = this.SUBRULE(this.jsonLiteral);
    return this.ACTION(() => ({ value, ...join(span(keyword), value) }));
  });

  /** `{ property... }`; newlines inside are skipped while the next line continues the block. */
  block = this.RULE("block", (blockKind: BlockKind): Block | undefined => {
    const open = this.CONSUME(LBrace);
    const properties: BlockProperty[] = [];
    this.MANY({
      GATE: () => (tokenMatcher(this.LA(1), Newline) ? this.continuesBlock(blockKind) : !tokenMatcher(this.LA(1), RBrace)),
      DEF: () => {
        this.OR({
          IGNORE_AMBIGUITIES: true,
          DEF: [
            { ALT: () => this.CONSUME(Newline) },
            {
              ALT: () => {
                const property = this.SUBRULE(this.blockProperty, { ARGS: [blockKind] });
                this.ACTION(() => property && properties.push(property));
              },
            },
            ...(this.readsRestOfLine ? [{ ALT: () => this.SUBRULE(this.blockRestOfLine, { ARGS: [blockKind] }) }] : []),
          ],
        });
      },
    });
    const close = this.SUBRULE(this.closeBrace);
    return this.ACTION(() => {
      const last = close ?? properties[properties.length - 1];
      return { open: open.startOffset, close: close?.start, properties, ...join(span(open), last) };
    });
  });

  /**
   * Tokens in a block that begin no property: skipped up to the end of the line or the `}`,
   * with one error unless the line already has one (recovering from it landed here).
   */
  blockRestOfLine = this.RULE("blockRestOfLine", (blockKind: BlockKind): void => {
    const tokens: IToken[] = [];
    this.AT_LEAST_ONE({
      GATE: () => !tokenMatcher(this.LA(1), RBrace),
      DEF: () => {
        tokens.push(this.CONSUME(NonNewline));
      },
    });
    this.ACTION(() => {
      const first = tokens[0];
      if (!first || this.lineHasError(first)) return;
      this.problems.push({ span: span(first), message: "", restOfLine: { statementTokens: tokens, firstUnread: first, blockKind } });
    });
  });

  /** Their own rules, so that a missing `}` or `]` loses nothing the block or list already read. */
  closeBrace = this.RULE("closeBrace", (): Span | undefined => this.closer(RBrace));
  closeBracket = this.RULE("closeBracket", (): Span | undefined => this.closer(RBracket));

  blockProperty = this.RULE("blockProperty", (_blockKind: BlockKind): BlockProperty | undefined => this.OR(this.propertyAlternatives));

  /** `[a, b]` after its property's keyword (`subjects`); newlines inside are skipped while the list plausibly goes on. */
  nameList = this.RULE("nameList", (property: SubjectsProperty | undefined): SubjectsProperty | undefined => {
    const open = this.CONSUME(LBracket);
    this.ACTION(() => {
      if (property && isReal(open)) {
        property.open = open.startOffset;
        widen(property, span(open));
      }
    });
    this.SUBRULE(this.listNewlines, { ARGS: [false] });
    this.OPTION(() => {
      const first = this.SUBRULE(this.nameRef);
      this.ACTION(() => first && property?.items.push(first));
      this.SUBRULE2(this.listNewlines, { ARGS: [true] });
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE3(this.listNewlines, { ARGS: [false] });
        const next = this.SUBRULE2(this.nameRef);
        this.ACTION(() => next && property?.items.push(next));
        this.SUBRULE4(this.listNewlines, { ARGS: [true] });
      });
    });
    const close = this.SUBRULE(this.closeBracket);
    this.ACTION(() => {
      if (!property) return;
      property.close = close?.start;
      const last = property.items[property.items.length - 1];
      widen(property, close ?? last);
    });
    return property;
  });

  listNewlines = this.RULE("listNewlines", (afterItem: boolean): void => {
    this.MANY({
      GATE: () => this.continuesList(afterItem),
      DEF: () => {
        this.CONSUME(Newline);
      },
    });
  });

  /**
   * A JSON value, consumed as a flat run of tokens while its brackets are open (and across
   * newlines while the next line continues it), each built into the value by json-literal.ts.
   */
  jsonLiteral = this.RULE("jsonLiteral", (): JsonLiteral | undefined => {
    // Made at the first real token (never while chevrotain records the grammar); fed each
    // token as it is consumed, so a long literal is never also held as a list of tokens.
    let builder: JsonLiteralBuilder | undefined;
    let depth = 0;
    /** Gives a token of the literal to the builder and counts the brackets it leaves open. */
    const take = (token: IToken): void => {
      if (token.tokenType === LBrace || token.tokenType === LBracket) depth++;
      else if (token.tokenType === RBrace || token.tokenType === RBracket) depth--;
      if (builder && !builder.problem && token.tokenType !== Newline) builder.add(JSON_KIND.get(token.tokenType)!, token.startOffset, token.startOffset + token.image.length);
    };
    const first = this.OR({ ERR_MSG: "a JSON value", DEF: this.jsonStarts });
    this.ACTION(() => {
      if (isReal(first)) builder = new JsonLiteralBuilder(this.text);
      take(first);
    });
    this.MANY({
      GATE: () => depth > 0 && (tokenMatcher(this.LA(1), JsonToken) || (tokenMatcher(this.LA(1), Newline) && tokenMatcher(this.nextSignificant(), JsonToken))),
      DEF: () => {
        const token = this.OR2([{ ALT: () => this.CONSUME(Newline) }, { ALT: () => this.CONSUME(JsonToken) }]);
        this.ACTION(() => take(token));
      },
    });
    return this.ACTION(() => {
      if (!builder) return undefined;
      const { literal, problem } = builder.finish();
      if (problem) this.problems.push(problem);
      return literal;
    });
  });

  // ------------------------------------------------------------------ helpers

  /** Chevrotain's content assist, which answers nothing where it gives up (it throws). */
  assistAt(rule: "realStatement" | "blockProperty", tokens: IToken[]): ReturnType<WfParser["computeContentAssist"]> {
    try {
      return this.computeContentAssist(rule, tokens);
    } catch {
      return [];
    }
  }

  /** The span of a closing bracket, unless recovery inserted it. */
  private closer(type: TokenType): Span | undefined {
    const token = this.CONSUME(type);
    return this.ACTION(() => (isReal(token) ? span(token) : undefined));
  }

  /** Sets a part of a statement (or block) and widens its span to cover it. */
  private extend<T extends Syntax, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
    if (value === undefined) return;
    target[key] = value;
    // A part is a syntax element or a span (`equals`): either has offsets.
    const part = value as Partial<Span>;
    if (typeof part.start === "number" && typeof part.end === "number") widen(target, part as Span);
  }

  /** True when an error was already reported on the line of `token` (before it). */
  private lineHasError(token: IToken): boolean {
    const vector = this.input;
    let index = binarySearchToken(vector, token.startOffset) - 1;
    while (index >= 0 && vector[index]!.tokenType !== Newline) index--;
    const lineStart = index >= 0 ? vector[index]!.startOffset + 1 : 0;
    const lastError = this.savedErrors[this.savedErrors.length - 1];
    const lastProblem = this.problems[this.problems.length - 1];
    const errorOffset = lastError ? (isReal(lastError.token) ? lastError.token.startOffset : (lastError as { previousToken?: IToken }).previousToken?.startOffset ?? -1) : -1;
    return errorOffset >= lineStart || (lastProblem?.span.start ?? -1) >= lineStart;
  }

  private tokensBetween(first: IToken, stop: IToken): IToken[] {
    return this.input.slice(binarySearchToken(this.input, first.startOffset), binarySearchToken(this.input, stop.startOffset));
  }
}

function groupSpan(group: NameSyntax[]): Span {
  const first = group[0];
  const last = group[group.length - 1];
  return first && last ? join(first, last) : { start: 0, end: 0 };
}

/** The index of the first token at or after `offset`. */
function binarySearchToken(tokens: readonly IToken[], offset: number): number {
  return partitionPoint(tokens.length, (i) => tokens[i]!.startOffset < offset);
}

/**
 * The one chevrotain parser instance: performSelfAnalysis is costly, so it is
 * built once and reused, and only when first needed (a text the fast path declines, content
 * assist, grammar validation, the railroad diagram): a CLI run on valid files never pays it.
 */
let sharedInstance: WfParser | undefined;

/** The shared chevrotain parser, built on first call. Nothing may build it at import time. */
function sharedParser(): WfParser {
  return (sharedInstance ??= new WfParser());
}

/** The reference path: chevrotain's lexer and parser with error recovery. Exported for tests. */
export function parseWithChevrotain(text: string): ParseResult {
  const { ast, faults } = chevrotainParse(text);
  return { ast, faults };
}

/** `parseWithChevrotain`, and how many errors the parser counted towards `MAX_SYNTAX_ERRORS`. */
export function chevrotainParse(text: string): ParseResult & { errorCount: number } {
  const lexed = lex(text);
  markNewlines(lexed.tokens);
  const tokens = dropContinuationNewlines(lexed.tokens);
  const parser = sharedParser();
  parser.begin(tokens, text);
  const ast = parser.file();
  ast.start = 0;
  ast.end = text.length;
  ast.comments = lexed.comments.map((token) => ({ text: token.image, ...span(token) }));

  const lines = new LineIndex(text);
  const faults: SourceFault[] = [];
  const syntaxError = (at: Span, message: string): void => {
    faults.push(sourceFault(lines, DSL_CODES.syntax, message, at));
  };
  for (const problem of lexed.problems) syntaxError({ start: problem.offset, end: problem.offset + problem.length }, problem.message);
  const errors = parser.errors;
  for (const error of errors) {
    // Stopping early leaves input unread on purpose: the summary below says so instead.
    if (parser.stoppedAt && error.name === "NotAllInputParsedException") continue;
    syntaxError(errorSpan(error, text), error.message + errorHint(error, text));
  }
  for (const problem of parser.problems) {
    const { span: at, message } = problem.restOfLine ? explainRestOfLine(problem.restOfLine, text) : problem;
    syntaxError(at, message);
  }
  // One place, one message: recovery can report a spot twice.
  faults.sort((a, b) => a.span.start - b.span.start);
  const unique = faults.filter((fault, i) => fault.span.start !== faults[i - 1]?.span.start);
  return { ast, faults: capSyntaxErrors(unique, parser.stoppedAt, lines), errorCount: errors.length + parser.problems.length };
}

function capSyntaxErrors(sorted: SourceFault[], stoppedAt: IToken | undefined, lines: LineIndex): SourceFault[] {
  if (sorted.length <= MAX_SYNTAX_ERRORS && !stoppedAt) return sorted;
  const kept = sorted.slice(0, MAX_SYNTAX_ERRORS);
  const hidden = sorted.length - kept.length;
  const lastEnd = kept[kept.length - 1]?.span.end ?? 0;
  // A line's end is not a place to point at: the first token after it is.
  if (stoppedAt?.tokenType === Newline) stoppedAt = (stoppedAt as NewlineToken).nextSignificant ?? stoppedAt;
  const at = stoppedAt && isReal(stoppedAt) && stoppedAt.tokenType !== EOF && stoppedAt.startOffset >= lastEnd ? span(stoppedAt) : { start: lastEnd, end: lastEnd };
  const message = stoppedAt
    ? `too many syntax errors: stopped after ${MAX_SYNTAX_ERRORS.toLocaleString("en")}, and the text from line ${lines.positionAt(at.start).line + 1} on was not checked; fix the errors above and check again`
    : `${hidden.toLocaleString("en")} more syntax errors not shown (at most ${MAX_SYNTAX_ERRORS.toLocaleString("en")} are reported); fix the errors above and check again`;
  kept.push(sourceFault(lines, DSL_CODES.syntax, message, at));
  return kept;
}

/**
 * Annotates each newline with the next token that is not a newline, so the parser can decide
 * in constant time whether the next line continues a block or a JSON literal.
 */
function markNewlines(tokens: IToken[]): void {
  let next: IToken | undefined;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i]!;
    if (token.tokenType !== Newline) next = token;
    else if (next) (token as NewlineToken).nextSignificant = next;
  }
}

/**
 * A line that starts with `->` continues the chain above it (no statement can start with an
 * arrow), so the newlines before it are not statement ends.
 */
function dropContinuationNewlines(tokens: IToken[]): IToken[] {
  const continues = (token: NewlineToken): boolean => token.tokenType === Newline && token.nextSignificant?.tokenType === Arrow;
  return tokens.some(continues) ? tokens.filter((token) => !continues(token)) : tokens;
}

/** Where to underline a chevrotain error: the unexpected token, or the one before a line end. */
function errorSpan(error: IRecognitionException, text: string): Span {
  const token = error.token;
  const previous = (error as IRecognitionException & { previousToken?: IToken }).previousToken;
  if (isReal(token) && token.tokenType !== Newline && token.tokenType !== EOF) return span(token);
  if (isReal(previous)) return span(previous);
  return { start: text.length, end: text.length };
}

/**
 * Explains a line that is not a statement, or the rest of a line after a complete statement:
 * finds the first token that cannot continue what precedes it (chevrotain's content assist
 * knows what could have) and says what was expected there.
 */
function explainRestOfLine({ statementTokens, firstUnread, blockKind }: RestOfLine, text: string): { span: Span; message: string } {
  const line = statementTokens.includes(firstUnread) ? statementTokens : [...statementTokens, firstUnread];
  const rule = blockKind ? "blockProperty" : "realStatement";
  // Long statements (a chain of thousands of links) are not worth exploring token by token.
  if (line.length > 200) return { span: span(firstUnread), message: `expected a new line after \`${statementTokens[statementTokens.length - 1]?.image ?? ""}\`, found ${describeToken(firstUnread)}` };
  for (let i = 0; i < line.length; i++) {
    const prefix = line.slice(0, i);
    const next = line[i]!;
    const expected = nextTokenTypes(rule, prefix);
    if (expected.some((type) => tokenMatcher(next, type))) continue;
    const previous = line[i - 1];
    if (!previous && blockKind) return { span: span(next), message: `expected ${wordList([...BLOCKS[blockKind].properties, "}"], "or")} in ${BLOCKS[blockKind].what}, found ${describeToken(next)}` };
    if (!previous) return { span: span(next), message: `expected a statement (a declaration such as \`part\`, or an edge such as \`a -> b\`), found ${describeToken(next)}` };
    const complete = !blockKind && statementIsComplete(prefix, text);
    const options = listExpected(complete ? [...expected, Newline] : expected);
    return { span: span(next), message: `expected ${options} after \`${previous.image}\`, found ${describeToken(next)}${next.tokenType === Equals ? equalsHint(text, next.startOffset) : ""}` };
  }
  // Every token fits, but the line stops too early.
  const last = line[line.length - 1]!;
  const expected = nextTokenTypes(rule, line);
  const found = span(last).end >= text.trimEnd().length ? "the end of the file" : "the end of the line";
  return { span: span(last), message: `expected ${listExpected(expected)} after \`${last.image}\`, found ${found}${last.tokenType === Arrow ? TRAILING_ARROW_HINT : ""}` };
}

/**
 * What to write instead, for a chain whose line ends in `->`: the chain goes on only on a line
 * that starts with the arrow.
 */
const TRAILING_ARROW_HINT = "; a line cannot end with `->`: name the next node on this line, or move the `->` to the start of the next line (a line that starts with `->` continues the chain)";

/** The statements written `KEYWORD NAME VALUE`, with no `=` (`part` and `subject` take one). */
const NO_EQUALS = /^[ \t]*(gate|trigger|destination)[ \t]+([^\s=#]+)[ \t]*$/;

/**
 * A hint for the `=` at `offset` in `gate floor = hold` (and `trigger` and `destination`
 * alike): the line as it is written without it. Nothing for any other `=`.
 */
function equalsHint(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const match = NO_EQUALS.exec(text.slice(lineStart, offset));
  if (!match) return "";
  const lineEnd = text.indexOf("\n", offset);
  // The rest of the line, without a trailing comment (`#` outside quotes is one).
  const rest = text.slice(offset + 1, lineEnd < 0 ? text.length : lineEnd).replace(/[ \t]+#[^"]*$/, "").trim();
  const written = `${match[1]} ${match[2]}${rest ? ` ${rest}` : ""}`;
  return written.length <= 80 && !/[\u0000-\u001f`]/.test(written) ? `; a \`${match[1]}\` takes no \`=\`: write \`${written}\`` : `; a \`${match[1]}\` takes no \`=\``;
}

/** A hint for one of chevrotain's errors, from where it is (the message already says what was expected). */
function errorHint(error: IRecognitionException, text: string): string {
  const token = error.token;
  const previous = (error as IRecognitionException & { previousToken?: IToken }).previousToken;
  if (isReal(token) && token.tokenType === Equals) return equalsHint(text, token.startOffset);
  if (isReal(previous) && previous.tokenType === Arrow && (!isReal(token) || token.tokenType === Newline || token.tokenType === EOF)) return TRAILING_ARROW_HINT;
  return "";
}

// ------------------------------------------------------------------ syntax error messages

// In the words of the language ("expected `->` or a new line after `compare`"), never
// chevrotain's token names.

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
function describeToken(token: IToken | undefined): string {
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
function listExpected(types: readonly TokenType[]): string {
  const unique = [...new Set(types)];
  const anyName = unique.includes(Name);
  const labels: string[] = [];
  for (const type of unique) {
    if (anyName && (type === StringLiteral || KEYWORD_OF.has(type))) continue;
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

/** The end of a message: after which token (none at the start of a line), and what was found. */
function afterAndFound(previous: IToken | undefined, actual: IToken | undefined): string {
  const after = !previous || previous.tokenType === Newline || !previous.image ? "" : ` after ${describeToken(previous)}`;
  return `${after}, found ${describeToken(actual)}`;
}

const errorMessageProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, previous }) {
    if (expected === RBrace) return `expected \`}\` to close the block${afterAndFound(previous, actual)}`;
    if (expected === RBracket) return `expected \`]\` to close the list${afterAndFound(previous, actual)}`;
    return `expected ${labelOf(expected)}${afterAndFound(previous, actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    return `unexpected ${describeToken(firstRedundant)}`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, customUserDescription }) {
    const expected = customUserDescription ?? listExpected(expectedPathsPerAlt.flat().flatMap((path) => path[0] ?? []));
    return `expected ${expected}${afterAndFound(previous, actual[0])}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, previous, customUserDescription }) {
    const expected = customUserDescription ?? listExpected(expectedIterationPaths.flatMap((path) => path[0] ?? []));
    return `expected ${expected}${afterAndFound(previous, actual[0])}`;
  },
};

function nextTokenTypes(rule: "realStatement" | "blockProperty", prefix: IToken[]): readonly TokenType[] {
  // Content assist reads only the prefix's token types. A broken line is explained one prefix
  // at a time, and broken lines tend to repeat (a paste gone wrong, a faulty generator), so the
  // answers are remembered by rule and types; the memo is bounded, as texts are unbounded.
  let key = rule;
  for (const token of prefix) key += ` ${token.tokenType.name}`;
  const known = nextTypesMemo.get(key);
  if (known) return known;
  const types = sharedParser().assistAt(rule, prefix).map((path) => path.nextTokenType);
  if (nextTypesMemo.size >= NEXT_TYPES_MEMO_SIZE) nextTypesMemo.clear();
  nextTypesMemo.set(key, types);
  return types;
}

const NEXT_TYPES_MEMO_SIZE = 2_000;
const nextTypesMemo = new Map<string, readonly TokenType[]>();

/** True when `prefix` is a whole statement already (a new line could follow it). */
function statementIsComplete(prefix: IToken[], text: string): boolean {
  if (prefix.length === 0) return false;
  probeParser ??= new WfParser(false);
  probeParser.begin(prefix, text);
  probeParser.realStatement();
  return probeParser.errors.length === 0 && probeParser.problems.length === 0;
}

/** A parser without recovery, built on first need, that only tests whether tokens form a statement. */
let probeParser: WfParser | undefined;
/**
 * The railroad (syntax) diagram of the grammar, an HTML page that loads chevrotain's diagram
 * renderer: drawn from the parser itself (grammar/wf-railroad.html, kept current by a test).
 */
export function railroadHtml(): string {
  return createSyntaxDiagramsCode(sharedParser().getSerializedGastProductions());
}

/** Builds a parser with chevrotain's grammar validations on; throws on a grammar error. */
export function validateGrammar(): void {
  new WfParser(true, false);
}

// ------------------------------------------------------------------ what may come next

/** What the grammar takes at the end of a text: what completion offers there. */
export interface Expected {
  /** Where the word being typed begins (a name, keyword, version or unclosed string); it runs to the end of the text. */
  wordStart: number;
  /** Keywords that may begin a statement, or a property of the enclosing block's kind, here. */
  keywords: KeywordText[];
  /** What a name written here would stand for; undefined where no name may stand. */
  role: NameRole | undefined;
  /** A version being typed after `name@`: that name, where it begins and what it stands for. */
  versionOf: { role: NameRole; name: string; start: number } | undefined;
  /** An edge target's sources (the group before the arrow), or the names of the list being written. */
  nearby: string[];
  /** The part id of the statement, when it is a part declared with one. */
  partId: string | undefined;
}

/** The numbered steps (`numberedSteps`) of each rule that reads an element. */
const STEPS_OF_RULE = new Map<string, Step[]>([
  ...Object.entries(STATEMENTS).map(([word, { steps }]) => [`${word}Statement`, numberedSteps(steps)] as const),
  ...Object.entries(PROPERTIES).map(([word, { steps }]) => [`${word}Property`, numberedSteps(steps)] as const),
  ["typedSubject", numberedSteps(TYPED_SUBJECT)],
]);

/** The grammar without its rest-of-line rules, for content assist; built on first need. */
let assistParser: WfParser | undefined;
/** Past this many tokens (after compaction) a statement is not explored: content assist costs about 0.1 ms a token. */
const MAX_ASSIST_TOKENS = 400;
const WORD_AT_END = new RegExp(`${NAME_CHAR.source}(?:${NAME_CHAR.source}|[${NAME_JOINERS.replace("-", "\\-")}])*$`);

/**
 * What may follow `text`, the text before the cursor from a statement boundary (earlier whole
 * statements in it are skipped): chevrotain's content assist on the statement's tokens, read
 * against the table for the keywords that may begin a statement or property there and what a
 * name there would stand for.
 */
export function expectedAt(text: string): Expected {
  let wordStart = WORD_AT_END.exec(text)?.index ?? text.length;
  const lexed = lex(text.slice(0, wordStart));
  const comment = lexed.comments[lexed.comments.length - 1];
  markNewlines(lexed.tokens);
  const tokens = lastStatement(dropContinuationNewlines(lexed.tokens));
  const last = tokens[tokens.length - 1];
  const atWord = last && last.startOffset + last.image.length === wordStart ? last : undefined;
  // A quoted name being typed (the lexer reports a string left open at its start).
  if (atWord?.tokenType === StringLiteral && lexed.problems.some((problem) => problem.offset === atWord.startOffset)) wordStart = tokens.pop()!.startOffset;
  const expected: Expected = { wordStart, keywords: [], role: undefined, versionOf: undefined, nearby: [], partId: partIdOf(tokens) };
  if (comment && comment.startOffset + comment.image.length === wordStart) return expected;
  if (atWord?.tokenType === At) {
    const name = tokens[tokens.length - 2];
    const role = name && isNameToken(name) ? assist(tokens.slice(0, -2), expected).role : undefined;
    return { ...expected, keywords: [], role: undefined, versionOf: role && { role, name: nameText(name!), start: name!.startOffset } };
  }
  assist(tokens, expected);
  if (expected.role === "edge-target") {
    const arrows = tokens.flatMap((token, i) => (token.tokenType === Arrow ? [i] : []));
    expected.nearby = tokens.slice((arrows[arrows.length - 2] ?? -1) + 1, arrows[arrows.length - 1]).filter(isNameToken).map(nameText);
  } else if (expected.role === "subject-ref") {
    expected.nearby = tokens.slice(tokens.map((token) => token.tokenType).lastIndexOf(LBracket) + 1).filter(isNameToken).map(nameText);
  }
  return expected;
}

/** Content assist on `tokens` (a statement so far), read against the table into `expected`. */
function assist(tokens: IToken[], expected: Expected): Expected {
  const compact = compacted(tokens);
  assistParser ??= new WfParser(false, true, false);
  const paths = compact.length <= MAX_ASSIST_TOKENS ? assistParser.assistAt("realStatement", compact) : [];
  for (const { nextTokenType, ruleStack, occurrenceStack } of paths) {
    const word = KEYWORD_OF.get(nextTokenType);
    if (word !== undefined && !expected.keywords.includes(word) && beginsLine(word, ruleStack, occurrenceStack)) expected.keywords.push(word);
    if (nextTokenType === Name) expected.role ??= nameRoleOf(ruleStack, occurrenceStack);
  }
  return expected;
}

/** A statement keyword where a statement begins; a property keyword where a property of the block's kind begins. */
function beginsLine(word: KeywordText, rules: string[], occurrences: number[]): boolean {
  const n = rules.length - 1;
  if (n === 1) return rules[1] === `${word}Statement`;
  // A property's keyword is read by its rule, or (`with`) by the clause its rule begins with.
  const rule = rules[n] === "withClause" ? n - 1 : n;
  if (rules[rule] !== `${word}Property` || rules[rule - 1] !== "blockProperty") return false;
  const kind = blockKindOf(rules, occurrences);
  return kind !== undefined && blockHolds(kind, word as PropertyKeyword);
}

function nameRoleOf(rules: string[], occurrences: number[]): NameRole | undefined {
  const n = rules.length - 1;
  const parent = rules[n - 1];
  if (rules[n] !== "nameRef") return undefined;
  if (parent === "nameGroup") return occurrences[n - 1] === 0 ? "edge-source" : "edge-target";
  // A kind word or a list item stands for what the step that reads its kind or list says.
  const step = stepAt(rules, occurrences, parent === "kindSpec" || parent === "nameList" ? n - 1 : n);
  return step && "role" in step ? step.role : undefined;
}

/** The kind of the innermost block in the rule stack: its step's, or the kind word's step's around it. */
function blockKindOf(rules: string[], occurrences: number[]): BlockKind | undefined {
  const block = rules.lastIndexOf("block");
  const step = stepAt(rules, occurrences, rules[block - 1] === "kindSpec" ? block - 1 : block);
  return step && "block" in step ? step.block : undefined;
}

/** The step of an element's rule that called the rule at `index` of the stack. */
function stepAt(rules: string[], occurrences: number[], index: number): Step | undefined {
  return STEPS_OF_RULE.get(rules[index - 1] ?? "")?.[occurrences[index]!];
}

/** The tokens after the last line break outside brackets: the statement being written. */
function lastStatement(tokens: IToken[]): IToken[] {
  const open: TokenType[] = [];
  let start = 0;
  tokens.forEach((token, i) => {
    const type = token.tokenType;
    if (type === LBrace || type === LBracket) open.push(type);
    else if ((type === RBrace && open[open.length - 1] === LBrace) || (type === RBracket && open[open.length - 1] === LBracket)) open.pop();
    else if (type === Newline && open.length === 0) start = i + 1;
  });
  return tokens.slice(start);
}

/**
 * The statement's tokens with what cannot change the answer left out, so that content assist
 * stays cheap on long statements: the inside of every bracket already closed (`{}` reads as
 * the block or literal did), the lines already written inside the brackets still open, and a
 * chain's links before its last two groups.
 */
function compacted(tokens: IToken[]): IToken[] {
  if (tokens.length <= 64) return tokens;
  const out: IToken[] = [];
  const open: number[] = [];
  for (const token of tokens) {
    const type = token.tokenType;
    const opener = open.length ? out[open[open.length - 1]!]!.tokenType : undefined;
    const closes = (type === RBrace && opener === LBrace) || (type === RBracket && opener === LBracket);
    if (closes || (type === Newline && opener)) out.length = (closes ? open.pop()! : open[open.length - 1]!) + 1;
    else if (type === LBrace || type === LBracket) open.push(out.length);
    out.push(token);
  }
  let arrows = 0;
  for (let i = (open[0] ?? out.length) - 1; i >= 0; i--) if (out[i]!.tokenType === Arrow && ++arrows === 2) return out.slice(i + 1);
  return out;
}

function isNameToken(token: IToken): boolean {
  return tokenMatcher(token, Name) || tokenMatcher(token, StringLiteral);
}

function nameText(token: IToken): string {
  return token.tokenType === StringLiteral ? decodeString(token.image) : token.image;
}

/** `part name = id`: the id. */
function partIdOf(tokens: IToken[]): string | undefined {
  const [keyword, , equals, id] = tokens;
  return keyword?.tokenType === Keywords.part && equals?.tokenType === Equals && id && isNameToken(id) ? nameText(id) : undefined;
}

export { WfParser, sharedParser };
