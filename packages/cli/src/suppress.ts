/**
 * Inline suppressions in `.wf` sources:
 *
 *     # wfkit-ignore dead-end: kept for the next release
 *     node draft = part terminal.profile ...
 *
 *     node legacy = part pack v1   # wfkit-ignore unknown-field, dead-end: migrating in Q3
 *
 * - A comment on a line of its own covers the next line that is neither blank nor only a
 *   comment; a comment after code covers its own line. A fault is covered when its range
 *   starts on that line and its code is listed.
 * - Codes are required (there is no "ignore everything"), separated by commas; the reason
 *   follows a colon. A suppression without a reason still applies, but is itself reported
 *   (`suppression-without-reason`): a suppression nobody can explain will never be removed.
 * - Only warnings can be suppressed. Naming an error reports `suppression-of-error` and the
 *   error stays: the service would refuse the graph, so CI must not pass it.
 * - A listed code that covers no fault is reported (`unused-suppression`), so stale
 *   suppressions do not pile up.
 *
 * JSON has no comments, so suppressions exist only in `.wf`; use `severity` in
 * wfkit.config.json for JSON definitions. Comments come from @wfkit/dsl's lexer, so a `#`
 * inside a string is never mistaken for one.
 */
import { lineIndexOf } from "@wfkit/dsl";
import { defaultSeverityOf, SUPPRESSION_CODES } from "./codes.js";
import type { Diagnostic, Range } from "./report.js";

/** A `#` comment as @wfkit/dsl's lexer found it (strings and escapes already accounted for). */
export interface SourceComment {
  /** The comment's text, from its `#` to the end of the line. */
  text: string;
  /** UTF-16 offsets of the comment in the text. */
  start: number;
  end: number;
}

export interface Comment {
  text: string;
  line: number;
  /** UTF-16 character where the comment starts. */
  character: number;
  /** True when code precedes the comment on its line. */
  trailing: boolean;
}

export interface Suppression {
  comment: Comment;
  /** The line whose faults it covers. */
  targetLine: number;
  codes: { code: string; range: Range }[];
  reason: string;
}

const DIRECTIVE = /^#\s*wfkit-ignore\b(.*)$/;

/** Places the lexer's comments on lines, and tells own-line comments from trailing ones. */
export function placeComments(text: string, comments: readonly SourceComment[]): Comment[] {
  if (!comments.length) return [];
  const lines = lineIndexOf(text);
  return comments.map((comment) => {
    const { line, character } = lines.positionAt(comment.start);
    const lineStart = lines.offsetAt({ line, character: 0 });
    return { text: comment.text.trimEnd(), line, character, trailing: text.slice(lineStart, comment.start).trim() !== "" };
  });
}

export interface ParsedSuppressions {
  suppressions: Suppression[];
  /** Faults about the comments themselves (malformed directives). */
  faults: Diagnostic[];
}

export function parseSuppressions(text: string, sourceComments: readonly SourceComment[]): ParsedSuppressions {
  const comments = placeComments(text, sourceComments).filter((comment) => DIRECTIVE.test(comment.text) || !comment.trailing);
  if (!comments.some((comment) => DIRECTIVE.test(comment.text))) return { suppressions: [], faults: [] };
  const lines = text.split(/\r\n|\r|\n/);
  const commentOnly = new Set(comments.filter((comment) => !comment.trailing).map((comment) => comment.line));
  const suppressions: Suppression[] = [];
  const faults: Diagnostic[] = [];
  for (const comment of comments) {
    const match = DIRECTIVE.exec(comment.text);
    if (!match) continue;
    const whole = rangeOnLine(comment.line, comment.character, comment.character + comment.text.length);
    const body = match[1]!;
    const colon = body.indexOf(":");
    const codeText = colon === -1 ? body : body.slice(0, colon);
    const reason = colon === -1 ? "" : body.slice(colon + 1).trim();
    const codes: Suppression["codes"] = [];
    const codesStart = comment.character + comment.text.length - body.length;
    for (const found of codeText.matchAll(/[^\s,]+/g)) {
      const start = codesStart + found.index!;
      codes.push({ code: found[0], range: rangeOnLine(comment.line, start, start + found[0].length) });
    }
    if (!codes.length) {
      faults.push(cliFault(SUPPRESSION_CODES.malformed, "this `wfkit-ignore` names no fault code; write `# wfkit-ignore CODE: reason` (for example `# wfkit-ignore dead-end: kept for the next release`)", whole));
      continue;
    }
    let targetLine = comment.line;
    if (!comment.trailing) {
      targetLine = comment.line + 1;
      while (targetLine < lines.length && (lines[targetLine]!.trim() === "" || commentOnly.has(targetLine))) targetLine++;
    }
    suppressions.push({ comment, targetLine, codes, reason });
    if (!reason)
      faults.push(cliFault(SUPPRESSION_CODES.withoutReason, `this suppression gives no reason; say why after a colon, for example \`# wfkit-ignore ${codes.map((c) => c.code).join(", ")}: kept for the next release\``, whole));
  }
  return { suppressions, faults };
}

