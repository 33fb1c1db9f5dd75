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
 * - A listed code that covers no fault, or is not a wfkit code, is reported
 *   (`unused-suppression`), so stale suppressions do not pile up.
 *
 * JSON has no comments, so suppressions exist only in `.wf`; use `severity` in
 * wfkit.config.json for JSON definitions. Comments come from @wfkit/dsl's lexer, so a `#`
 * inside a string is never mistaken for one.
 *
 * Parsing and applying are linear in the comments, lines and faults: target lines come from
 * one backward pass over the lines, and suppressions are found by line and code through a
 * map, never by scanning the list per fault.
 */
import { defaultSeverity, SUPPRESSION_CODES, type SuppressionCode } from "@wfkit/core";
import { lineIndexOf, type Range, type SourceFault } from "@wfkit/dsl";
import { defaultSeverityOf } from "./codes.js";

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
  /** UTF-16 offset of the `#`. */
  start: number;
  line: number;
  /** UTF-16 character where the comment starts. */
  character: number;
  /** True when code precedes the comment on its line. */
  trailing: boolean;
}

export interface SuppressedCode {
  code: string;
  range: Range;
  start: number;
}

export interface Suppression {
  comment: Comment;
  /** The line whose faults it covers. */
  targetLine: number;
  codes: SuppressedCode[];
  reason: string;
}

export interface ParsedSuppressions {
  suppressions: Suppression[];
  /** Faults about the comments themselves (malformed directives). */
  faults: SourceFault[];
}

const DIRECTIVE = /^#\s*wfkit-ignore\b(.*)$/;

/** Steps taken by parse and apply since the process started: tests hold their growth to linear. */
let workSteps = 0;
export function suppressionWorkSteps(): number {
  return workSteps;
}

/** Places the lexer's comments on lines, and tells own-line comments from trailing ones. */
export function placeComments(text: string, comments: readonly SourceComment[]): Comment[] {
  if (!comments.length) return [];
  const lines = lineIndexOf(text);
  return comments.map((comment) => {
    workSteps++;
    const { line, character } = lines.positionAt(comment.start);
    const lineStart = lines.offsetAt({ line, character: 0 });
    return { text: comment.text.trimEnd(), start: comment.start, line, character, trailing: text.slice(lineStart, comment.start).trim() !== "" };
  });
}

export function parseSuppressions(text: string, sourceComments: readonly SourceComment[]): ParsedSuppressions {
  if (!sourceComments.some((comment) => comment.text.includes("wfkit-ignore"))) return { suppressions: [], faults: [] };
  const comments = placeComments(text, sourceComments);
  const nextCodeLine = nextCodeLines(text, comments);
  const suppressions: Suppression[] = [];
  const faults: SourceFault[] = [];
  for (const comment of comments) {
    workSteps++;
    const match = DIRECTIVE.exec(comment.text);
    if (!match) continue;
    const whole = placeOnLine(comment.line, comment.character, comment.start, comment.text.length);
    const body = match[1]!;
    const colon = body.indexOf(":");
    const codeText = colon === -1 ? body : body.slice(0, colon);
    const reason = colon === -1 ? "" : body.slice(colon + 1).trim();
    const codes: SuppressedCode[] = [];
    const codesFrom = comment.text.length - body.length;
    for (const found of codeText.matchAll(/[^\s,]+/g)) {
      workSteps++;
      const within = codesFrom + found.index!;
      const place = placeOnLine(comment.line, comment.character + within, comment.start + within, found[0].length);
      codes.push({ code: found[0], range: place.range, start: place.span.start });
    }
    if (!codes.length) {
      faults.push(projectFault(SUPPRESSION_CODES.malformed, "this `wfkit-ignore` names no fault code; write `# wfkit-ignore CODE: reason` (for example `# wfkit-ignore dead-end: kept for the next release`)", whole));
      continue;
    }
    const targetLine = comment.trailing ? comment.line : nextCodeLine(comment.line + 1);
    suppressions.push({ comment, targetLine, codes, reason });
    if (!reason)
      faults.push(
        projectFault(SUPPRESSION_CODES.withoutReason, `this suppression gives no reason; say why after a colon, for example \`# wfkit-ignore ${codes.map((c) => c.code).join(", ")}: kept for the next release\``, whole),
      );
  }
  return { suppressions, faults };
}

