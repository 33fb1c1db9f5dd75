import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { KNOWN_FIELDS, KNOWN_NODE_FIELDS } from "@wfkit/core";

const coreDir = fileURLToPath(new URL("..", import.meta.url));
const schema = JSON.parse(readFileSync(`${coreDir}schema/definition.schema.json`, "utf8"));
const props = (definition: string) => Object.keys(schema.definitions[definition].properties).sort();

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
