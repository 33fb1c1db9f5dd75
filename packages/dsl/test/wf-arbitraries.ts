/**
 * fast-check arbitraries of `.wf` text written from the grammar (parser.ts), for the tests
 * that hold the fast parser to the chevrotain one. Unlike `decompile` output, these use every
 * construct and every layout the grammar allows: keywords as names in every position, quoted
 * names with every escape, `@"quoted"` versions, raw-JSON subjects, fan-in and fan-out,
 * chains continued on `->` lines, blocks, lists and JSON literals broken over lines where the
 * parser lets them go on, comments and blank lines between, the three line endings, every
 * whitespace character the lexer skips, and tokens written with no space between them.
 *
 * Texts are meant to be valid; the tests check that chevrotain agrees (zero diagnostics), so a
 * generator mistake shows up as a failure rather than passing silently.
 */
import fc from "fast-check";
import { KEYWORD_TEXTS } from "@wfkit/dsl";
import { anyJson } from "./arbitraries.js";

/** A source of layout decisions: a fast-check array of numbers, read round-robin. */
class Choices {
  private index = 0;
  constructor(private readonly values: readonly number[]) {}
  /** A number in [0, n). */
  pick(n: number): number {
    const value = this.values.length ? this.values[this.index++ % this.values.length]! : 0;
    return value % n;
  }
  one<T>(options: readonly T[]): T {
    return options[this.pick(options.length)]!;
  }
}

const choices = fc.array(fc.nat(), { minLength: 1, maxLength: 48 }).map((values) => new Choices(values));

/** Whitespace the lexer skips, within a line. */
const SPACES = [" ", " ", " ", "  ", "\t", " \t ", "\u00a0", "\ufeff", "\f", "\v"];

/** A line comment's text (after `#`): any characters but line ends. */
const commentText = fc.oneof(fc.constantFrom("", " note", "# twice", ' "quoted', " {[->", " é 📦"), fc.string({ unit: "binary", maxLength: 8 })).map((text) => text.replace(/[\r\n]/g, "_"));

/**
 * A line break, as the lexer and the parser see it: maybe a comment before it, then one or
 * more line ends with blank or comment lines between, then indentation.
 */
function lineBreak(c: Choices, comments: readonly string[]): string {
  let out = "";
  if (c.pick(3) === 0) out += c.one(SPACES) + "#" + c.one(comments);
  const ends = ["\n", "\r\n", "\r"];
  out += c.one(ends);
  const extra = c.pick(4) === 0 ? c.pick(3) : 0;
  for (let i = 0; i < extra; i++) out += (c.pick(2) ? "  #" + c.one(comments) : c.pick(2) ? "" : "\t") + c.one(ends);
  out += c.one(["", "", "  ", "\t", "    "]);
  return out;
}

function gap(c: Choices): string {
  return c.one(SPACES);
}

/** A gap where the tokens on either side need none (punctuation). */
function tightGap(c: Choices): string {
  return c.pick(3) === 0 ? "" : c.one(SPACES);
}

// ---------------------------------------------------------------- names and strings

const bareName = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...KEYWORD_TEXTS) },
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}(?:[.-][A-Za-z0-9_]{1,3}){0,2}$/) },
  { weight: 1, arbitrary: fc.constantFrom("a", "_", "x1", "a-b", "a.b", "terminal.compare", "on_demand", "subjectsx", "partner", "with_", "true1", "null-x") },
);

