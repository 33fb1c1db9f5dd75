import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  DESTINATION_KINDS,
  GATE_BELOW_FLOOR,
  KNOWN_FIELDS,
  KNOWN_NODE_FIELDS,
  NODE_KINDS,
  SCHEMA_VERSION,
  TRIGGER_KINDS,
  type DestinationNode,
  type DestinationSpec,
  type Definition,
  type Edge,
  type GateNode,
  type PartNode,
  type Subject,
  type TerminalJob,
  type TerminalSpec,
  type TriggerNode,
  type TriggerSpec,
  type VersionSaveBody,
} from "@wfkit/core";
import { buildModel } from "../src/checker/model.js";
import * as generated from "../src/generated/validators.js";
import type { GeneratedValidator } from "../src/schema-errors.js";
import { schemaFieldNames } from "./arbitraries.js";

const coreDir = fileURLToPath(new URL("..", import.meta.url));
const schema = JSON.parse(readFileSync(`${coreDir}schema/definition.schema.json`, "utf8"));
const props = (definition: string) => Object.keys(schema.definitions[definition].properties).sort();

/** The fields a type names, without its `[field: string]: unknown`. */
type NamedFields<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Known<List extends readonly string[]> = List[number];

/**
 * model.ts's types name exactly the known fields (and so the schema's): this fails to compile
 * (`npm test` type-checks the tests) when a field is added to one and not the other.
 */
const typesNameTheKnownFields: true[] = [
  true as Same<NamedFields<Definition>, Known<typeof KNOWN_FIELDS.definition>>,
  true as Same<NamedFields<VersionSaveBody>, Known<typeof KNOWN_FIELDS.versionSaveBody>>,
  true as Same<NamedFields<VersionSaveBody["scope"]>, Known<typeof KNOWN_FIELDS.scope>>,
  true as Same<NamedFields<TriggerSpec>, Known<typeof KNOWN_FIELDS.triggerSpec>>,
  true as Same<NamedFields<DestinationSpec>, Known<typeof KNOWN_FIELDS.destinationSpec>>,
  true as Same<NamedFields<TerminalSpec>, Known<typeof KNOWN_FIELDS.terminal>>,
  true as Same<NamedFields<TerminalJob>, Known<typeof KNOWN_FIELDS.job>>,
  true as Same<NamedFields<Subject>, Known<typeof KNOWN_FIELDS.subject>>,
  true as Same<NamedFields<Edge>, Known<typeof KNOWN_FIELDS.edge>>,
  true as Same<NamedFields<TriggerNode>, Known<typeof KNOWN_NODE_FIELDS.trigger>>,
  true as Same<NamedFields<PartNode>, Known<typeof KNOWN_NODE_FIELDS.part>>,
  true as Same<NamedFields<GateNode>, Known<typeof KNOWN_NODE_FIELDS.gate>>,
  true as Same<NamedFields<DestinationNode>, Known<typeof KNOWN_NODE_FIELDS.destination>>,
];

const validateDocument = generated.validateDefinitionDocument as unknown as GeneratedValidator;
type Json = Record<string, unknown>;

/** A version-save body with one object of every kind the checker reads, each clean. */
function everyObject(): Json {
  const subject = { canonicalId: "cmp_tesco", kind: "company", label: "Tesco PLC", identifiers: [] };
  return {
    scope: {
      graph: {
        schemaVersion: 1,
        nodes: [
          { id: "start", kind: "trigger", trigger: { kind: "scheduled", schedule: "0 6 * * 1" } },
          { id: "profile", partId: "terminal.profile", partVersion: "1", terminal: { job: { id: "profile.company", version: "1" }, subjectRefs: [subject] } },
          { id: "floor", kind: "gate", belowFloor: "hold" },
          { id: "out", kind: "destination", destination: { kind: "standalone" } },
        ],
        edges: [{ from: "start", to: "profile" }, { from: "profile", to: "floor" }, { from: "floor", to: "out" }],
      },
    },
    trigger: { kind: "on_demand" },
    destinations: [{ kind: "standalone" }],
  };
}

/** Each object of `everyObject()`, where it is and which fields wfkit knows on it. */
const OBJECTS: [string, readonly string[]][] = [
  ["/scope", KNOWN_FIELDS.scope],
  ["/trigger", KNOWN_FIELDS.triggerSpec],
  ["/destinations/0", KNOWN_FIELDS.destinationSpec],
  ["/scope/graph", KNOWN_FIELDS.definition],
  ["/scope/graph/nodes/0", KNOWN_NODE_FIELDS.trigger],
  ["/scope/graph/nodes/0/trigger", KNOWN_FIELDS.triggerSpec],
  ["/scope/graph/nodes/1", KNOWN_NODE_FIELDS.part],
  ["/scope/graph/nodes/1/terminal", KNOWN_FIELDS.terminal],
  ["/scope/graph/nodes/1/terminal/job", KNOWN_FIELDS.job],
  ["/scope/graph/nodes/1/terminal/subjectRefs/0", KNOWN_FIELDS.subject],
  ["/scope/graph/nodes/2", KNOWN_NODE_FIELDS.gate],
  ["/scope/graph/nodes/3", KNOWN_NODE_FIELDS.destination],
  ["/scope/graph/nodes/3/destination", KNOWN_FIELDS.destinationSpec],
  ["/scope/graph/edges/0", KNOWN_FIELDS.edge],
];

