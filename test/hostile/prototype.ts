/**
 * Prototype-pollution detection: a snapshot of every own property (names and descriptors) of
 * the built-in prototypes an attacker would aim at, compared before and after.
 */
import { expect } from "vitest";

const watched: Record<string, object> = {
  "Object.prototype": Object.prototype,
  "Array.prototype": Array.prototype,
  "Function.prototype": Function.prototype,
  "String.prototype": String.prototype,
};

export type PrototypeSnapshot = Map<string, unknown>;

/** Every own property of the watched prototypes: `Name.key` to its value (or its accessors). */
export function prototypeSnapshot(): PrototypeSnapshot {
  const snapshot: PrototypeSnapshot = new Map();
  for (const [name, proto] of Object.entries(watched)) {
    for (const key of Reflect.ownKeys(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!;
      snapshot.set(`${name}.${String(key)}`, "value" in descriptor ? descriptor.value : [descriptor.get, descriptor.set]);
    }
  }
  return snapshot;
}

/** Throws (through expect) when any watched prototype changed since `before`, naming what changed. */
export function expectPrototypesUnchanged(before: PrototypeSnapshot): void {
  const after = prototypeSnapshot();
  const changed: string[] = [];
  for (const [key, value] of after) {
    const old = before.get(key);
    const same = Array.isArray(value) && Array.isArray(old) ? value.every((item, i) => Object.is(item, old[i])) : Object.is(value, old);
    if (!before.has(key) || !same) changed.push(key);
  }
  for (const key of before.keys()) if (!after.has(key)) changed.push(`${key} (deleted)`);
  expect(changed, "built-in prototypes changed").toEqual([]);
  // The classic probe: a property appearing on every object.
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
}
