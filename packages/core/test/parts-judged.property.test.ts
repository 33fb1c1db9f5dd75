/**
 * A part rule that declares `partsJudged` is called only on the part nodes it judges (with a
 * `terminal` object, or without one): the runner skips the others. That is only correct if the
 * rule would have reported nothing on them; these tests call each such rule on the nodes the
 * runner skips and hold it to that.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { defaultCatalogue, type Catalogue, type Fault } from "@wfkit/core";
import { indexCatalogue } from "../src/catalogue.js";
import { rules } from "../src/rules/index.js";
import { buildModel } from "../src/checker/model.js";
import { RuleContext } from "../src/checker/context.js";
import type { PartNode } from "../src/rules/parts.js";
import { runs, validGraph } from "./arbitraries.js";

const judging = rules.filter((rule) => rule.partsJudged !== undefined);

/** The faults the declaring rules report on the part nodes the runner does not call them on. */
function faultsOnSkippedParts(input: unknown, catalogue: Catalogue = defaultCatalogue): Fault[] {
  const faults: Fault[] = [];
  const ctx = new RuleContext(buildModel(input), indexCatalogue(catalogue), faults);
  for (const node of ctx.model.nodes) {
    if (node.kind !== "part") continue;
    for (const rule of judging) {
      if ((rule.partsJudged === "with-terminal") === node.hasTerminal) continue;
      ctx.beginRule(rule.meta.id, rule.meta.severity);
      rule.part!(node as PartNode, ctx);
    }
  }
  return faults;
}

describe("partsJudged", () => {
  it("is declared by the terminal rules", () => {
    expect(judging.map((rule) => rule.meta.id).sort()).toEqual(
      ["job-unknown", "subject-duplicate", "subject-not-canonical", "subject-unknown", "subjects-too-few", "terminal-missing", "terminal-unexpected"].sort(),
    );
  });

  it("skips only parts on which the rule reports nothing: every fixture", () => {
    const fixturesDir = fileURLToPath(new URL("./fixtures/", import.meta.url));
    for (const folder of readdirSync(fixturesDir))
      for (const kind of ["valid", "invalid"]) {
        const fixture = JSON.parse(readFileSync(`${fixturesDir}${folder}/${kind}.json`, "utf8")) as { input: unknown; catalogue?: Catalogue };
        expect(faultsOnSkippedParts(fixture.input, fixture.catalogue), `${folder}/${kind}`).toEqual([]);
      }
  });

  it("skips only parts on which the rule reports nothing: generated graphs with terminal objects moved about", () => {
    const terminalValue = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({
        job: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.record({ id: fc.string(), version: fc.constantFrom("1", "2", 1) })),
        subjectRefs: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.array(fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 }), fc.constant({ canonicalId: "cmp_tesco", kind: "company" })), { maxLength: 4 })),
      }),
    );
    fc.assert(
      fc.property(validGraph(), fc.array(fc.record({ node: fc.nat(), terminal: terminalValue, partId: fc.constantFrom(undefined, "pack", "terminal.profile", "terminal.nope", 7) }), { maxLength: 5 }), (graph, changes) => {
        const input = structuredClone(graph.definition);
        for (const change of changes) {
          const node = input.nodes[change.node % input.nodes.length] as Record<string, unknown>;
          if (change.terminal === undefined) delete node.terminal;
          else node.terminal = change.terminal;
          if (change.partId !== undefined) node.partId = change.partId;
        }
        expect(faultsOnSkippedParts(input)).toEqual([]);
      }),
      runs(300),
    );
  });
});
