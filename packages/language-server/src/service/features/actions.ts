/**
 * Quick fixes for `.wf`: @wfkit/dsl's `fixesFor` (the fixes `wfkit check --fix` applies too,
 * computed in one place: did-you-mean, add the missing trigger or destination, remove a
 * duplicate edge, pin a subject from the catalogue's table), turned into code actions here;
 * and one of the editor's own: pin a subject through the Workflows API's resolve-subjects,
 * when the transport says a service is configured: a command action
 * (`wfkit.pinSubjectRemote`, arguments: the document's uri and the subject's name as
 * written), which the server runs, so computing actions never waits on the network.
 */
import { Suggester } from "@wfkit/core";
import { faultedSubject, fixesFor, subjectHintOf, type FixInput } from "@wfkit/dsl";
import type { WfkitDocument } from "../document.js";
import { WFKIT_COMMANDS } from "../../protocol.js";
import { compiledOf } from "../graph.js";
import { comparePositions, type CodeAction, type CodeActionOptions, type Diagnostic, type Range } from "../types.js";

/** The command of the service-backed pin; the server registers and runs it. */
export const PIN_SUBJECT_REMOTE_COMMAND = WFKIT_COMMANDS.pinSubjectRemote;

export function getCodeActions(document: WfkitDocument, range: Range, diagnostics: Diagnostic[], options: CodeActionOptions = {}): CodeAction[] {
  if (document.language !== "wf") return [];
  const actions: CodeAction[] = [];
  let input: FixInput | undefined;
  const suggester = new Suggester();
  for (const diagnostic of diagnostics) {
    if (comparePositions(diagnostic.range.end, range.start) < 0 || comparePositions(range.end, diagnostic.range.start) < 0) continue;
    input ??= { text: document.text, ast: document.ast, definition: compiledOf(document), catalogue: document.catalogue };
    const span = { start: document.lines.offsetAt(diagnostic.range.start), end: document.lines.offsetAt(diagnostic.range.end) };
    for (const fix of fixesFor(input, { code: diagnostic.code, span, suggestion: diagnostic.data?.suggestion }, suggester))
      actions.push({
        title: fix.title,
        kind: "quickfix",
        edits: fix.edits.map((edit) => ({ range: document.lines.rangeOf(edit.start, edit.end), newText: edit.text })),
        isPreferred: fix.preferred,
        diagnostics: [diagnostic],
      });
    if (diagnostic.code === "subject-not-canonical" && options.servicePinning) actions.push(...pinSubjectThroughService(document, span.start, diagnostic));
  }
  return actions;
}

/** `subject-not-canonical` with a service configured: ask resolve-subjects for the hint, through the server. */
function pinSubjectThroughService(document: WfkitDocument, offset: number, diagnostic: Diagnostic): CodeAction[] {
  const statement = faultedSubject({ text: document.text, ast: document.ast }, offset);
  const hint = statement && subjectHintOf(statement, document.text);
  if (!hint) return [];
  const title = `Pin \`${hint.name}\` through the Workflows API (resolve ${JSON.stringify(hint.hint)})`;
  return [{ title, kind: "quickfix", edits: [], command: { title, command: PIN_SUBJECT_REMOTE_COMMAND, arguments: [document.uri, statement.name!.text] }, diagnostics: [diagnostic] }];
}
