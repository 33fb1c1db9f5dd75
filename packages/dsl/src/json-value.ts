/**
 * JSON values: building and printing them without losing any, and reading a `.wf` JSON literal
 * into its value, reporting what JSON cannot keep exactly.
 */
import type { JsonLiteral, JsonMember, JsonScalarLiteral } from "./ast.js";
import { type Span, spanOf } from "./positions.js";

export { MAX_JSON_DEPTH, tooDeeplyNestedMessage } from "@wfkit/core";

/**
 * Sets an own, enumerable field, even one named `__proto__` (a plain assignment would change
 * the object's prototype instead and the field would vanish from the output).
 */
export function setOwnField(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(object, key, { value, enumerable: true, configurable: true, writable: true });
  else object[key] = value;
}

export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * A number as JSON text that reads back to the same number: JSON.stringify, except that
 * `-0` keeps its sign (JSON.stringify writes `0`). Non-finite numbers have no JSON form and
 * are written `null`, as JSON.stringify does.
 */
export function numberToJson(value: number): string {
  if (Object.is(value, -0)) return "-0";
  return JSON.stringify(value);
}

// ---------------------------------------------------------------- `.wf` JSON literals

export interface LiteralProblem {
  kind: "duplicate-key" | "number-precision";
  span: Span;
  message: string;
  /** For a duplicate key: where the key first appears. */
  first?: Span;
}

/**
 * The value of a literal. Iterative (a deeply nested literal must not overflow the stack).
 * A key written twice keeps its last value, as JSON.parse does, and is reported.
 */
export function literalValue(literal: JsonLiteral, problems: LiteralProblem[]): unknown {
  const rootValue = shallowValue(literal, problems);
  const stack: { literal: JsonLiteral; value: unknown }[] = [{ literal, value: rootValue }];
  while (stack.length) {
    const { literal: current, value } = stack.pop()!;
    if (current.type === "array") {
      const array = value as unknown[];
      for (const element of current.elements) {
        const elementValue = shallowValue(element, problems);
        array.push(elementValue);
        if (element.type === "array" || element.type === "object") stack.push({ literal: element, value: elementValue });
      }
    } else if (current.type === "object") {
      const object = value as Record<string, unknown>;
      const seen = new Map<string, JsonMember>();
      for (const member of current.members) {
        if (!member.value) continue;
        const first = seen.get(member.key.text);
        if (first)
          problems.push({
            kind: "duplicate-key",
            span: spanOf(member.key),
            first: spanOf(first.key),
            message: `\`${member.key.text}\` is written twice in this object; only the last value is kept`,
          });
        else seen.set(member.key.text, member);
        const memberValue = shallowValue(member.value, problems);
        setOwnField(object, member.key.text, memberValue);
        if (member.value.type === "array" || member.value.type === "object") stack.push({ literal: member.value, value: memberValue });
      }
    }
  }
  return rootValue;
}

function shallowValue(literal: JsonLiteral, problems: LiteralProblem[]): unknown {
  if (literal.type === "object") return {};
  if (literal.type === "array") return [];
  if (literal.type === "number") checkNumber(literal, problems);
  return literal.value;
}

/**
 * The digits of an integer as JSON.stringify writes it (`1e+21` → 1 and 21 zeros). An
 * integer keeps its digits when this equals what was written: a double's shortest form is
 * what every JSON writer prints, so nothing the user wrote is lost.
 */
function integerDigits(text: string): string {
  const match = /^([0-9]+)(?:\.([0-9]+))?e\+([0-9]+)$/.exec(text);
  if (!match) return text;
  const fraction = match[2] ?? "";
  return match[1]! + fraction + "0".repeat(Number(match[3]) - fraction.length);
}

/**
 * Numbers are IEEE doubles, as in JSON.parse. A literal too large for one becomes Infinity
 * (written `null` by JSON.stringify), and an integer whose digits a double cannot keep (it
 * would be written back differently) changes value: both are reported. Decimal fractions are rounded silently, as every JSON
 * reader does.
 */
function checkNumber(literal: JsonScalarLiteral, problems: LiteralProblem[]): void {
  const value = literal.value as number;
  if (!Number.isFinite(value)) {
    problems.push({ kind: "number-precision", span: spanOf(literal), message: `\`${literal.raw}\` is too large for a JSON number; JSON writers would turn it into null` });
    return;
  }
  const digits = literal.raw.replace(/^-/, "");
  if (/^[0-9]+$/.test(digits) && digits.length > 15 && integerDigits(JSON.stringify(Math.abs(value))) !== digits) {
    problems.push({
      kind: "number-precision",
      span: spanOf(literal),
      message: `\`${literal.raw}\` has more digits than a JSON number keeps; it becomes ${JSON.stringify(value)}. Write it as a string if every digit matters`,
    });
  }
}

/** The member a key names in an object literal: the last one, as JSON.parse keeps. */
export function memberOf(literal: JsonLiteral | undefined, key: string): JsonMember | undefined {
  return literal?.type === "object" ? lastKeyed(literal.members, key, (member) => member.key.text) : undefined;
}

/**
 * The last of `items` whose key (by `keyOf`; undefined for none) is `key`: JSON keeps the last.
 * A list longer than SCANNED_ITEMS is looked up through an index built on first use: placing
 * a fault on each of thousands of fields of one object would otherwise scan it once per fault.
 */
export function lastKeyed<T>(items: readonly T[], key: string, keyOf: (item: T) => string | undefined): T | undefined {
  if (items.length > SCANNED_ITEMS) {
    let index = keyIndexes.get(items) as Map<string, T> | undefined;
    if (!index) {
      index = new Map();
      for (const item of items) {
        const itemKey = keyOf(item);
        if (itemKey !== undefined) index.set(itemKey, item);
      }
      keyIndexes.set(items, index);
    }
    return index.get(key);
  }
  for (let i = items.length - 1; i >= 0; i--) if (keyOf(items[i]!) === key) return items[i];
  return undefined;
}

const SCANNED_ITEMS = 16;
const keyIndexes = new WeakMap<readonly unknown[], Map<string, unknown>>();

/**
 * The value of an object literal's member `key` when it is a string (the last member of that
 * key counts, as in JSON): a raw node's `id`, a raw edge's `from` and `to`.
 */
export function stringMemberOf(literal: JsonLiteral | undefined, key: string): JsonScalarLiteral | undefined {
  const value = memberOf(literal, key)?.value;
  return value?.type === "string" ? value : undefined;
}
