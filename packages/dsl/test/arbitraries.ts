/** fast-check arbitraries shared by the property tests: Definitions, odd ids, JSON with traps. */
import fc from "fast-check";
import { KEYWORD_TEXTS } from "@wfkit/dsl";
import { numRuns } from "../../../test/support/num-runs.js";

/** Runs per property of the DSL's tests (test/support/num-runs.ts). */
export const DSL_RUNS = numRuns(150);

/** Ids that stress quoting: keywords, spaces, quotes, backslashes, emoji, lone surrogates, empty. */
export const oddId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...KEYWORD_TEXTS, "with", "on_demand", "a-b", "a.b", "_", "x1"),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/),
  fc.constantFrom("fetch data", 'say "hi"', "back\\slash", "emoji 📦", "café", "tab\there", "new\nline", "", "#hash", "a->b", "{x}", "\ud800", "1st"),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
);

/** A number JSON can carry, including -0 and values at the edges of doubles. */
const trickyNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(-0, 0, 1e21, 5e-324, Number.MAX_SAFE_INTEGER + 2, -1.5e300, 0.1),
);

/** Any JSON value, with `__proto__` keys, -0 and odd keys mixed in. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    trickyNumber,
    fc.string({ maxLength: 6 }),
    fc.array(tie("value"), { maxLength: 3 }),
    tie("object"),
  ),
  object: fc
    .array(fc.tuple(fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("__proto__", "id", "kind", "from", "constructor")), tie("value")), { maxLength: 3 })
    .map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, configurable: true, writable: true });
      return object;
    }),
})).value;

/** An object with fields wfkit does not know (sometimes none). */
const extras = fc.dictionary(fc.constantFrom("ui", "note", "__proto__", "x y", "owner"), anyJson, { maxKeys: 2 });

function withExtras<T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.tuple(arbitrary, extras).map(([value, extra]) => {
    const out = { ...value } as Record<string, unknown>;
    for (const key of Object.keys(extra)) if (!(key in out)) Object.defineProperty(out, key, { value: extra[key], enumerable: true, configurable: true, writable: true });
    return out as T;
  });
}

const subject = fc.oneof(
  withExtras(
    fc.record(
      { canonicalId: oddId, kind: fc.constantFrom("company", "fund"), label: oddId, identifiers: fc.array(anyJson, { maxLength: 2 }) },
      { requiredKeys: ["canonicalId", "kind"] },
    ),
  ),
  withExtras(fc.record({ label: fc.integer() })),
);

const terminal = withExtras(
  fc.record(
    {
      job: fc.oneof(withExtras(fc.record({ id: oddId, version: fc.oneof(oddId, fc.constant(1)) }, { requiredKeys: [] })), anyJson),
      subjectRefs: fc.oneof(fc.array(subject, { maxLength: 3 }), fc.array(anyJson, { maxLength: 2 })),
    },
    { requiredKeys: [] },
  ),
);

/** A node of any kind, valid or not. */
export function nodeArbitrary(ids: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  const triggerSpec = withExtras(
    fc.record({ kind: fc.oneof(fc.constantFrom("on_demand", "scheduled"), oddId), schedule: fc.oneof(oddId, fc.integer()), timezone: oddId }, { requiredKeys: ["kind"] }),
  );
  return fc.oneof(
    withExtras(fc.record({ id: ids, kind: fc.constant("trigger"), trigger: fc.oneof(triggerSpec, anyJson) })),
    withExtras(
      fc.record(
        { id: ids, kind: fc.constant("part"), partId: fc.oneof(oddId, fc.constantFrom("pack", "terminal.compare"), fc.integer()), partVersion: fc.oneof(oddId, fc.constant(1)), terminal: fc.oneof(terminal, anyJson) },
        { requiredKeys: ["id"] },
      ),
    ),
    withExtras(fc.record({ id: ids, partId: fc.constantFrom("pack", "terminal.profile"), partVersion: fc.constant("1"), terminal }, { requiredKeys: ["id", "partId"] })),
    withExtras(fc.record({ id: ids, kind: fc.constant("gate"), belowFloor: fc.oneof(fc.constant("hold"), oddId, fc.integer()) }, { requiredKeys: ["id", "kind"] })),
    withExtras(fc.record({ id: ids, kind: fc.constant("destination"), destination: fc.oneof(withExtras(fc.record({ kind: oddId })), anyJson) })),
    withExtras(fc.record({ id: fc.oneof(ids, fc.integer()), kind: fc.oneof(oddId, fc.integer()) })),
    anyJson,
  );
}

/** A Definition (often invalid), a version-save body, or any JSON at all. */
export const definitionLike: fc.Arbitrary<unknown> = fc
  .array(oddId, { minLength: 1, maxLength: 6 })
  .chain((names) => {
    const ids = fc.constantFrom(...names);
    const edge = fc.oneof(
      { weight: 4, arbitrary: fc.record({ from: ids, to: ids }) },
      withExtras(fc.record({ from: fc.oneof(ids, oddId), to: fc.oneof(ids, fc.integer()) }, { requiredKeys: [] })),
      anyJson,
    );
    const definition = withExtras(
      fc.record({ schemaVersion: fc.constant(1), nodes: fc.array(nodeArbitrary(ids), { maxLength: 7 }), edges: fc.array(edge, { maxLength: 8 }) }),
    );
    const body = withExtras(
      fc.record(
        {
          scope: withExtras(fc.record({ graph: definition })),
          trigger: fc.oneof(withExtras(fc.record({ kind: fc.oneof(oddId, fc.integer()), schedule: oddId }, { requiredKeys: [] })), anyJson),
          destinations: fc.oneof(fc.array(withExtras(fc.record({ kind: oddId })), { maxLength: 2 }), anyJson),
        },
        { requiredKeys: ["scope"] },
      ),
    );
    return fc.oneof({ weight: 4, arbitrary: definition }, { weight: 2, arbitrary: body }, { weight: 1, arbitrary: anyJson });
  });
