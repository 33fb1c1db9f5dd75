/**
 * The fields wfkit knows on each object of a definition. Anything else is kept and passed
 * through, and reported as `unknown-field`. The JSON Schema (schema/definition.schema.json) is
 * the statement of the Definition's shape; these lists, the types of model.ts and the clean
 * reader (checker/read.ts) are held to it by packages/core/test/schema.test.ts.
 */
import type { NodeKind } from "./model.js";

export const KNOWN_FIELDS = {
  definition: ["schemaVersion", "nodes", "edges"],
  versionSaveBody: ["scope", "trigger", "destinations"],
  scope: ["graph"],
  triggerSpec: ["kind", "schedule", "timezone"],
  destinationSpec: ["kind"],
  terminal: ["job", "subjectRefs"],
  job: ["id", "version"],
  subject: ["canonicalId", "kind", "label", "identifiers"],
  edge: ["from", "to"],
} as const satisfies Record<string, readonly string[]>;

/** The schema lists a node's fields for every kind at once; which belong to which kind is stated here. */
export const KNOWN_NODE_FIELDS = {
  trigger: ["id", "kind", "trigger"],
  part: ["id", "kind", "partId", "partVersion", "terminal"],
  gate: ["id", "kind", "belowFloor"],
  destination: ["id", "kind", "destination"],
} as const satisfies Record<NodeKind, readonly string[]>;
