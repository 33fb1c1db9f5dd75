/**
 * The checker's "clean" verdict (checker/read.ts) lets `shape` and `unknown-field` skip their
 * passes. It may only say "clean" when those rules would find nothing; these tests hold it to
 * that with independent judges: the generated schema validator, and a plain walk of
 * Object.keys against the known-field lists.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { KNOWN_FIELDS, KNOWN_NODE_FIELDS, validateDefinition } from "@wfkit/core";
import { buildModel } from "../src/checker/model.js";
import * as generated from "../src/generated/validators.js";
import type { GeneratedValidator } from "../src/schema-errors.js";
import { runs, schemaFieldNames, validGraph } from "./arbitraries.js";

const validateDocument = generated.validateDefinitionDocument as unknown as GeneratedValidator;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Every field the unknown-field rule would flag, found the slow and obvious way. */
function unknownFields(input: unknown): string[] {
  const found: string[] = [];
  const judge = (object: unknown, known: readonly string[], where: string) => {
    if (isObject(object)) for (const key of Object.keys(object)) if (!known.includes(key)) found.push(`${where}/${key}`);
  };
  const graphOf = (value: Json): unknown => {
    // The body forms as docs/rules/body-mixed.md states them.
    const scopeHoldsGraph = isObject(value.scope) && "graph" in value.scope;
    if (scopeHoldsGraph || ("scope" in value && !("nodes" in value) && !("schemaVersion" in value) && !("edges" in value))) {
      judge(value, [...KNOWN_FIELDS.versionSaveBody, ...KNOWN_FIELDS.definition], "");
      judge(value.scope, KNOWN_FIELDS.scope, "/scope");
      judge(value.trigger, KNOWN_FIELDS.triggerSpec, "/trigger");
      if (Array.isArray(value.destinations)) value.destinations.forEach((d, i) => judge(d, KNOWN_FIELDS.destinationSpec, `/destinations/${i}`));
      return isObject(value.scope) ? value.scope.graph : undefined;
    }
    return value;
  };
  if (!isObject(input)) return found;
  const graph = graphOf(input);
  if (!isObject(graph)) return found;
  judge(graph, KNOWN_FIELDS.definition, "/graph");
  if (Array.isArray(graph.nodes))
    graph.nodes.forEach((node, i) => {
      if (!isObject(node)) return;
      const kind = node.kind === undefined && "partId" in node ? "part" : node.kind;
      if (typeof kind !== "string" || !(kind in KNOWN_NODE_FIELDS)) return;
      judge(node, KNOWN_NODE_FIELDS[kind as keyof typeof KNOWN_NODE_FIELDS], `/nodes/${i}`);
      judge(node.trigger, KNOWN_FIELDS.triggerSpec, `/nodes/${i}/trigger`);
      judge(node.destination, KNOWN_FIELDS.destinationSpec, `/nodes/${i}/destination`);
      if (isObject(node.terminal)) {
        judge(node.terminal, KNOWN_FIELDS.terminal, `/nodes/${i}/terminal`);
        judge(node.terminal.job, KNOWN_FIELDS.job, `/nodes/${i}/terminal/job`);
        if (Array.isArray(node.terminal.subjectRefs)) node.terminal.subjectRefs.forEach((ref, j) => judge(ref, KNOWN_FIELDS.subject, `/nodes/${i}/terminal/subjectRefs/${j}`));
      }
    });
  if (Array.isArray(graph.edges)) graph.edges.forEach((edge, i) => judge(edge, KNOWN_FIELDS.edge, `/edges/${i}`));
  return found;
}

/** Containers of a JSON value, with a way to reach each. */
function containers(value: unknown, out: unknown[] = []): unknown[] {
  if (typeof value === "object" && value !== null) {
    out.push(value);
    for (const child of Object.values(value)) containers(child, out);
  }
  return out;
}

/** Every field the schema names on any object, and two it does not. */
const FIELD_NAMES = [...schemaFieldNames(), "__proto__", "extra"];

/** One random change somewhere in the document: a field set to any JSON value, removed, or added. */
const mutation = fc.record({
  target: fc.nat(),
  action: fc.constantFrom("set", "delete", "add"),
  field: fc.constantFrom(...FIELD_NAMES),
  value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom("", "hold", "company", "part", "gate", "scheduled", "standalone", 1)),
});

