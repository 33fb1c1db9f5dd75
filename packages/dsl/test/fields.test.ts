import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { KNOWN_FIELDS, KNOWN_NODE_FIELDS } from "@wfkit/core";
import { compile } from "@wfkit/dsl";
import { DESTINATION_SPEC_TABLE, FIELD_TABLES, type FieldTable, JOB_TABLE, NODE_TABLES, SUBJECT_TABLE, TERMINAL_TABLE, TRIGGER_SPEC_TABLE } from "../src/fields.js";

const generator = fileURLToPath(new URL("../scripts/generate-from-tables.mjs", import.meta.url));
const jsonFields = (table: FieldTable) => table.fields.map((field) => field.json);

describe("the field tables", () => {
  it("the compiler's writers are generated from the current tables", () => {
    // Exits non-zero, naming the stale file, when the tables and the generated code disagree.
    execFileSync("node", [generator, "--check"], { stdio: "pipe" });
  });

  it("write only fields core knows, each object's own", () => {
    for (const kind of ["trigger", "destination", "gate", "part"] as const) expect(KNOWN_NODE_FIELDS[kind]).toEqual(expect.arrayContaining(jsonFields(NODE_TABLES[kind])));
    const known: [FieldTable, readonly string[]][] = [
      [TRIGGER_SPEC_TABLE, KNOWN_FIELDS.triggerSpec],
      [DESTINATION_SPEC_TABLE, KNOWN_FIELDS.destinationSpec],
      [TERMINAL_TABLE, KNOWN_FIELDS.terminal],
      [JOB_TABLE, KNOWN_FIELDS.job],
      [SUBJECT_TABLE, KNOWN_FIELDS.subject],
    ];
    for (const [table, fields] of known) expect(fields, table.name).toEqual(expect.arrayContaining(jsonFields(table)));
    expect(FIELD_TABLES).toHaveLength(Object.keys(NODE_TABLES).length + known.length);
  });

  it("list each field once and name the fields a version or the printed order refers to", () => {
    for (const table of FIELD_TABLES) {
      const names = jsonFields(table);
      expect(new Set(names).size, table.name).toBe(names.length);
      expect(table.written.map((field) => field.json).sort(), table.name).toEqual([...names].sort());
      for (const field of table.fields) if (field.after !== undefined) expect(names, `${table.name}.${field.json}`).toContain(field.after);
      if (table.placedAt !== undefined && table.placedAt !== "open") expect(names, table.name).toContain(table.placedAt);
    }
  });

  it("place each typed field at the syntax that writes it", () => {
    const text = [
      'subject acme = company "cmp_acme" "Acme" identifiers [1]',
      'trigger start scheduled { schedule "0 6 * * 1" timezone "Europe/London" }',
      "part compare = terminal.compare@2 { job compare.peers@1 subjects [acme] }",
      "gate floor hold",
      "destination out standalone",
    ].join("\n");
    const { sourceMap, faults } = compile(text);
    expect(faults).toEqual([]);
    const at = (pointer: string, part: "value" | "key" = "value") => {
      const { span, exact } = sourceMap.locate(pointer, part);
      expect(exact, pointer).toBe(true);
      return text.slice(span.start, span.end);
    };
    expect(at("/nodes/0")).toBe("start");
    expect(at("/nodes/0/kind")).toBe("trigger");
    expect(at("/nodes/0/trigger")).toBe("scheduled");
    expect(at("/nodes/0/trigger/schedule")).toBe('"0 6 * * 1"');
    expect(at("/nodes/0/trigger/timezone", "key")).toBe("timezone");
    expect(at("/nodes/1/partId")).toBe("terminal.compare");
    expect(at("/nodes/1/partVersion")).toBe("2");
    expect(at("/nodes/1/terminal")).toBe("{");
    expect(at("/nodes/1/terminal/job", "key")).toBe("job");
    expect(at("/nodes/1/terminal/job/version")).toBe("1");
    expect(at("/nodes/1/terminal/subjectRefs/0")).toBe("acme");
    expect(at("/nodes/1/terminal/subjectRefs/0/label")).toBe('"Acme"');
    expect(at("/nodes/1/terminal/subjectRefs/0/identifiers", "key")).toBe("identifiers");
    expect(at("/nodes/2/belowFloor")).toBe("hold");
    expect(at("/nodes/3/destination/kind")).toBe("standalone");
  });
});
