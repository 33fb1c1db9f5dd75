// The TextMate grammar of `.wf` (grammar/wf.tmLanguage.json), generated from the lexical
// table of @wfkit/dsl: its keywords, what follows each statement's keyword, the property
// forms, the clause words and the patterns of names, versions, numbers, strings and comments.
// Only the colours (scopes) are decided here. Run after a build (`npm run build`):
//   node packages/vscode/scripts/textmate-grammar.mjs          write the file
//   node packages/vscode/scripts/textmate-grammar.mjs --check  exit 1 if the file is stale
// (`npm run grammar` writes it with the railroad diagram; a test fails when it is stale.)
import { writeGenerated } from "../../../scripts/generated-files.mjs";
import { fileURLToPath, pathToFileURL } from "node:url";

export const GRAMMAR_PATH = fileURLToPath(new URL("../../../grammar/wf.tmLanguage.json", import.meta.url));

/** The scope of a name by what it stands for (the table's roles); other roles are not coloured apart. */
const ROLE_SCOPES = {
  node: "entity.name.function.node.wf",
  subject: "entity.name.variable.subject.wf",
  "part-id": "entity.name.type.part-id.wf",
  "trigger-kind": "support.constant.kind.wf",
  "destination-kind": "support.constant.kind.wf",
  "subject-kind": "support.constant.kind.wf",
  "below-floor": "support.constant.below-floor.wf",
};
const ASSIGNMENT = "keyword.operator.assignment.wf";

const escape = (text) => text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
const words = (list) => list.map(escape).join("|");

/** The grammar (as the JSON text to check in) for the given table: @wfkit/dsl's exports. */
export function textMateGrammar(table) {
  const { NAME_PATTERN, NAME_START, VERSION_PATTERN, NUMBER_PATTERN, ESCAPE_PATTERN, COMMENT_START, ARROW, STATEMENTS, PROPERTIES, CLAUSES, JSON_WORDS, headOf } = table;
  const name = `("(?:[^"\\\\]|\\\\.)*"|${NAME_PATTERN.source})`;
  // An optional name is not a clause word before its bracket (`gate floor with {...}`).
  const notClause = `(?!${Object.entries(CLAUSES)
    .map(([word, bracket]) => `${escape(word)}\\s*${escape(bracket)}`)
    .join("|")})`;
  /** Properties whose keyword is followed by a kind word (`trigger scheduled`), and the others with a keyword of their own. */
  const startsWithKind = (word) => PROPERTIES[word].steps[0].read === "kind";
  const kinds = Object.keys(PROPERTIES).filter(startsWithKind);
  const otherProperties = Object.keys(PROPERTIES).filter((word) => !startsWithKind(word) && PROPERTIES[word].keyword !== false);

  /** A declaration's line from its statement's head (`headOf` in the table). */
  const declaration = (keyword, head) => {
    const captures = { 1: { name: `storage.type.${keyword}.wf` } };
    let previous = "keyword";
    const element = (item) => {
      const optional = item.endsWith("?");
      const word = optional ? item.slice(0, -1) : item;
      const gap = previous === "=" ? "\\s*" : "\\s+";
      previous = word;
      if (word === "=") {
        captures[Object.keys(captures).length + 1] = { name: ASSIGNMENT };
        return `\\s*(=)`;
      }
      captures[Object.keys(captures).length + 1] = { name: ROLE_SCOPES[word] };
      return optional ? `(?:${gap}${notClause}${name})?` : `${gap}${name}`;
    };
    // `(= part-id)?`: an optional group; anything else: space-separated items.
    const match = [...head.matchAll(/\(([^)]*)\)\?|(\S+)/g)].map(([, group, item]) => (group ? `(?:${group.split(" ").map(element).join("")})?` : element(item))).join("");
    return { match: `^\\s*(${escape(keyword)})${match}`, captures };
  };

  const heads = Object.entries(STATEMENTS).map(([keyword, { steps }]) => [keyword, headOf(steps)]);
  const declared = heads.filter(([, head]) => head);
  const plain = heads.filter(([, head]) => !head).map(([keyword]) => keyword);
  const clauseWords = Object.keys(CLAUSES);
  const propertyWords = [...otherProperties, ...clauseWords.filter((word) => CLAUSES[word] !== "{")];
  const grammar = {
    $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    name: "wf",
    scopeName: "source.wf",
    fileTypes: ["wf"],
    comment: "Generated from @wfkit/dsl's lexical table by packages/vscode/scripts/textmate-grammar.mjs: do not edit.",
    patterns: ["comment", "declaration", "statement-keyword", "block-keyword", "clause", "arrow", "version", "string", "number", "constant", "punctuation", "name"].map((rule) => ({ include: `#${rule}` })),
    repository: {
      comment: { name: "comment.line.number-sign.wf", match: `${escape(COMMENT_START)}.*$` },
      declaration: {
        comment: "A statement's keyword, the name it declares and what follows (`part compare = terminal.compare@1`), and a kind in a `version` block (`trigger scheduled {`). A keyword followed by `->` or `,` is a node name.",
        patterns: [
          ...declared.map(([keyword, head]) => declaration(keyword, head)),
          { match: `^\\s*(${words(kinds)})\\s+${name}\\s*(?=$|\\{|${escape(COMMENT_START)})`, captures: { 1: { name: "storage.type.declaration.wf" }, 2: { name: ROLE_SCOPES["trigger-kind"] } } },
        ],
      },
      "statement-keyword": { match: `^\\s*(${words(plain)})\\b(?!\\s*(?:${escape(ARROW)}|,))`, captures: { 1: { name: "keyword.control.statement.wf" } } },
      "block-keyword": { match: `\\b(${words(propertyWords)})\\b(?=\\s*(?:[\\["]|${NAME_START.source}))`, captures: { 1: { name: "keyword.other.property.wf" } } },
      clause: {
        patterns: clauseWords.map((word) => ({ match: `\\b(${escape(word)})\\b(?=\\s*${escape(CLAUSES[word])})`, captures: { 1: { name: `keyword.other.${word}.wf` } } })),
      },
      arrow: { name: "keyword.operator.arrow.wf", match: escape(ARROW) },
      version: { name: "constant.numeric.version.wf", match: `@(?:${VERSION_PATTERN.source})?` },
      string: {
        name: "string.quoted.double.wf",
        begin: '"',
        end: '"|$',
        patterns: [
          { name: "constant.character.escape.wf", match: ESCAPE_PATTERN.source },
          { name: "invalid.illegal.escape.wf", match: "\\\\." },
        ],
      },
      number: { name: "constant.numeric.wf", match: NUMBER_PATTERN.source },
      constant: { name: "constant.language.wf", match: `\\b(?:${words(JSON_WORDS)})\\b` },
      punctuation: {
        patterns: [
          { name: "punctuation.separator.comma.wf", match: "," },
          { name: "punctuation.separator.key-value.wf", match: ":" },
          { name: ASSIGNMENT, match: "=" },
          { name: "punctuation.section.braces.wf", match: "[{}]" },
          { name: "punctuation.section.brackets.wf", match: "[\\[\\]]" },
        ],
      },
      name: { name: "variable.other.node.wf", match: NAME_PATTERN.source },
    },
  };
  return `${JSON.stringify(grammar, null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = textMateGrammar(await import("@wfkit/dsl"));
  writeGenerated([{ path: GRAMMAR_PATH, text }], "node packages/vscode/scripts/textmate-grammar.mjs");
}
