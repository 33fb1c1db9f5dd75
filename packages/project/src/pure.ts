/**
 * The parts of @wfkit/project that do no I/O: fault codes, a config's text read into
 * settings, suppressions and severity. The language service imports only these.
 */
export { DSL_CODE_SEVERITY, defaultSeverityOf, knownCodes, closestCode } from "./codes.js";
export { parseConfigText, quotedName, isServiceUrl, type ConfigSettings, type ConfigProblem, type ConfigParse, type SeveritySetting } from "./config-text.js";
export { placeComments, parseSuppressions, applySuppressions, suppressionWorkSteps, type SourceComment, type Comment, type Suppression, type ParsedSuppressions } from "./suppress.js";
export { applyProjectPolicy, applySeverity, NO_POLICY, type FilePolicy, type PolicyInput, type PolicyResult } from "./policy.js";
export { lineColumnAt, type TextPlace } from "./text-place.js";
