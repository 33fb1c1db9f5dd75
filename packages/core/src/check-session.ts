/**
 * Checking successive versions of one document, each at about the cost of what changed: for
 * editors, which check on every keystroke. The verdict is always exactly `validateDefinition`'s.
 *
 * When a version differs from the last only inside some node objects (same edge objects,
 * the other node objects the same, each changed node keeping its id and kind), the model is
 * patched instead of rebuilt (patchModel) and the part rules, which judge one node at a time
 * against the catalogue, run only on the changed nodes; the faults they found on the other
 * nodes are kept. The whole-input rules run every time, on the patched model.
 *
 * The objects of a checked version must never be mutated afterwards: reuse is decided by
 * object identity. The DSL's CompileCache gives exactly such versions.
 */
import type { Catalogue } from "./catalogue.js";
import { indexCatalogue } from "./catalogue.js";
import { defaultCatalogue } from "./default-catalogue.js";
import type { Estimate, Fault } from "./fault.js";
import type { Definition, VersionSaveBody } from "./model.js";
import { buildModel, patchModel, type GraphModel } from "./checker/model.js";
import { RuleContext } from "./checker/context.js";
import { runCheckRules, runPartRules, sortByRule } from "./checker/run.js";
import { rules } from "./rules/index.js";
import { estimateCost } from "./estimate.js";
import { jsonEqual } from "./json-equal.js";
import { isPlainObject } from "./model.js";
import { isVersionSaveBody } from "./body-form.js";
import { validateDefinition, catalogueProblem, type ValidationResult } from "./validate.js";

export class CheckSession {
  private model: GraphModel | undefined;
  private catalogue: Catalogue | undefined;
  /** The part rules' faults, by node index (undefined: none). */
  private partFaults: (Fault[] | undefined)[] = [];
  private lastInput: unknown;
  /** The last verdict's faults (copies: the caller owns what it was given). */
  private lastFaults: Fault[] | undefined;

  /**
   * How the last check was made: "same" (the input equals the last one), "patched" (see the
   * file comment) or "built". For tests and benchmarks.
   */
  lastMode: "same" | "patched" | "built" | undefined;

  /** `validateDefinition(input, { catalogue })`, reusing what it can of the previous call. */
  check(input: unknown, catalogue: Catalogue = defaultCatalogue): ValidationResult {
    if (catalogueProblem(catalogue) !== undefined) {
      this.forget();
      return validateDefinition(input, { catalogue });
    }
    try {
      return this.checkIncrementally(input, catalogue);
    } catch {
      // As validateDefinition: only a value no JSON document can produce gets here; let it
      // report, and start afresh next time.
      this.forget();
      return validateDefinition(input, { catalogue });
    }
  }

  private checkIncrementally(input: unknown, catalogue: Catalogue): ValidationResult {
    const patch = this.model && this.catalogue === catalogue ? patchModel(this.model, input) : undefined;
    // The previous model is consumed by patchModel or replaced: forget it until this check ends.
    this.model = undefined;
    if (patch && patch.changed.length === 0 && this.lastFaults && sameOutsideArrays(this.lastInput, input)) {
      // An edit of spacing or a comment: the faults are the last ones; the estimate (new
      // objects for the caller) costs one walk over the nodes.
      this.model = patch.model;
      this.lastInput = input;
      this.lastMode = "same";
      return result(input, copies(this.lastFaults), estimateCost(new RuleContext(patch.model, indexCatalogue(catalogue), [])));
    }
    const model = patch ? patch.model : buildModel(input);
    const faults: Fault[] = [];
    const ctx = new RuleContext(model, indexCatalogue(catalogue), faults);
    const partRules = runCheckRules(ctx, rules);
    // The part rules' faults of each node they run on are kept apart, by node.
    const judge = (index: number) => {
      const before = faults.length;
      runPartRules(ctx, partRules, model.nodes[index]!);
      this.partFaults[index] = faults.length > before ? faults.splice(before) : undefined;
    };
    if (patch) patch.changed.forEach(judge);
    else {
      this.partFaults = new Array(model.nodes.length);
      for (let index = 0; index < model.nodes.length; index++) judge(index);
    }
    const partFaults = this.partFaults;
    for (let index = 0; index < partFaults.length; index++) {
      const found = partFaults[index];
      if (found) for (const fault of found) faults.push({ ...fault });
    }
    sortByRule(faults, rules);
    const estimate = estimateCost(ctx);
    this.model = model;
    this.catalogue = catalogue;
    this.lastMode = patch ? "patched" : "built";
    this.lastInput = input;
    this.lastFaults = copies(faults);
    return result(input, faults, estimate);
  }

  /** Drops everything kept from earlier checks. */
  forget(): void {
    this.model = undefined;
    this.catalogue = undefined;
    this.partFaults = [];
    this.lastInput = undefined;
    this.lastFaults = undefined;
    this.lastMode = undefined;
  }
}

function copies(faults: readonly Fault[]): Fault[] {
  return faults.map((fault) => ({ ...fault }));
}

function result(input: unknown, faults: Fault[], estimate: Estimate): ValidationResult {
  const ok = !faults.some((fault) => fault.severity === "error");
  return ok ? { ok, definition: input as Definition | VersionSaveBody, estimate, faults } : { ok, faults, estimate };
}

/**
 * Two Definitions whose node and edge arrays patchModel found equal: equal when their other
 * fields are (key order included). Version-save bodies are never taken as equal here.
 */
function sameOutsideArrays(last: unknown, next: unknown): boolean {
  if (!isPlainObject(last) || !isPlainObject(next) || isVersionSaveBody(next)) return false;
  return jsonEqual({ ...last, nodes: null, edges: null }, { ...next, nodes: null, edges: null }, { keyOrder: true });
}
