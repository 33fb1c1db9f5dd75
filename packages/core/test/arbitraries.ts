/**
 * fast-check generators of valid workflow graphs, built from the catalogue so that every
 * generated graph is valid by construction: terminal parts fed by the trigger, report packs
 * fanning in from them, an optional gate, and one destination. Ids include spaces, quotes,
 * emoji and words that are keywords elsewhere.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { defaultCatalogue, type Catalogue, type Definition } from "@wfkit/core";
import { numRuns } from "../../../test/support/num-runs.js";

export const awkwardId = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
  fc.constantFrom("part", "trigger", "gate", "destination", "subject", "workflow", "job", "hold", "a b", 'quote"d', "emoji 🚀", "ünï", "__proto__", "constructor", "toString", "with/slash", "tilde~0"),
  fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" }),
);

export interface GeneratedGraph {
  definition: Definition;
  /** Expected estimate, computed here from the catalogue (independently of the checker). */
  expectedCost: number;
  partIds: string[];
  gateId: string | undefined;
}

export function validGraph(catalogue: Catalogue = defaultCatalogue): fc.Arbitrary<GeneratedGraph> {
  const terminals = catalogue.parts.filter((p) => p.terminal && p.unattendedSafe);
  const pack = catalogue.parts.find((p) => p.partId === "pack")!;
  const subjects = catalogue.subjects ?? [];
  return fc
    .record({
      ids: fc.uniqueArray(awkwardId, { minLength: 16, maxLength: 16 }),
      terminalChoices: fc.array(fc.record({ part: fc.nat(terminals.length - 1), extraSubjects: fc.nat(2), job: fc.nat(3), version: fc.nat(3) }), { minLength: 1, maxLength: 6 }),
      packCount: fc.integer({ min: 1, max: 3 }),
      feeds: fc.array(fc.nat(100), { minLength: 6, maxLength: 6 }),
      withGate: fc.boolean(),
      scheduled: fc.boolean(),
      seed: fc.nat(),
    })
    .map(({ ids, terminalChoices, packCount, feeds, withGate, scheduled }) => {
      let next = 0;
      const take = () => ids[next++]!;
      const nodes: Definition["nodes"] = [];
      const edges: Definition["edges"] = [];
      const trigger = take();
      nodes.push({ id: trigger, kind: "trigger", trigger: scheduled ? { kind: "scheduled", schedule: "0 7 * * *" } : { kind: "on_demand" } });
      let expectedCost = 0;
      const partIds: string[] = [];
      const terminalIds = terminalChoices.map((choice) => {
        const part = terminals[choice.part]!;
        const job = part.terminal!.jobs[choice.job % part.terminal!.jobs.length]!;
        const count = Math.min(subjects.length, (part.terminal!.minSubjects ?? 1) + choice.extraSubjects);
        const id = take();
        nodes.push({
          id,
          partId: part.partId,
          partVersion: part.versions[choice.version % part.versions.length]!,
          terminal: { job: { id: job.id, version: job.version }, subjectRefs: subjects.slice(0, count).map((s) => ({ ...s, identifiers: [...(s.identifiers ?? [])] })) },
        });
        edges.push({ from: trigger, to: id });
        expectedCost += part.cost.baseMinorUnits + (part.cost.perSubjectMinorUnits ?? 0) * count;
        partIds.push(id);
        return id;
      });
      const packIds: string[] = [];
      for (let p = 0; p < packCount; p++) {
        const id = take();
        nodes.push({ id, partId: "pack", partVersion: "1" });
        expectedCost += pack.cost.baseMinorUnits;
        packIds.push(id);
        partIds.push(id);
      }
      // Every terminal feeds at least one pack, and every pack is fed by at least one terminal.
      terminalIds.forEach((t, i) => edges.push({ from: t, to: packIds[i % packIds.length]! }));
      packIds.forEach((p, i) => {
        const extra = terminalIds[feeds[i]! % terminalIds.length]!;
        if (!edges.some((e) => e.from === extra && e.to === p)) edges.push({ from: extra, to: p });
      });
      const destination = take();
      let gateId: string | undefined;
      if (withGate) {
        gateId = take();
        nodes.push({ id: gateId, kind: "gate", belowFloor: "hold" });
        for (const p of packIds) edges.push({ from: p, to: gateId });
        edges.push({ from: gateId, to: destination });
      } else {
        for (const p of packIds) edges.push({ from: p, to: destination });
      }
      nodes.push({ id: destination, kind: "destination", destination: { kind: "standalone" } });
      return { definition: { schemaVersion: 1, nodes, edges } as Definition, expectedCost, partIds, gateId };
    });
}

/** A permutation of `items` chosen by fast-check. */
export function shuffled<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, i) => ({ item, key: keys[i % Math.max(1, keys.length)]! * 1000 + i }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);
}

/** fast-check parameters with the run count of test/support/num-runs.ts. */
export const runs = (unitDefault: number) => ({ numRuns: numRuns(unitDefault) });

/** Every field name the definition schema gives any object, sorted. */
export function schemaFieldNames(): string[] {
  const schema = JSON.parse(readFileSync(new URL("../schema/definition.schema.json", import.meta.url), "utf8")) as { definitions: unknown };
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object")
      for (const [key, child] of Object.entries(value)) {
        if (key === "properties") for (const name of Object.keys(child as object)) names.add(name);
        visit(child);
      }
  };
  visit(schema.definitions);
  return [...names].sort();
}
