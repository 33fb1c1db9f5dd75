/**
 * `wfkit pin FILE.wf`: every `subject` declaration is resolved with one resolve-subjects call
 * and rewritten to its canonical id, in place (the hint and the rewrite are @wfkit/dsl's
 * `subjectHintOf` and `subjectPinEdit`, shared with the language server's quick fix). What
 * stays unresolved is listed with its reason.
 *
 * resolve-subjects answers resolved subjects in the order of the hints that resolved (the
 * reference does not pair them; the local service keeps that order).
 */
import { parse, subjectHintOf, subjectPinEdit, unresolvedReasonText, type SourceEdit, type SubjectHint } from "@wfkit/dsl";
import { parseCommandArgs, booleanFlag } from "../args.js";
import { writeFileAtomic } from "../atomic-write.js";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { connect, printJson, reportingRefusals } from "../remote.js";
import { readSourceInput, singleFileArgument } from "../source-input.js";
import { pinSpec } from "./specs.js";

/** A reason in words; the reason as sent when the DSL's table has no words for it (its lookup is a plain object, so `constructor` would find a function). */
function reasonText(reason: string): string {
  const text: unknown = unresolvedReasonText(reason);
  return typeof text === "string" ? text : reason;
}

export async function runPin(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(pinSpec, argv);
  const source = await readSourceInput(singleFileArgument(args.positionals, "pin"), io, undefined);
  if (source.fromStdin || source.language !== "wf") throw new CliError(`pin rewrites a .wf file in place; ${printable(source.displayPath)} is not one`);
  const { client, format } = connect(args, io, "pin");
  const parsed = parse(source.text);
  if (parsed.faults.length) throw new CliError(`${printable(source.displayPath)} has syntax errors; fix them first (\`wfkit check ${printable(source.displayPath)}\`)`);
  const declared: SubjectHint[] = parsed.ast.statements.flatMap((statement) => (statement.type === "subject" ? (subjectHintOf(statement, source.text) ?? []) : []));
  if (!declared.length) {
    io.stderr.write(`wfkit: ${printable(source.displayPath)} declares no subjects; nothing to pin\n`);
    return 0;
  }
  return reportingRefusals(io, format, async () => {
    const hints = [...new Set(declared.map((d) => d.hint))];
    const answer = await client.resolveSubjects(hints);
    const failed = new Map(answer.unresolved.map((u) => [u.hint, u]));
    const resolvedHints = hints.filter((hint) => !failed.has(hint));
    const byHint = new Map(resolvedHints.map((hint, i) => [hint, answer.subjects[i]!]));
    // Edits from the end, so earlier offsets stay right.
    const edits: SourceEdit[] = [];
    const pinned: { subject: string; hint: string; canonicalId: string }[] = [];
    for (const d of declared) {
      const subject = byHint.get(d.hint);
      const edit = subject && subjectPinEdit(d.statement, subject);
      if (!subject || !edit) continue;
      edits.push(edit);
      pinned.push({ subject: d.name, hint: d.hint, canonicalId: subject.canonicalId });
    }
    let text = source.text;
    for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    const dryRun = booleanFlag(args, "dry-run");
    if (edits.length && !dryRun) await writeFileAtomic(source.absolutePath, text, source.displayPath);
    const unresolved = declared.filter((d) => failed.has(d.hint)).map((d) => ({ subject: d.name, ...failed.get(d.hint)! }));
    if (format === "json") printJson(io, { ok: unresolved.length === 0, path: source.displayPath, written: edits.length > 0 && !dryRun, pinned, unresolved });
    else {
      const lines = pinned.map((p) => `pinned ${printable(p.subject)}: ${printable(JSON.stringify(p.hint))} → ${printable(p.canonicalId)}`);
      for (const u of unresolved) {
        lines.push(`unresolved ${printable(u.subject)}: ${printable(JSON.stringify(u.hint))}: ${printable(reasonText(u.reason))}`);
        for (const c of u.candidates ?? []) lines.push(`  candidate ${printable(c.canonicalId)}  ${printable(c.label)} (${printable(c.ticker)})`);
      }
      lines.push(edits.length ? `${dryRun ? "would rewrite" : "rewrote"} ${printable(source.displayPath)}: ${edits.length} subject(s) pinned` : `${printable(source.displayPath)}: every resolved subject was already pinned`);
      io.stdout.write(lines.join("\n") + "\n");
    }
    return unresolved.length ? 1 : 0;
  });
}
