/**
 * What `wfkit check` found, independent of how it is printed. Positions here are 0-based
 * line and UTF-16 character (LSP style, as @wfkit/dsl gives them); each output format turns
 * them into what its readers expect (1-based lines and columns for people and CI tools).
 */
import type { Estimate, Fault, RelatedLocation } from "@wfkit/core";

// Ranges are the DSL's (0-based line, UTF-16 character); the formats convert to 1-based.
export type { Position, Range } from "@wfkit/dsl";
import type { Position, Range } from "@wfkit/dsl";

export interface RelatedDiagnostic extends RelatedLocation {
  range: Range;
}

/** A fault placed in its file. */
export interface Diagnostic extends Omit<Fault, "related"> {
  range: Range;
  related?: RelatedDiagnostic[];
}

export interface FileReport {
  /** As shown to the user: relative to the working directory, `/`-separated; or the stdin name. */
  path: string;
  /** True when the file has no errors (warnings allowed). */
  ok: boolean;
  faults: Diagnostic[];
  /** Present for every file that is ok: what a run would reserve. */
  estimate?: Estimate;
  /** The text as checked, kept only when there are faults to draw code frames for. */
  source?: string;
}

export interface Summary {
  files: number;
  errors: number;
  warnings: number;
}

export interface CheckReport {
  files: FileReport[];
  summary: Summary;
}

export function summarize(files: readonly FileReport[]): Summary {
  let errors = 0;
  let warnings = 0;
  for (const file of files)
    for (const fault of file.faults) {
      if (fault.severity === "error") errors++;
      else warnings++;
    }
  return { files: files.length, errors, warnings };
}

/** 1-based line and column, column counting UTF-16 code units (as eslint, SARIF's default, and GitHub do). */
export interface OneBasedPosition {
  line: number;
  column: number;
}

export function oneBased(position: Position): OneBasedPosition {
  return { line: position.line + 1, column: position.character + 1 };
}

export function oneBasedRange(range: Range): { start: OneBasedPosition; end: OneBasedPosition } {
  return { start: oneBased(range.start), end: oneBased(range.end) };
}

export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

/**
 * True when a fault's suggestion is worth a line of its own for a person: core's messages
 * usually name it already ("Did you mean `terminal.compare`?"). Machine formats always
 * carry the suggestion as data.
 */
export function showsSuggestion(fault: Diagnostic): fault is Diagnostic & { suggestion: string } {
  return fault.suggestion !== undefined && !fault.message.includes(`\`${fault.suggestion}\``);
}

/** The message, with the suggestion appended when the message does not already name it. */
export function messageWithSuggestion(fault: Diagnostic): string {
  return showsSuggestion(fault) ? `${fault.message} Suggestion: ${fault.suggestion}` : fault.message;
}
