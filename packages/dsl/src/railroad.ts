/**
 * The railroad (syntax) diagram of the `.wf` grammar, generated from the parser itself so it
 * can never drift from what the parser accepts. Written to grammar/wf-railroad.html by
 * scripts/gen-grammar.mjs; a test keeps the checked-in file current.
 */
import { createSyntaxDiagramsCode } from "chevrotain";
import { sharedParser } from "./parser.js";

/** The diagram page (HTML that loads chevrotain's diagram renderer). */
export function railroadHtml(): string {
  return createSyntaxDiagramsCode(sharedParser().getSerializedGastProductions());
}
