export interface JsonEqualOptions {
  /**
   * Also require the same key order in every object. The checker reports in the order fields
   * are written, so a cached verdict may be reused only for a document equal in this stricter
   * sense (the language server's check cache).
   */
  keyOrder?: boolean;
}

/**
 * Deep equality of JSON values, as the round-trip guarantees are stated: object key order is
 * ignored (unless `keyOrder`), array order is not, `-0` differs from `0` (it is a different
 * JSON text), and nesting depth is not limited by the call stack. Identical objects are equal
 * without a look inside, so two versions of a document that share most of their objects
 * compare in about one step per shared object.
 */
export function jsonEqual(a: unknown, b: unknown, options: JsonEqualOptions = {}): boolean {
  // Pairs to compare, flattened: [left, right, left, right, ...].
  const stack: unknown[] = [a, b];
  while (stack.length) {
    const right = stack.pop();
    const left = stack.pop();
    if (Object.is(left, right)) continue;
    if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
    if (Array.isArray(left) !== Array.isArray(right)) return false;
    if (Array.isArray(left)) {
      const rightArray = right as unknown[];
      if (left.length !== rightArray.length) return false;
      for (let i = 0; i < left.length; i++) stack.push(left[i], rightArray[i]);
      continue;
    }
    const leftKeys = Object.keys(left);
    const rightObject = right as Record<string, unknown>;
    const rightKeys = Object.keys(rightObject);
    if (leftKeys.length !== rightKeys.length) return false;
    for (let i = 0; i < leftKeys.length; i++) {
      const key = leftKeys[i]!;
      if (options.keyOrder ? rightKeys[i] !== key : !Object.prototype.hasOwnProperty.call(rightObject, key)) return false;
      stack.push((left as Record<string, unknown>)[key], rightObject[key]);
    }
  }
  return true;
}
