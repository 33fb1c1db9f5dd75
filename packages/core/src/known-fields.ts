/**
 * The fields wfkit knows on each object of a definition. Anything else is kept and passed
 * through, and reported as `unknown-field`. A test keeps these lists equal to the
 * `properties` of schema/definition.schema.json.
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

export const KNOWN_NODE_FIELDS: Record<NodeKind, readonly string[]> = {
  trigger: ["id", "kind", "trigger"],
  part: ["id", "kind", "partId", "partVersion", "terminal"],
  gate: ["id", "kind", "belowFloor"],
  destination: ["id", "kind", "destination"],
};