/** Values to try for a field, in order: the first the schema accepts is used. */
const CANDIDATES: unknown[] = ["x", "part", "hold", 1, [], { kind: "on_demand" }, { kind: "standalone" }, { job: { id: "j", version: "1" }, subjectRefs: [] }, { id: "j", version: "1" }, { graph: { schemaVersion: 1, nodes: [], edges: [] } }];

describe("the Definition's shape", () => {
  it("model.ts's types name exactly the known fields (checked when the tests compile)", () => {
    expect(typesNameTheKnownFields.every((same) => same)).toBe(true);
  });

  it("model.ts's value lists are the schema's", () => {
    const definitions = schema.definitions;
    expect(SCHEMA_VERSION).toBe(definitions.definition.properties.schemaVersion.const);
    expect([...TRIGGER_KINDS]).toEqual(definitions.triggerSpec.properties.kind.enum);
    expect([...DESTINATION_KINDS]).toEqual(definitions.destinationSpec.properties.kind.enum);
    expect([...GATE_BELOW_FLOOR]).toEqual(definitions.node.properties.belowFloor.enum);
    expect([...NODE_KINDS]).toEqual(definitions.node.properties.kind.enum);
  });

  it("each kind of node knows the fields the schema requires of it", () => {
    for (const { if: condition, then } of schema.definitions.node.allOf) {
      const kind: string = condition.properties?.kind?.const ?? "part";
      expect(KNOWN_NODE_FIELDS[kind as keyof typeof KNOWN_NODE_FIELDS], kind).toEqual(expect.arrayContaining(then.required));
    }
  });

  it("the clean reader accepts exactly the known fields of each object (checker/read.ts)", () => {
    const base = everyObject();
    expect(validateDocument(base)).toBe(true);
    expect(buildModel(base).clean).toBe(true);
    let tried = 0;
    for (const [pointer, known] of OBJECTS) {
      for (const field of [...schemaFieldNames(), "extra"]) {
        const target = pointer.split("/").slice(1).reduce<unknown>((object, token) => (object as Json)[token], base) as Json;
        if (Object.hasOwn(target, field)) continue;
        for (const candidate of CANDIDATES) {
          const document = structuredClone(base);
          const object = pointer.split("/").slice(1).reduce<unknown>((value, token) => (value as Json)[token], document) as Json;
          object[field] = structuredClone(candidate);
          // Only a value the schema accepts tells whether the reader knows the field.
          if (!validateDocument(document)) continue;
          tried++;
          expect(buildModel(document).clean, `${pointer}/${field} = ${JSON.stringify(candidate)}`).toBe(known.includes(field));
          break;
        }
      }
    }
    expect(tried).toBeGreaterThan(OBJECTS.length * 5);
  });
});

describe("definition schema", () => {
  it("the checker's known fields are exactly the schema's properties", () => {
    expect([...KNOWN_FIELDS.definition].sort()).toEqual(props("definition"));
    expect([...KNOWN_FIELDS.versionSaveBody].sort()).toEqual(props("versionSaveBody"));
    expect([...KNOWN_FIELDS.triggerSpec].sort()).toEqual(props("triggerSpec"));
    expect([...KNOWN_FIELDS.destinationSpec].sort()).toEqual(props("destinationSpec"));
    expect([...KNOWN_FIELDS.terminal].sort()).toEqual(props("terminal"));
    expect([...KNOWN_FIELDS.subject].sort()).toEqual(props("subject"));
    expect([...KNOWN_FIELDS.edge].sort()).toEqual(props("edge"));
    expect([...KNOWN_FIELDS.job].sort()).toEqual(Object.keys(schema.definitions.terminal.properties.job.properties).sort());
    const nodeFields = new Set(Object.values(KNOWN_NODE_FIELDS).flat());
    expect([...nodeFields].sort()).toEqual(props("node"));
  });

  it("the ahead-of-time validators are generated from the current schemas", () => {
    // Exits non-zero, naming the stale file, when schema and generated code disagree.
    execFileSync("node", [`${coreDir}scripts/generate-validators.mjs`, "--check"], { stdio: "pipe" });
  });

  it("the generated validators evaluate no code at run time", () => {
    for (const file of ["validators.ts", "schema-only.ts"]) {
      const code = readFileSync(`${coreDir}src/generated/${file}`, "utf8");
      expect(code).not.toMatch(/new Function|\beval\(|require\(/);
    }
  });

  it("core's sources import nothing from node: and do no I/O", () => {
    const files = execFileSync("git", ["ls-files", "src"], { cwd: coreDir, encoding: "utf8" }).split("\n").filter(Boolean);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const code = readFileSync(`${coreDir}${file}`, "utf8");
      expect(code, file).not.toMatch(/from "node:|require\(|\bfetch\(|process\./);
    }
  });
});
