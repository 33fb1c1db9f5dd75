/**
 * CheckSession reuses the previous version's model and part faults when a new version shares
 * its objects. Whatever the sequence of versions, its verdict must be validateDefinition's:
 * these tests make versions the way an editor does (copy on write: a changed node is a new
 * object, everything else is shared) and compare every check with a fresh one.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { CheckSession, defaultCatalogue, validateDefinition, type Catalogue } from "@wfkit/core";
import { runs, validGraph } from "./arbitraries.js";

type Json = Record<string, unknown>;
interface Version {
  schemaVersion: number;
  nodes: unknown[];
  edges: unknown[];
}

const partIds = defaultCatalogue.parts.map((part) => part.partId);
const fieldValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...partIds, "terminal.compar", "terminal.unknown", "1", "2", "9", "", "hold", "part", "gate", "trigger", "destination") },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** One editor-like change, applied copy-on-write to the node and edge arrays. */
const edit = fc.oneof(
  // A field of a node: partId, partVersion, the job, the subjects, or the id or kind.
  fc.record({
    type: fc.constant("node-field" as const),
    at: fc.nat(),
    field: fc.constantFrom("partId", "partVersion", "jobId", "jobVersion", "subjects", "id", "kind", "extra"),
    value: fieldValue,
    remove: fc.boolean(),
  }),
  fc.record({ type: fc.constant("edge" as const), at: fc.nat(), end: fc.constantFrom("from", "to"), value: fc.string({ maxLength: 6 }) }),
  fc.record({ type: fc.constant("add-node" as const), value: fieldValue }),
  fc.record({ type: fc.constant("remove-edge" as const), at: fc.nat() }),
  fc.record({ type: fc.constant("same" as const) }),
  // The node compiled again from unchanged text: a new object, equal to the old one.
  fc.record({ type: fc.constant("recompiled" as const), at: fc.nat() }),
);
type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function apply(version: Version, change: Edit): Version {
  const nodes = [...version.nodes];
  const edges = [...version.edges];
  switch (change.type) {
    case "node-field": {
      if (nodes.length === 0) break;
      const at = change.at % nodes.length;
      const node = structuredClone(nodes[at]) as Json;
      const terminal = (typeof node.terminal === "object" && node.terminal !== null ? node.terminal : (node.terminal = {})) as Json;
      const job = (typeof terminal.job === "object" && terminal.job !== null ? terminal.job : (terminal.job = {})) as Json;
      const target: [Json, string] =
        change.field === "jobId" ? [job, "id"] : change.field === "jobVersion" ? [job, "version"] : change.field === "subjects" ? [terminal, "subjectRefs"] : [node, change.field];
      if (change.remove) delete target[0][target[1]];
      else target[0][target[1]] = change.field === "subjects" && !Array.isArray(change.value) ? [change.value] : change.value;
      nodes[at] = node;
      break;
    }
    case "edge": {
      if (edges.length === 0) break;
      const at = change.at % edges.length;
      edges[at] = { ...(edges[at] as Json), [change.end]: change.value };
      break;
    }
    case "add-node":
      nodes.push({ id: `added_${nodes.length}`, partId: change.value, partVersion: "1" });
      break;
    case "remove-edge":
      if (edges.length) edges.splice(change.at % edges.length, 1);
      break;
    case "same":
      break;
    case "recompiled":
      if (nodes.length) nodes[change.at % nodes.length] = structuredClone(nodes[change.at % nodes.length]);
      if (edges.length) edges[change.at % edges.length] = structuredClone(edges[change.at % edges.length]);
      break;
  }
  return { schemaVersion: 1, nodes, edges };
}

describe("CheckSession", () => {
  it("gives validateDefinition's verdict for every version of an edited document", () => {
    let patched = 0;
    let checks = 0;
    fc.assert(
      fc.property(validGraph(), fc.array(edit, { minLength: 1, maxLength: 12 }), ({ definition }, edits) => {
        const session = new CheckSession();
        let version = definition as unknown as Version;
        expect(session.check(version)).toEqual(validateDefinition(version));
        for (const change of edits) {
          version = apply(version, change);
          expect(session.check(version)).toEqual(validateDefinition(version));
          checks++;
          if (session.lastMode !== "built") patched++;
        }
      }),
      runs(150),
    );
    // The property must exercise the reuse it guards, not only the rebuilds.
    expect(patched).toBeGreaterThan(checks / 4);
    expect(patched).toBeLessThan(checks);
  });

  it("patches the model for an edit inside a node, and rebuilds it when ids, edges or the catalogue change", () => {
    const session = new CheckSession();
    const first = {
      schemaVersion: 1,
      nodes: [
        { id: "start", kind: "trigger", trigger: { kind: "on_demand" } },
        { id: "pack", partId: "pack", partVersion: "1" },
        { id: "inbox", kind: "destination", destination: { kind: "standalone" } },
      ],
      edges: [
        { from: "start", to: "pack" },
        { from: "pack", to: "inbox" },
      ],
    };
    expect(session.check(first).ok).toBe(false);
    expect(session.lastMode).toBe("built");

    const typo = { ...first, nodes: [first.nodes[0], { id: "pack", partId: "pak", partVersion: "1" }, first.nodes[2]] };
    const result = session.check(typo);
    expect(session.lastMode).toBe("patched");
    expect(result.faults.map((fault) => fault.code)).toContain("part-unknown");
    expect(result).toEqual(validateDefinition(typo));

    const recompiled = { ...typo, nodes: typo.nodes.map((node) => structuredClone(node)) };
    expect(session.check(recompiled)).toEqual(validateDefinition(recompiled));
    expect(session.lastMode).toBe("same");
    const respaced = { ...recompiled, schemaVersion: 2 };
    expect(session.check(respaced)).toEqual(validateDefinition(respaced));
    expect(session.lastMode).toBe("patched");

    const renamed = { ...typo, nodes: [typo.nodes[0], { id: "pack2", partId: "pack", partVersion: "1" }, typo.nodes[2]] };
    expect(session.check(renamed)).toEqual(validateDefinition(renamed));
    expect(session.lastMode).toBe("built");

    const rewired = { ...renamed, edges: [{ from: "start", to: "pack2" }, renamed.edges[1]] };
    expect(session.check(rewired)).toEqual(validateDefinition(rewired));
    expect(session.lastMode).toBe("built");

    const catalogue: Catalogue = { ...defaultCatalogue, parts: defaultCatalogue.parts.filter((part) => part.partId !== "pack") };
    expect(session.check(rewired, catalogue)).toEqual(validateDefinition(rewired, { catalogue }));
    expect(session.lastMode).toBe("built");
  });
});
