/**
 * Pinning a `subject` declaration to a canonical id: what `wfkit pin` and the language
 * server's service-backed quick fix share. Pure: the lookup itself (resolve-subjects) is the
 * caller's.
 *
 * The hint of a subject: its id as written (`company "TSCO"`), or for a JSON object its
 * `hint`, `label` or `canonicalId` member, the first that is a non-blank string.
 */
import type { SubjectStatement } from "./ast.js";
import { printName } from "./syntax-table.js";

/** A subject as resolve-subjects answers it (or one of an ambiguous hint's candidates). */
export interface CanonicalSubject {
  canonicalId: string;
  label: string;
}

export interface SubjectHint {
  /** The subject's name, printed as `.wf` writes it. */
  name: string;
  hint: string;
  statement: SubjectStatement;
}

/** One replacement in the source text, by offsets. */
export interface SourceEdit {
  start: number;
  end: number;
  text: string;
}

/** The hint a subject declaration gives, or undefined when it gives none (no body, a JSON value with no hint). */
export function subjectHintOf(statement: SubjectStatement, text: string): SubjectHint | undefined {
  const body = statement.body;
  if (!statement.name || !body) return undefined;
  const name = printName(statement.name.text);
  if (body.type === "typed") return body.canonicalId ? { name, hint: body.canonicalId.text, statement } : undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(body.value.start, body.value.end));
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const object = value as Record<string, unknown>;
  const hint = [object.hint, object.label, object.canonicalId].find((member) => typeof member === "string" && member.trim() !== "");
  return typeof hint === "string" ? { name, hint, statement } : undefined;
}

/**
 * The edit that pins a declaration to `subject`, or undefined when it already names that id.
 * Only the id changes (and a missing label is added), so comments and layout stay; a body
 * written as a JSON object becomes `company "<id>" "<label>"`.
 */
export function subjectPinEdit(statement: SubjectStatement, subject: CanonicalSubject): SourceEdit | undefined {
  const body = statement.body;
  if (!body) return undefined;
  if (body.type !== "typed") return { start: body.start, end: body.end, text: `company ${JSON.stringify(subject.canonicalId)} ${JSON.stringify(subject.label)}` };
  const id = body.canonicalId;
  if (!id || id.text === subject.canonicalId) return undefined;
  return { start: id.start, end: id.end, text: JSON.stringify(subject.canonicalId) + (body.label ? "" : ` ${JSON.stringify(subject.label)}`) };
}

/** A Map, not an object literal: a reason from the wire such as `constructor` must not find Object.prototype's members. */
const UNRESOLVED_REASONS: ReadonlyMap<string, string> = new Map([
  ["ambiguous", "ambiguous: more than one company matches"],
  ["unlisted", "unlisted: held, but with no listed equity to run against"],
  ["lookup_failed", "lookup_failed: the resolver could not be reached; this says nothing about the company (try again)"],
  ["not_found", "not_found: no company matches"],
]);

/** Why resolve-subjects left a hint unresolved, in words (`reason` itself for one this does not know). */
export function unresolvedReasonText(reason: string): string {
  return UNRESOLVED_REASONS.get(reason) ?? reason;
}
