/**
 * Deep equality of JSON values, as the round-trip guarantees are stated: object key order is
 * ignored, array order is not, `-0` differs from `0` (it is a different JSON text), and
 * nesting depth is not limited by the call stack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length) {
    const [left, right] = stack.pop()!;
    if (Object.is(left, right)) continue;
    if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
    if (Array.isArray(left) !== Array.isArray(right)) return false;
    if (Array.isArray(left)) {
      const rightArray = right as unknown[];
      if (left.length !== rightArray.length) return false;
      for (let i = 0; i < left.length; i++) stack.push([left[i], rightArray[i]]);
      continue;
    }
    const leftKeys = Object.keys(left);
    const rightObject = right as Record<string, unknown>;
    if (leftKeys.length !== Object.keys(rightObject).length) return false;
    for (const key of leftKeys) {
      if (!Object.prototype.hasOwnProperty.call(rightObject, key)) return false;
      stack.push([(left as Record<string, unknown>)[key], rightObject[key]]);
    }
  }
  return true;
}