/**
 * Removes the warnings the suppressions cover, and adds a fault for each code that is not
 * allowed (an error), not known, or covered nothing. `faults` keep their order.
 */
export function applySuppressions(faults: readonly Diagnostic[], parsed: ParsedSuppressions): Diagnostic[] {
  if (!parsed.suppressions.length) return [...faults, ...parsed.faults];
  const extra: Diagnostic[] = [...parsed.faults];
  // Codes whose fate is already reported: refused errors, unknown codes, and codes that matched.
  const settled = new Set<string>();
  const key = (suppression: number, code: string) => `${suppression}\u0000${code}`;
  parsed.suppressions.forEach((suppression, index) => {
    for (const entry of suppression.codes) {
      const severity = defaultSeverityOf(entry.code);
      if (severity === "error") {
        extra.push(ofError(entry.code, entry.range));
        settled.add(key(index, entry.code));
      } else if (severity === undefined) {
        extra.push(cliFault(SUPPRESSION_CODES.unused, `\`${entry.code}\` is not a wfkit fault code, so this suppression does nothing; correct or remove it`, entry.range));
        settled.add(key(index, entry.code));
      }
    }
  });
  const kept: Diagnostic[] = [];
  for (const fault of faults) {
    const covering = parsed.suppressions.flatMap((suppression, index) =>
      suppression.targetLine === fault.range.start.line ? suppression.codes.filter((entry) => entry.code === fault.code).map((entry) => ({ index, entry })) : [],
    );
    if (fault.severity === "warning" && covering.length) {
      for (const { index } of covering) settled.add(key(index, fault.code));
      continue;
    }
    // An error stays. A code that can be either (number-precision) is refused here, when
    // one of its errors is what the suppression would hide.
    for (const { index, entry } of covering)
      if (!settled.has(key(index, fault.code))) {
        extra.push(ofError(fault.code, entry.range));
        settled.add(key(index, fault.code));
      }
    kept.push(fault);
  }
  parsed.suppressions.forEach((suppression, index) => {
    for (const entry of suppression.codes)
      if (!settled.has(key(index, entry.code)))
        extra.push(cliFault(SUPPRESSION_CODES.unused, `no \`${entry.code}\` fault is reported on line ${suppression.targetLine + 1}, so this suppression does nothing; remove it`, entry.range));
  });
  return [...kept, ...extra];
}

function ofError(code: string, range: Range): Diagnostic {
  return cliFault(SUPPRESSION_CODES.ofError, `\`${code}\` is an error and cannot be suppressed: the service refuses such a graph whatever wfkit says; fix it instead`, range);
}

function cliFault(code: string, message: string, range: Range): Diagnostic {
  return { code, severity: "warning", message, nodeId: null, pointer: "", range };
}

function rangeOnLine(line: number, start: number, end: number): Range {
  return { start: { line, character: start }, end: { line, character: end } };
}