/** A JSON string literal of `value`, escaping by `choices` (raw where allowed, or `\uXXXX`, or a short escape). */
function quote(value: string, c: Choices): string {
  let out = '"';
  for (const char of value) {
    for (let i = 0; i < char.length; i++) {
      const unit = char.charCodeAt(i);
      const hex = () => {
        const digits = unit.toString(16).padStart(4, "0");
        return "\\u" + (c.pick(2) ? digits : digits.toUpperCase());
      };
      const short: Record<number, string> = { 0x22: '\\"', 0x5c: "\\\\", 0x2f: "\\/", 0x08: "\\b", 0x0c: "\\f", 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t" };
      const mustEscape = unit === 0x22 || unit === 0x5c || unit === 0x0a || unit === 0x0d;
      const mode = c.pick(4);
      if (mode === 0 || mustEscape) out += short[unit] !== undefined && mode !== 1 ? short[unit] : hex();
      else out += String.fromCharCode(unit);
    }
  }
  return out + '"';
}

const stringValue = fc.oneof(
  fc.constantFrom("", "fetch data", 'say "hi"', "back\\slash", "a/b", "emoji 📦", "café", "tab\there", "new\nline", "cr\rx", "#hash", "a -> b", "{x}", "\ud800", "\u2028", "with"),
  fc.string({ unit: "binary", maxLength: 6 }),
);

/** A name token: bare, or quoted (`"..."`). */
function name(c: Choices, bare: string, quoted: string): string {
  return c.pick(3) === 0 ? quote(quoted, c) : bare;
}

// ---------------------------------------------------------------- JSON literals

/** A number as it may be written: not only JSON.stringify's form. */
function numberText(value: number, c: Choices): string {
  if (Object.is(value, -0)) return "-0";
  const plain = JSON.stringify(value);
  if (!Number.isInteger(value) || Math.abs(value) > 1e15) return plain;
  return c.one([plain, plain, `${plain}.0`, `${plain}e0`, `${plain}E+0`, `${plain}.50e-0`]);
}

/**
 * `value` as a JSON literal: spaces (or none) between tokens, and inside brackets line breaks
 * before any token (the parser reads on while the next line continues the literal).
 */
function jsonText(value: unknown, c: Choices, comments: readonly string[]): string {
  const inner = (): string => {
    const k = c.pick(6);
    return k === 0 ? lineBreak(c, comments) : k === 1 ? "" : gap(c);
  };
  const write = (v: unknown): string => {
    if (v === null) return "null";
    if (typeof v === "boolean") return String(v);
    if (typeof v === "number") return numberText(v, c);
    if (typeof v === "string") return quote(v, c);
    if (Array.isArray(v)) return "[" + v.map((item) => inner() + write(item) + inner()).join(",") + (v.length ? "" : inner()) + "]";
    const entries = Object.keys(v as object).map((key) => inner() + quote(key, c) + inner() + ":" + inner() + write((v as Record<string, unknown>)[key]) + inner());
    return "{" + entries.join(",") + (entries.length ? "" : inner()) + "}";
  };
  return write(value);
}

// ---------------------------------------------------------------- statements

interface Pools {
  names: string[];
  strings: string[];
  json: unknown[];
  objects: Record<string, unknown>[];
  arrays: unknown[][];
  versions: string[];
  comments: string[];
}

const pools: fc.Arbitrary<Pools> = fc.record({
  names: fc.array(bareName, { minLength: 1, maxLength: 6 }),
  strings: fc.array(stringValue, { minLength: 1, maxLength: 4 }),
  json: fc.array(anyJson, { minLength: 1, maxLength: 3 }),
  objects: fc.array(fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("__proto__", "ui", "x y")), anyJson, { maxKeys: 3 }), { minLength: 1, maxLength: 2 }),
  arrays: fc.array(fc.array(anyJson, { maxLength: 3 }), { minLength: 1, maxLength: 2 }),
  versions: fc.array(fc.stringMatching(/^[A-Za-z0-9_]{1,3}(?:[.+-][A-Za-z0-9_]{1,3}){0,2}$/), { minLength: 1, maxLength: 3 }),
  comments: fc.array(commentText, { minLength: 1, maxLength: 3 }),
});

/** Writes statements; every decision comes from `c`, every word from `p`. */
class Writer {
  constructor(
    private readonly c: Choices,
    private readonly p: Pools,
  ) {}

  name(): string {
    return name(this.c, this.c.one(this.p.names), this.c.one(this.p.strings));
  }

  json(kind: "any" | "object" | "array" = "any"): string {
    const value = kind === "object" ? this.c.one(this.p.objects) : kind === "array" ? this.c.one(this.p.arrays) : this.c.one([...this.p.json, ...this.p.objects, ...this.p.arrays]);
    return jsonText(value, this.c, this.p.comments);
  }

  /** `with <JSON>`; `object` where an optional name precedes it (only `with {` is a clause there). */
  with(kind: "any" | "object" = "any"): string {
    return "with" + (this.c.pick(4) === 0 && kind === "object" ? "" : gap(this.c)) + this.json(kind);
  }

  version(): string {
    if (this.c.pick(3) === 0) return "@" + tightGap(this.c) + quote(this.c.one(this.p.strings), this.c);
    return "@" + this.c.one(this.p.versions);
  }

