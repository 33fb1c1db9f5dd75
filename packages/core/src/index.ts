/**
 * @wfkit/core: the workflow Definition model, its JSON Schema, the part catalogue, and a
 * checker that gives the verdict of the service's `validate-definition` offline.
 * Pure: no I/O, no `node:` imports, no runtime code generation.
 */
export * from "./model.js";
export { bodyFormOf, isVersionSaveBody, type BodyForm } from "./body-form.js";
export * from "./fault.js";
export * from "./catalogue.js";
export { defaultCatalogue } from "./default-catalogue.js";
export { validateDefinition, type ValidateOptions, type ValidationResult } from "./validate.js";
export { CheckSession } from "./check-session.js";
export { jsonEqual } from "./json-equal.js";
export { MAX_JSON_DEPTH, tooDeeplyNestedMessage, firstBracketBeyond } from "./json-depth.js";
export { rules, ruleById, type Rule, type RuleMeta } from "./rules/index.js";
export {
  diagnosticCodes,
  diagnosticCodeByName,
  defaultSeverity,
  DSL_CODES,
  SUPPRESSION_CODES,
  EDITOR_CODES,
  RENAMED_CODES,
  DOCS_URL,
  WFKIT_HOMEPAGE,
  type DiagnosticCodeInfo,
  type DiagnosticCategory,
  type DiagnosticSource,
  type RuleCategory,
  type DslCode,
  type SuppressionCode,
  type EditorCode,
} from "./diagnostic-codes.js";
export { KNOWN_FIELDS, KNOWN_NODE_FIELDS } from "./known-fields.js";
export { Suggester } from "./suggest.js";
export { describeValueType } from "./schema-errors.js";
export { bodyRules } from "./rules/index.js";
export { defineBodyRule, type BodyRule, type BodyContext } from "./signals/body-rule.js";
export { validateAlertBody, validateViewBody, type BodyValidationResult } from "./signals/validate.js";
export {
  bodyKindOf,
  ALERT_TYPES,
  ALERT_CONDITIONS,
  CONDITIONS_BY_TYPE,
  THRESHOLD_TYPES,
  TARGET_FIELD_BY_TYPE,
  ALERT_FIELDS,
  ALERT_REQUIRED,
  VIEW_FIELDS,
  VIEW_REQUIRED,
  GEOGRAPHIES,
  ALERT_SCHEMA_ID,
  VIEW_SCHEMA_ID,
  EDITOR_FIELDS,
  type BodyKind,
  type AlertType,
} from "./signals/model.js";
