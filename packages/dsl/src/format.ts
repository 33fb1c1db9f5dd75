/**
 * The formatter: `.wf` text in its one canonical layout (see printer.ts). It keeps every
 * comment and never changes meaning: the result is checked to compile to the same JSON with
 * the same comments, and if it ever did not, the text is returned unchanged.
 */
import { compileAst } from "./compile.js";
import type { SourceFault } from "./diagnostics.js";
import { jsonEqual } from "@wfkit/core";
import { parse } from "./parser.js";
import { printFile } from "./printer.js";

export interface FormatResult {
  /** The formatted text; the input itself when it has syntax errors. */
  text: string;
  changed: boolean;
  /** Syntax errors that prevented formatting (empty when the text was formatted). */
  faults: SourceFault[];
}

/** Formats `.wf` text. Text with syntax errors is returned unchanged, with the errors. */
export function format(text: string): FormatResult {
  const parsed = parse(text);
  const errors = parsed.faults.filter((fault) => fault.severity === "error");
  if (errors.length) return { text, changed: false, faults: parsed.faults };
  const bom = text.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
  // Keep the file's line ending (that of its first line break).
  const lineEnding = /\r\n|\r|\n/.exec(text)?.[0] ?? "\n";
  let printed = printFile(parsed.ast, { text });
  if (lineEnding !== "\n") printed = printed.replace(/\n/g, lineEnding);
  printed = bom + printed;
  if (printed === text) return { text, changed: false, faults: [] };
  if (!sameMeaning(text, parsed.ast, printed)) return { text, changed: false, faults: [] };
  return { text: printed, changed: true, faults: [] };
}

/** The formatted text compiles to the same JSON and keeps every comment. */
function sameMeaning(original: string, originalAst: ReturnType<typeof parse>["ast"], printed: string): boolean {
  const reparsed = parse(printed);
  if (reparsed.faults.some((fault) => fault.severity === "error")) return false;
  const commentTexts = (comments: { text: string }[]) => comments.map((comment) => comment.text.trimEnd()).sort();
  if (JSON.stringify(commentTexts(originalAst.comments)) !== JSON.stringify(commentTexts(reparsed.ast.comments))) return false;
  const before = compileAst(originalAst, original);
  const after = compileAst(reparsed.ast, printed);
  return before.workflowName === after.workflowName && jsonEqual(before.definition, after.definition);
}
