// The alert and saved-view bodies: the published schemas against core's tables and fixtures,
// the suggestions the rules make, and the one decision of what kind of body a file holds.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import {
  ALERT_CONDITIONS,
  ALERT_FIELDS,
  ALERT_REQUIRED,
  ALERT_SCHEMA_ID,
  ALERT_TYPES,
  CONDITIONS_BY_TYPE,
  GEOGRAPHIES,
  THRESHOLD_TYPES,
  VIEW_FIELDS,
  VIEW_REQUIRED,
  VIEW_SCHEMA_ID,
  bodyKindOf,
  bodyRules,
  validateAlertBody,
  validateViewBody,
} from "@wfkit/core";

const coreDir = fileURLToPath(new URL("..", import.meta.url));
const readJson = (path: string) => JSON.parse(readFileSync(`${coreDir}${path}`, "utf8"));
const alertSchema = readJson("schema/alert.schema.json");
const viewSchema = readJson("schema/view.schema.json");

describe("published schemas", () => {
  it("list the same fields, requirements and enumerations as the rules", () => {
    expect(alertSchema.$id).toBe(ALERT_SCHEMA_ID);
    expect(viewSchema.$id).toBe(VIEW_SCHEMA_ID);
    expect(Object.keys(alertSchema.properties).sort()).toEqual(["$schema", ...Object.keys(ALERT_FIELDS)].sort());
    expect(Object.keys(viewSchema.properties).sort()).toEqual(["$schema", ...Object.keys(VIEW_FIELDS)].sort());
    expect(alertSchema.required).toEqual([...ALERT_REQUIRED]);
    expect(viewSchema.required).toEqual([...VIEW_REQUIRED]);
    expect(alertSchema.properties.type.enum).toEqual([...ALERT_TYPES]);
    expect(alertSchema.properties.condition.enum).toEqual([...ALERT_CONDITIONS]);
    expect(alertSchema.properties.geography.enum).toEqual([...GEOGRAPHIES]);
    expect(viewSchema.properties.geography.enum).toEqual([...GEOGRAPHIES]);
    // The pairing and the threshold are wfkit's advice, not the reference's requirements: the
    // schema states them as annotations (`examples`, a description) and refuses neither.
    const pairing = Object.fromEntries(alertSchema.allOf.map((branch: any) => [branch.if.properties.type.const, branch.then.properties.condition.examples]));
    expect(pairing).toEqual(CONDITIONS_BY_TYPE);
    expect(alertSchema.allOf.every((branch: any) => branch.then.required === undefined && branch.then.properties.condition.enum === undefined)).toBe(true);
    const useThreshold = alertSchema.allOf.filter((branch: any) => branch.then.properties.threshold !== undefined).map((branch: any) => branch.if.properties.type.const);
    expect(useThreshold).toEqual([...THRESHOLD_TYPES]);
  });

  // ajv checks `format` only with a plugin: the e-mail rule is core's alone.
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, validateFormats: false });
  const schemaFor = { alert: ajv.compile(alertSchema), view: ajv.compile(viewSchema) };
  for (const rule of bodyRules) {
    const id = rule.meta.id;
    it(`${id}: the schema accepts the valid fixture${rule.meta.severity === "error" && id !== "alert-email" ? " and refuses the invalid one" : ""}`, () => {
      const validate = schemaFor[rule.body];
      expect(validate(readJson(`test/fixtures/${id}/valid.json`).input)).toBe(true);
      if (rule.meta.severity === "error" && id !== "alert-email") expect(validate(readJson(`test/fixtures/${id}/invalid.json`).input)).toBe(false);
    });
  }
});

describe("suggestions", () => {
  const base = { name: "n", type: "cpix_threshold", condition: "above", threshold: 1, email: "a@example.com" };
  const suggested = (faults: { code: string; suggestion?: string }[], code: string) => faults.find((fault) => fault.code === code)?.suggestion;

  it("name the value probably meant", () => {
    expect(suggested(validateAlertBody({ ...base, type: "cpix_treshold" }).faults, "alert-type-unknown")).toBe("cpix_threshold");
    expect(suggested(validateAlertBody({ ...base, condition: "belw" }).faults, "alert-condition-unknown")).toBe("below");
    expect(suggested(validateAlertBody({ ...base, type: "weekly_digest", condition: "above", threshold: undefined }).faults, "alert-condition-mismatch")).toBe("any");
    expect(suggested(validateAlertBody({ ...base, geography: "uk" }).faults, "alert-geography")).toBe("UK");
    expect(suggested(validateAlertBody({ ...base, whatsapp_number: "+44 7700-900123" }).faults, "alert-whatsapp-number")).toBe("+447700900123");
    expect(suggested(validateAlertBody({ ...base, min_consecutive: -2 }).faults, "alert-min-consecutive")).toBe("1");
    expect(suggested(validateAlertBody({ ...base, emial: "x" }).faults, "alert-unknown-field")).toBe("email");
    expect(suggested(validateViewBody({ name: "v", geography: "GB", driver_ids: [], question: "q" }).faults, "view-geography")).toBe("UK");
  });

  it("point at the field at fault, and every fault is reported at once", () => {
    const result = validateAlertBody({ type: "sector_pressure", condition: "rises_by", email: "nobody", whatsapp_number: "12", min_consecutive: 1.5, colour: "red" });
    expect(result.ok).toBe(false);
    expect(result.faults.map(({ code, pointer }) => [code, pointer])).toEqual([
      ["alert-field-missing", ""],
      ["alert-condition-mismatch", "/condition"],
      ["alert-threshold-missing", ""],
      ["alert-target-missing", ""],
      ["alert-email", "/email"],
      ["alert-whatsapp-number", "/whatsapp_number"],
      ["alert-min-consecutive", "/min_consecutive"],
      ["alert-unknown-field", "/colour"],
    ]);
  });

  it("a body that is not an object is one fault at the root", () => {
    for (const input of [null, [], "x", 3]) {
      expect(validateAlertBody(input).faults.map((fault) => [fault.code, fault.pointer])).toEqual([["alert-field-type", ""]]);
      expect(validateViewBody(input).faults.map((fault) => [fault.code, fault.pointer])).toEqual([["view-field-type", ""]]);
    }
  });
});

describe("bodyKindOf", () => {
  it("decides by the file name, then by `$schema`, else a definition", () => {
    expect(bodyKindOf("rules/cpix.alert.json", {})).toBe("alert");
    expect(bodyKindOf("C:\\views\\UK.VIEW.JSON", {})).toBe("view");
    expect(bodyKindOf("a.json", { $schema: ALERT_SCHEMA_ID })).toBe("alert");
    expect(bodyKindOf("a.json", { $schema: "./node_modules/@wfkit/core/schema/view.schema.json" })).toBe("view");
    expect(bodyKindOf("a.json", { $schema: "https://example.com/myalert.schema.json" })).toBe("definition");
    expect(bodyKindOf(undefined, { schemaVersion: 1 })).toBe("definition");
    expect(bodyKindOf("x.workflow.json", { $schema: 3 })).toBe("definition");
  });
});
