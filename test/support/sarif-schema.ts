/**
 * The full SARIF 2.1.0 schema (test/schemas/sarif-schema-2.1.0.json, the OASIS copy), compiled
 * once with ajv. The schema is draft-04; see test/schemas/README.md for why ajv's draft-07
 * validator reads it the same way.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";
import type { FormatsPlugin } from "ajv-formats";

// ajv-formats is CommonJS whose types declare an ES default export; require gives the plugin.
const addFormats = createRequire(import.meta.url)("ajv-formats") as FormatsPlugin;

export const SARIF_SCHEMA_FILE = new URL("../schemas/sarif-schema-2.1.0.json", import.meta.url);

let compiled: { validate: ValidateFunction; errors: () => string } | undefined;

export function sarifValidator(): { validate: ValidateFunction; errors: () => string } {
  if (compiled) return compiled;
  const text = readFileSync(SARIF_SCHEMA_FILE, "utf8");
  // Draft-04's numeric exclusiveMinimum/Maximum are booleans; draft-07's are numbers.
  if (/"exclusiveM(in|ax)imum"/.test(text)) throw new Error("the SARIF schema uses a keyword that draft-04 and draft-07 read differently");
  const { $schema: _draft04, id, ...schema } = JSON.parse(text) as { $schema: string; id: string };
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile({ $id: id, ...schema });
  compiled = { validate, errors: () => ajv.errorsText(validate.errors, { separator: "\n" }) };
  return compiled;
}
