/**
 * Every JSON Pointer of a value, plus one missing child of each object and array: what the
 * source-map tests ask a map to locate, so that a map is compared everywhere, gaps included.
 */
export function pointersOf(value: unknown, prefix = "", into: string[] = []): string[] {
  into.push(prefix);
  if (value === null || typeof value !== "object") return into;
  for (const key of Object.keys(value)) pointersOf((value as Record<string, unknown>)[key], `${prefix}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, into);
  into.push(`${prefix}/missing`);
  return into;
}