interface Change {
  target: number;
  action: string;
  field: string;
  value: unknown;
}

function mutate(document: unknown, change: Change): void {
  const all = containers(document);
  const target = all[change.target % all.length] as Json | unknown[];
  if (Array.isArray(target)) {
    if (target.length === 0 || change.action === "add") target.push(change.value);
    else if (change.action === "delete") target.splice(change.target % target.length, 1);
    else target[change.target % target.length] = change.value;
    return;
  }
  const keys = Object.keys(target);
  if (change.action === "delete" && keys.length) delete target[keys[change.target % keys.length]!];
  else if (change.action === "set" && keys.length) target[keys[change.target % keys.length]!] = change.value;
  // An own property even for "__proto__", as JSON.parse makes it.
  else Object.defineProperty(target, change.field, { value: change.value, enumerable: true, writable: true, configurable: true });
}

const asVersionBody = (definition: unknown) => ({ scope: { graph: definition }, trigger: { kind: "on_demand" }, destinations: [{ kind: "standalone" }] });

describe("the clean verdict", () => {
  it("is given to generated valid graphs (so the fast path is the common path)", () => {
    fc.assert(
      fc.property(validGraph(), fc.boolean(), ({ definition }, wrap) => {
        const input = JSON.parse(JSON.stringify(wrap ? asVersionBody(definition) : definition));
        expect(buildModel(input).clean).toBe(true);
      }),
      runs(100),
    );
  });

  it("is given only when the schema passes, no field is unknown and no id is empty", () => {
    let cleanSeen = 0;
    let dirtySeen = 0;
    fc.assert(
      fc.property(validGraph(), fc.boolean(), fc.array(mutation, { minLength: 1, maxLength: 3 }), ({ definition }, wrap, changes) => {
        const input: unknown = JSON.parse(JSON.stringify(wrap ? asVersionBody(definition) : definition));
        for (const change of changes) mutate(input, change);
        const model = buildModel(input);
        if (!model.clean) {
          dirtySeen++;
          return;
        }
        cleanSeen++;
        expect(validateDocument(input), JSON.stringify(validateDocument.errors)).toBe(true);
        expect(unknownFields(input)).toEqual([]);
        expect(model.nodes.every((node) => node.id !== undefined)).toBe(true);
        const codes = validateDefinition(input).faults.map((fault) => fault.code);
        expect(codes).not.toContain("shape");
        expect(codes).not.toContain("unknown-field");
      }),
      runs(400),
    );
    // Both verdicts must occur, or the property judged nothing.
    expect(cleanSeen).toBeGreaterThan(0);
    expect(dirtySeen).toBeGreaterThan(0);
  });

  it("is withheld from objects whose fields may come from a prototype, which are read field by field", () => {
    const node = Object.create({ kind: "gate" }) as Json;
    node.id = "g";
    node.belowFloor = "hold";
    const input = { schemaVersion: 1, nodes: [node], edges: [] };
    const model = buildModel(input);
    expect(model.clean).toBe(false);
    // `kind` is inherited, so not the node's own: it is read as having no kind.
    expect(model.nodes[0]!.kind).toBeUndefined();
    expect(validateDefinition(input).faults.map((f) => f.code)).toContain("node-kind");
  });

  it("is withheld when Object.prototype has an enumerable field, and fields are still read as own fields", () => {
    const input = JSON.parse('{"schemaVersion":1,"nodes":[{"id":"t","kind":"trigger","trigger":{"kind":"on_demand"}}],"edges":[]}');
    const before = buildModel(input);
    expect(before.clean).toBe(true);
    Object.defineProperty(Object.prototype, "partId", { value: "pack", enumerable: true, configurable: true, writable: true });
    try {
      const polluted = buildModel(input);
      expect(polluted.clean).toBe(false);
      expect(polluted.nodes[0]!.kind).toBe("trigger");
      expect(polluted.nodes[0]!.partId).toBeUndefined();
    } finally {
      delete (Object.prototype as Json).partId;
    }
  });
});