  /** A break inside a block: a line break only before what may begin a line of it. */
  private blockGap(canStartLine: boolean): string {
    return canStartLine && this.c.pick(2) === 0 ? lineBreak(this.c, this.p.comments) : gap(this.c);
  }

  block(kind: "version" | "other", depth = 0): string {
    const c = this.c;
    let out = "{";
    const count = c.pick(4);
    for (let i = 0; i < count; i++) {
      const property = c.pick(kind === "version" && depth === 0 ? 8 : 5);
      // trigger, destination and scope begin a line only in a `version` block.
      const startsLine = property < 5 || kind === "version";
      out += (i === 0 && !startsLine ? tightGap(c) : this.blockGap(startsLine)) + this.property(property, depth);
    }
    return out + this.blockGap(true) + "}";
  }

  private property(which: number, depth: number): string {
    const c = this.c;
    switch (which) {
      case 0:
        return "schedule" + gap(c) + this.name();
      case 1:
        return "timezone" + gap(c) + this.name();
      case 2: {
        let out = "job" + gap(c) + this.name();
        if (c.pick(2)) out += tightGap(c) + this.version();
        if (c.pick(3) === 0) out += gap(c) + this.with();
        return out;
      }
      case 3: {
        // Line breaks may go anywhere inside the brackets of a list of names.
        const inner = () => (c.pick(4) === 0 ? lineBreak(c, this.p.comments) : tightGap(c));
        const items = Array.from({ length: c.pick(4) }, () => inner() + this.name() + inner());
        return "subjects" + tightGap(c) + "[" + (items.length ? items.join(",") : inner()) + "]";
      }
      case 4:
        return this.with();
      case 5:
      case 6:
        return (which === 5 ? "trigger" : "destination") + gap(c) + this.kindSpec(depth + 1);
      default:
        return "scope" + gap(c) + this.with();
    }
  }

  kindSpec(depth: number): string {
    const kind = this.name();
    return this.c.pick(2) ? kind + tightGap(this.c) + this.block("other", depth) : kind;
  }

  chain(): string {
    const c = this.c;
    // Names of a group are joined by `,` (spaces optional: `,` ends a name).
    const groupText = () => {
      const size = 1 + (c.pick(3) === 0 ? 1 + c.pick(2) : 0);
      let out = this.name();
      for (let i = 1; i < size; i++) out += tightGap(c) + "," + tightGap(c) + this.name();
      return out;
    };
    let out = groupText();
    const arrows = 1 + c.pick(3);
    for (let i = 0; i < arrows; i++) {
      // A line that begins with `->` continues the chain.
      out += (c.pick(3) === 0 ? lineBreak(c, this.p.comments) : tightGap(c)) + "->" + tightGap(c) + groupText();
    }
    if (c.pick(4) === 0) out += gap(c) + this.with();
    return out;
  }