/**
 * For each line, the first line at or after it that is neither blank nor only a comment
 * (the line count when there is none). One backward pass, filled on first need.
 */
function nextCodeLines(text: string, comments: readonly Comment[]): (line: number) => number {
  let table: Int32Array | undefined;
  return (line) => {
    if (!table) {
      const lines = text.split(/\r\n|\r|\n/);
      const commentOnly = new Set<number>();
      for (const comment of comments) if (!comment.trailing) commentOnly.add(comment.line);
      table = new Int32Array(lines.length + 1);
      table[lines.length] = lines.length;
      for (let i = lines.length - 1; i >= 0; i--) {
        workSteps++;
        table[i] = lines[i]!.trim() === "" || commentOnly.has(i) ? table[i + 1]! : i;
      }
    }
    return line < table.length ? table[line]! : table[table.length - 1]!;
  };
}

/**
 * Removes the warnings the suppressions cover, and adds a fault for each code that is not
 * allowed (an error), not known, or covered nothing. `faults` keep their order; the
 * suppressions' own faults follow.
 */
export function applySuppressions(faults: readonly SourceFault[], parsed: ParsedSuppressions): SourceFault[] {
  if (!parsed.suppressions.length) return parsed.faults.length ? [...faults, ...parsed.faults] : [...faults];
  const extra: SourceFault[] = [...parsed.faults];
  /** Target line -> code -> the entries naming it there, each with whether its fate is reported. */
  const byLine = new Map<number, Map<string, { entry: SuppressedCode; settled: boolean }[]>>();
  for (const suppression of parsed.suppressions) {
    for (const entry of suppression.codes) {
      workSteps++;
      const severity = defaultSeverityOf(entry.code);
      if (severity === "error") {
        extra.push(ofError(entry.code, entry));
        continue;
      }
      if (severity === undefined) {
        extra.push(projectFault(SUPPRESSION_CODES.unused, `\`${entry.code}\` is not a wfkit fault code, so this suppression does nothing; correct or remove it`, { range: entry.range, span: spanOf(entry) }));
        continue;
      }
      let codes = byLine.get(suppression.targetLine);
      if (!codes) byLine.set(suppression.targetLine, (codes = new Map()));
      let entries = codes.get(entry.code);
      if (!entries) codes.set(entry.code, (entries = []));
      entries.push({ entry, settled: false });
    }
  }
  const kept: SourceFault[] = [];
  for (const fault of faults) {
    workSteps++;
    const covering = byLine.get(fault.range.start.line)?.get(fault.code);
    if (!covering) {
      kept.push(fault);
      continue;
    }
    if (fault.severity === "warning") {
      for (const cover of covering) cover.settled = true;
      continue;
    }
    // An error stays. A code that can be either (number-precision) is refused here, when
    // one of its errors is what the suppression would hide.
    for (const cover of covering)
      if (!cover.settled) {
        extra.push(ofError(fault.code, cover.entry));
        cover.settled = true;
      }
    kept.push(fault);
  }
  for (const [line, codes] of byLine)
    for (const [code, entries] of codes)
      for (const { entry, settled } of entries) {
        workSteps++;
        if (!settled) extra.push(projectFault(SUPPRESSION_CODES.unused, `no \`${code}\` fault is reported on line ${line + 1}, so this suppression does nothing; remove it`, { range: entry.range, span: spanOf(entry) }));
      }
  return [...kept, ...extra];
}

function ofError(code: string, entry: SuppressedCode): SourceFault {
  return projectFault(SUPPRESSION_CODES.ofError, `\`${code}\` is an error and cannot be suppressed: the service refuses such a graph whatever wfkit says; fix it instead`, { range: entry.range, span: spanOf(entry) });
}

function spanOf(entry: SuppressedCode): { start: number; end: number } {
  return { start: entry.start, end: entry.start + entry.code.length };
}

function projectFault(code: SuppressionCode, message: string, place: { range: Range; span: { start: number; end: number } }): SourceFault {
  return { code, severity: defaultSeverity(code), message, nodeId: null, pointer: "", range: place.range, span: place.span };
}

function placeOnLine(line: number, character: number, offset: number, length: number): { range: Range; span: { start: number; end: number } } {
  return { range: { start: { line, character }, end: { line, character: character + length } }, span: { start: offset, end: offset + length } };
}
