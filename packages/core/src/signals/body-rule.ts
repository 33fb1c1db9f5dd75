import type { Fault } from "../fault.js";
import { joinPointer } from "../fault.js";
import type { RuleMeta } from "../rules/rule.js";
import type { Suggester } from "../suggest.js";
import type { JsonType } from "./model.js";

/** What a body rule is given: the body (a plain object), a suggester, and its report. */
export interface BodyContext {
  readonly body: Record<string, unknown>;
  readonly suggester: Suggester;
  report(fault: { pointer: string; message: string; suggestion?: string }): void;
}

/**
 * A rule over an alert or a saved-view body. Its meta is a rule's meta, so it takes its place
 * in the one diagnostic registry and its docs like a workflow rule.
 */
export interface BodyRule {
  readonly meta: RuleMeta;
  readonly body: "alert" | "view";
  check(ctx: BodyContext): void;
}

export function defineBodyRule(rule: BodyRule): BodyRule {
  return rule;
}

/** The field's value when the body has it as its own field, else undefined. */
export function field(body: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
}

export function pointerTo(name: string): string {
  return joinPointer("", name);
}

export function hasJsonType(value: unknown, type: JsonType): boolean {
  if (type === "array") return Array.isArray(value);
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  return typeof value === type;
}

/** A field's value when it is a string, for the rules that judge strings (others are `*-field-type`'s). */
export function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = field(body, name);
  return typeof value === "string" ? value : undefined;
}

export type { Fault };
