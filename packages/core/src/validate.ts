import type { Catalogue } from "./catalogue.js";
import { indexCatalogue, loadCatalogue } from "./catalogue.js";
import { defaultCatalogue } from "./default-catalogue.js";
import type { Definition, VersionSaveBody } from "./model.js";
import type { Estimate, Fault } from "./fault.js";
import { buildModel } from "./checker/model.js";
import { RuleContext } from "./checker/context.js";
import { rules as allRules } from "./rules/index.js";
import type { Rule } from "./rules/rule.js";
import { runRules } from "./checker/run.js";
import { estimateCost } from "./estimate.js";
import catalogueInvalid from "./rules/catalogue-invalid.js";
import shape from "./rules/shape.js";

const EMPTY_CATALOGUE: Catalogue = { catalogueVersion: 1, parts: [] };

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
  const badCatalogue = catalogueProblem(options.catalogue);
  try {
    if (badCatalogue !== undefined) {
      // Checking against a broken catalogue would throw half-way and blame the definition:
      // only `catalogue-invalid` runs, against an empty catalogue.
      const ctx = new RuleContext(buildModel(input), indexCatalogue(EMPTY_CATALOGUE), faults, badCatalogue);
      runRules(ctx, [catalogueInvalid], faults);
      return { ok: false, faults, estimate };
    }
    const ctx = new RuleContext(buildModel(input), indexCatalogue(options.catalogue ?? defaultCatalogue), faults);
    runRules(ctx, options.rules ?? allRules, faults);
    estimate = estimateCost(ctx);
  } catch (error) {
    // Only a value no JSON document can produce (a throwing getter, a revoked proxy) gets here.
    faults.push({
      code: shape.meta.id,
      severity: shape.meta.severity,
      message: `The input could not be read as JSON data (${error instanceof Error ? error.message : String(error)}). Pass the parsed JSON of a definition.`,
      nodeId: null,
      pointer: "",
    });
  }
  const ok = !faults.some((fault) => fault.severity === "error");
  return ok ? { ok, definition: input as Definition | VersionSaveBody, estimate, faults } : { ok, faults, estimate };
}

/** Catalogues already checked (loadCatalogue's verdict is cached: callers pass one catalogue many times). */
const catalogueVerdicts = new WeakMap<object, string | undefined>();

/** @internal Why `catalogue` is not a usable catalogue, or undefined when it is (or none was given). */
export function catalogueProblem(catalogue: unknown): string | undefined {
  if (catalogue === undefined || catalogue === defaultCatalogue) return undefined;
  if (typeof catalogue !== "object" || catalogue === null) return "it is not an object";
  if (catalogueVerdicts.has(catalogue)) return catalogueVerdicts.get(catalogue);
  const loaded = loadCatalogue(catalogue);
  const problem = loaded.ok ? undefined : loaded.problems.slice(0, 3).map((p) => `${p.pointer || "the document"}: ${p.message}`).join("; ");
  catalogueVerdicts.set(catalogue, problem);
  return problem;
}
