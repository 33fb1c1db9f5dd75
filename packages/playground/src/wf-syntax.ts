/**
 * How `.wf` text is coloured. What can be read off a line (comments, strings, versions,
 * numbers, arrows, the keyword that leads a statement) is read here; what a name *is* (a
 * node, a part id, a subject) is the language server's answer to
 * `textDocument/semanticTokens/full`, shown as marks until the next answer.
 */
import { StreamLanguage, type StringStream } from "@codemirror/language";
import { RangeSetBuilder, StateEffect, StateField, type Text } from "@codemirror/state";
import { Decoration, EditorView, type DecorationSet } from "@codemirror/view";
import { COMMENT_START, NAME_PATTERN, NUMBER_PATTERN, VERSION_PATTERN } from "@wfkit/dsl";

interface LineState {
  /** The next word starts a statement or a block's field: a keyword unless a name list follows. */
  leading: boolean;
}

/** The lexical table's patterns, anchored for CodeMirror's stream; a string may be open at the line's end. */
const COMMENT = new RegExp(`^${COMMENT_START}.*`);
const STRING = /^"(?:[^"\\]|\\.)*"?/;
const VERSION = new RegExp(`^@${VERSION_PATTERN.source}`);
const NUMBER = new RegExp(`^${NUMBER_PATTERN.source}(?![A-Za-z_])`);
const NAME = new RegExp(`^${NAME_PATTERN.source}`);

/**
 * A statement's or a block field's leading word is its keyword (`part`, `trigger`, `job`,
 * `with`...), unless an arrow or a comma follows it (then it names a node: keywords are valid
 * names); so is a word right before a list or a block (`subjects [`, `with {`).
 */
export const wfLanguage = StreamLanguage.define<LineState>({
  name: "wf",
  startState: () => ({ leading: true }),
  token(stream: StringStream, state: LineState): string | null {
    if (stream.sol()) state.leading = true;
    if (stream.eatSpace()) return null;
    const leading = state.leading;
    state.leading = false;
    if (stream.match(COMMENT)) return "comment";
    if (stream.match(STRING)) return "string";
    if (stream.match(VERSION)) return "number";
    if (stream.match(NUMBER)) return "number";
    if (stream.match("->")) return "operator";
    if (stream.match(NAME)) {
      if (stream.match(/^\s*[[{]/, false)) return "keyword";
      return leading && !stream.match(/^\s*(?:->|,|$)/, false) ? "keyword" : null;
    }
    const char = stream.next();
    if (char === "{") state.leading = true;
    return "punctuation";
  },
  copyState: (state) => ({ ...state }),
  languageData: { commentTokens: { line: "#" } },
});

/** The server's legend, as it answered `initialize`. */
export interface TokenLegend {
  tokenTypes: readonly string[];
  tokenModifiers: readonly string[];
}

const setTokens = StateEffect.define<DecorationSet>();

/** The marks of the last semantic tokens, moved with each edit until new ones come. */
export const semanticTokens = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    for (const effect of transaction.effects) if (effect.is(setTokens)) return effect.value;
    return marks.map(transaction.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

/**
 * The effect that shows `data` (LSP's relative encoding: line delta, start delta, length,
 * type, modifiers) on `doc`, the text the tokens were computed for. Each token gets the class
 * `wf-token-<type>`, and `wf-token-declaration` where it declares a name.
 */
export function semanticTokensEffect(doc: Text, data: readonly number[], legend: TokenLegend): StateEffect<DecorationSet> {
  const builder = new RangeSetBuilder<Decoration>();
  const declaration = legend.tokenModifiers.indexOf("declaration");
  let line = 0;
  let character = 0;
  for (let i = 0; i + 4 < data.length; i += 5) {
    const [deltaLine, deltaStart, length, type, modifiers] = data.slice(i, i + 5) as [number, number, number, number, number];
    line += deltaLine;
    character = deltaLine ? deltaStart : character + deltaStart;
    if (line >= doc.lines) break;
    const lineInfo = doc.line(line + 1);
    const from = lineInfo.from + character;
    const to = Math.min(from + length, lineInfo.to);
    if (from >= to) continue;
    const declares = declaration >= 0 && (modifiers & (1 << declaration)) !== 0;
    builder.add(from, to, Decoration.mark({ class: `wf-token-${legend.tokenTypes[type] ?? "name"}${declares ? " wf-token-declaration" : ""}` }));
  }
  return setTokens.of(builder.finish());
}
