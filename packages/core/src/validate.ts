import type { Catalogue } from "./catalogue.js";
import { indexCatalogue } from "./catalogue.js";
import { defaultCatalogue } from "./default-catalogue.js";
import type { Definition, VersionSaveBody } from "./model.js";
import type { Estimate, Fault } from "./fault.js";
import { buildModel } from "./checker/model.js";
import { RuleContext } from "./checker/context.js";
import { rules as allRules } from "./rules/index.js";
import type { Rule } from "./rules/rule.js";
import { estimateCost } from "./estimate.js";

export interface ValidateOptions {
  /** The part catalogue to check against; the embedded sample catalogue when omitted. */
  catalogue?: Catalogue;
  /** Restrict the rules that run (for tools that embed the checker). */
  rules?: readonly Rule[];
}

export type ValidationResult =
  | { ok: true; definition: Definition | VersionSaveBody; estimate: Estimate; faults: Fault[] }
  | { ok: false; faults: Fault[]; estimate: Estimate };

/**
 * Applies the same rules as the service's `validate-definition` and reports every fault at
 * once. `input` is a Definition or a version-save body. Never throws, whatever `input` is.
 * Warnings alone leave the result `ok`.
 */
export function validateDefinition(input: unknown, options: ValidateOptions = {}): ValidationResult {
  const faults: Fault[] = [];
  let estimate: Estimate = { costMinorUnits: 0, parts: [] };
  try {
    const ctx = new RuleContext(buildModel(input), indexCatalogue(options.catalogue ?? defaultCatalogue), faults);
    for (const rule of options.rules ?? allRules) {
      ctx.beginRule(rule.meta.id, rule.meta.severity);
      rule.check(ctx);
    }
    estimate = estimateCost(ctx);
  } catch (error) {
    // Only a value no JSON document can produce (a throwing getter, a revoked proxy) gets here.
    faults.push({
      code: "shape",
      severity: "error",
      message: `The input could not be read as JSON data (${error instanceof Error ? error.message : String(error)}). Pass the parsed JSON of a definition.`,
      nodeId: null,
      pointer: "",
    });
  }
  const ok = !faults.some((fault) => fault.severity === "error");
  return ok ? { ok, definition: input as Definition | VersionSaveBody, estimate, faults } : { ok, faults, estimate };
}
