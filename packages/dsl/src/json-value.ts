/** Small helpers for building and printing JSON values without losing any of them. */

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
