/** Small helpers for building and printing JSON values without losing any of them. */

/**
 * How deeply arrays and objects may nest in JSON that wfkit reads: a `.json` source and a
 * JSON literal in `.wf` alike. Past it the text is refused with a fault at the first bracket
 * too deep. Walks over values (jsonc-parser's reader, JSON.stringify, structured clone to the
 * language server's checker thread, matchers) recurse per level and overflow Node's default
 * stack at about 5,000 levels; a definition needs fewer than 10.
 */
export const MAX_JSON_DEPTH = 2_000;

/** Why a value nested past `MAX_JSON_DEPTH` is refused (`source`: "a JSON file", "a JSON literal"). */
export function tooDeeplyNestedMessage(source: string): string {
  return `this value nests arrays and objects more than ${MAX_JSON_DEPTH.toLocaleString("en")} levels deep, more than wfkit reads in ${source} (a workflow definition needs fewer than 10)`;
}

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

/** A string as a JSON string literal; lone surrogates are escaped, so the text stays valid UTF-16. */
export function stringToJson(value: string): string {
  return JSON.stringify(value);
}
