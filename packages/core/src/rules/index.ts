/**
 * Every rule, in the order their faults are reported: the document's shape first, then
 * nodes, parts, edges, and the graph as a whole.
 */
import type { Rule } from "./rule.js";
import catalogueInvalid from "./catalogue-invalid.js";
import bodyMixed from "./body-mixed.js";
import schemaVersion from "./schema-version.js";
import shape from "./shape.js";
import nodeKind from "./node-kind.js";
import duplicateId from "./duplicate-id.js";
import triggerMissing from "./trigger-missing.js";
import triggerMultiple from "./trigger-multiple.js";
import triggerKind from "./trigger-kind.js";
import gateFloor from "./gate-floor.js";
import destinationMissing from "./destination-missing.js";
import destinationKind from "./destination-kind.js";
import partUnknown from "./part-unknown.js";
import partVersion from "./part-version.js";
import terminalMissing from "./terminal-missing.js";
import terminalUnexpected from "./terminal-unexpected.js";
import jobUnknown from "./job-unknown.js";
import subjectNotCanonical from "./subject-not-canonical.js";
import subjectUnknown from "./subject-unknown.js";
import subjectDuplicate from "./subject-duplicate.js";
import subjectsTooFew from "./subjects-too-few.js";
import notUnattendedSafe from "./not-unattended-safe.js";
import edgeDangling from "./edge-dangling.js";
import edgeSelf from "./edge-self.js";
import edgeDuplicate from "./edge-duplicate.js";
import edgeIntoTrigger from "./edge-into-trigger.js";
import edgeFromDestination from "./edge-from-destination.js";
import edgeIncompatible from "./edge-incompatible.js";
import cycle from "./cycle.js";
import unreachable from "./unreachable.js";
import deadEnd from "./dead-end.js";
import estimateTooLarge from "./estimate-too-large.js";
import unknownField from "./unknown-field.js";

import alertFieldType from "./alert-field-type.js";
import alertFieldMissing from "./alert-field-missing.js";
import alertTypeUnknown from "./alert-type-unknown.js";
import alertConditionUnknown from "./alert-condition-unknown.js";
import alertConditionMismatch from "./alert-condition-mismatch.js";
import alertThresholdMissing from "./alert-threshold-missing.js";
import alertTargetMissing from "./alert-target-missing.js";
import alertFieldUnused from "./alert-field-unused.js";
import alertGeography from "./alert-geography.js";
import alertEmail from "./alert-email.js";
import alertWhatsappNumber from "./alert-whatsapp-number.js";
import alertMinConsecutive from "./alert-min-consecutive.js";
import alertUnknownField from "./alert-unknown-field.js";
import viewFieldType from "./view-field-type.js";
import viewFieldMissing from "./view-field-missing.js";
import viewGeography from "./view-geography.js";
import viewUnknownField from "./view-unknown-field.js";
import type { BodyRule } from "../signals/body-rule.js";

export type { Rule, RuleMeta } from "./rule.js";

export const rules: readonly Rule[] = [
  catalogueInvalid,
  bodyMixed,
  schemaVersion,
  shape,
  nodeKind,
  duplicateId,
  triggerMissing,
  triggerMultiple,
  triggerKind,
  gateFloor,
  destinationMissing,
  destinationKind,
  partUnknown,
  partVersion,
  terminalMissing,
  terminalUnexpected,
  jobUnknown,
  subjectNotCanonical,
  subjectUnknown,
  subjectDuplicate,
  subjectsTooFew,
  notUnattendedSafe,
  edgeDangling,
  edgeSelf,
  edgeDuplicate,
  edgeIntoTrigger,
  edgeFromDestination,
  edgeIncompatible,
  cycle,
  unreachable,
  deadEnd,
  estimateTooLarge,
  unknownField,
];

export const ruleById: ReadonlyMap<string, Rule> = new Map(rules.map((rule) => [rule.meta.id, rule]));

/**
 * The rules over the Consumer Signals API's alert and saved-view bodies, in report order:
 * the body's types first, then the fields it lacks, the values, and unknown fields last.
 */
export const bodyRules: readonly BodyRule[] = [
  alertFieldType,
  alertFieldMissing,
  alertTypeUnknown,
  alertConditionUnknown,
  alertConditionMismatch,
  alertThresholdMissing,
  alertTargetMissing,
  alertFieldUnused,
  alertGeography,
  alertEmail,
  alertWhatsappNumber,
  alertMinConsecutive,
  alertUnknownField,
  viewFieldType,
  viewFieldMissing,
  viewGeography,
  viewUnknownField,
];
