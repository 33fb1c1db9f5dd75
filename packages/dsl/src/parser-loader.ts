/**
 * The chevrotain path (parser.ts: chevrotain's lexer and parser, error recovery and its
 * explanations, content assist, the railroad diagram), which the rest of the package reaches
 * only through here. The bundles that start often (the CLI, the language server's checker
 * thread) replace this module by one that loads parser.ts on the first call
 * (scripts/lazy-chevrotain.mjs), so that a run on valid text never loads chevrotain; an ES
 * module has no synchronous way to do that, so everywhere else it is imported as usual.
 */
import * as parser from "./parser.js";

export function chevrotainPath(): typeof parser {
  return parser;
}