  statement(): string {
    const c = this.c;
    switch (c.pick(12)) {
      case 0: {
        let out = "workflow";
        const named = c.pick(2) === 0;
        if (named) out += gap(c) + this.name();
        if (c.pick(3) === 0) out += gap(c) + this.with(named ? "any" : "object");
        return out;
      }
      case 1: {
        const head = "subject" + gap(c) + this.name() + tightGap(c) + "=" + tightGap(c);
        if (c.pick(4) === 0) return head + this.json("object");
        let out = head + this.name() + gap(c) + this.name();
        const labelled = c.pick(2) === 0;
        if (labelled) out += gap(c) + this.name();
        if (c.pick(3) === 0) {
          const json = this.json(labelled ? "any" : "array");
          // `identifiers1` or `identifierstrue` would be one word.
          out += gap(c) + "identifiers" + (/^[[{"]/.test(json) ? tightGap(c) : gap(c)) + json;
        }
        if (c.pick(3) === 0) out += gap(c) + this.with(labelled ? "any" : "object");
        return out;
      }
      case 2:
      case 3: {
        let out = (c.pick(2) ? "trigger" : "destination") + gap(c) + this.name() + gap(c) + this.kindSpec(0);
        if (c.pick(3) === 0) out += gap(c) + this.with();
        return out;
      }
      case 4:
      case 5: {
        let out = "part" + gap(c) + this.name();
        if (c.pick(3) !== 0) {
          out += tightGap(c) + "=" + tightGap(c) + this.name();
          if (c.pick(3) !== 0) out += (c.pick(2) ? "" : gap(c)) + this.version();
        }
        if (c.pick(2) === 0) out += tightGap(c) + this.block("other");
        if (c.pick(3) === 0) out += gap(c) + this.with();
        return out;
      }
      case 6: {
        let out = "gate" + gap(c) + this.name();
        const floor = c.pick(2) === 0;
        if (floor) out += gap(c) + this.name();
        if (c.pick(3) === 0) out += gap(c) + this.with(floor ? "any" : "object");
        return out;
      }
      case 7:
        return c.one(["node", "edge", "document"]) + gap(c) + this.json();
      case 8:
        return "version" + tightGap(c) + this.block("version");
      default:
        return this.chain();
    }
  }

  file(): string {
    const c = this.c;
    let out = c.one(["", "", "\ufeff", "\n", "# header\n", "  "]);
    const count = 1 + c.pick(5);
    for (let i = 0; i < count; i++) out += (i ? lineBreak(c, this.p.comments) : "") + this.statement();
    return out + c.one(["", "\n", "\r\n", " # end", "\n\n# end\n"]);
  }
}

/** Valid `.wf` text of a few statements, written from the grammar with random layout. */
export const grammarText: fc.Arbitrary<string> = fc.tuple(pools, choices).map(([p, c]) => new Writer(c, p).file());

/** Pieces inserted by `mutated`: tokens, halves of tokens, and characters that break lines, strings, words. */
const insertions = fc.oneof(
  fc.constantFrom(
    "", "\n", "\r\n", "\r", '"', "\\", "\\u", "{", "}", "[", "]", ",", ":", "=", "@", "->", "-", ">", "#", "# c\n", " ", "\t",
    "with", "with {", "with {}", "identifiers [", "identifiers", "subjects [", "version {", "part", "trigger", "job", "scope", "node", "document 1",
    "1", "-0", "1e", "1.", "0x1", "true", "null", "é", "📦", "\ud800", "\u2028", "'", "\ufeff", "\u00a0", "\u0000", "a", "_", "@1", '@"v"', '"x"',
  ),
  fc.string({ unit: "binary", maxLength: 3 }),
);

/** Delimiters swapped by `mutated`: lines joined or split, words glued, brackets and quotes dropped or doubled. */
const swaps = fc.constantFrom(
  ["\n", " "],
  ["\n", ""],
  [" ", "\n"],
  [" ", ""],
  [" ", "\r"],
  ["->", "\n->"],
  ["->", ","],
  [",", "->"],
  ['"', ""],
  ['"', '""'],
  ["{", ""],
  ["}", ""],
  ["[", ""],
  ["]", ""],
  [",", ""],
  [":", ""],
  ["@", ""],
  ["=", ""],
  ["#", ""],
  ["\\", ""],
);

/** `text` with a few edits: characters or runs removed, pieces inserted, a delimiter swapped, a line moved. */
export function mutated(texts: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      texts,
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 8 }), insertions), { maxLength: 4 }),
      fc.array(fc.tuple(fc.nat(), swaps), { maxLength: 2 }),
      fc.option(fc.tuple(fc.nat(), fc.nat())),
    )
    .filter(([, edits, swapped, move]) => edits.length + swapped.length > 0 || move !== null)
    .map(([text, edits, swapped, move]) => {
      let out = text;
      for (const [at, remove, insert] of edits) {
        const position = at % (out.length + 1);
        out = out.slice(0, position) + insert + out.slice(position + remove);
      }
      for (const [which, [from, to]] of swapped) {
        // The which-th occurrence of `from` (counted modulo their number) becomes `to`.
        const positions: number[] = [];
        for (let i = out.indexOf(from!); i >= 0; i = out.indexOf(from!, i + 1)) positions.push(i);
        if (!positions.length) continue;
        const position = positions[which % positions.length]!;
        out = out.slice(0, position) + to + out.slice(position + from!.length);
      }
      if (move) {
        const lines = out.split("\n");
        const [from, to] = [move[0] % lines.length, move[1] % lines.length];
        const [line] = lines.splice(from, 1);
        lines.splice(to, 0, line!);
        out = lines.join("\n");
      }
      return out;
    });
}
