/**
 * What outputs say about each fault code: a title, why it matters, how to fix it, and a
 * documentation link. Core's rules describe themselves (`rule.meta`); the DSL's codes and
 * this CLI's own are described here.
 */
import { rules, type Severity } from "@wfkit/core";
import { DSL_CODE_SEVERITY, SUPPRESSION_CODES } from "@wfkit/project";
import { ruleDocUrl } from "./project.js";

export interface RuleInfo {
  id: string;
  /** A descriptive PascalCase name (SARIF's `name`), made from the title: never the id. */
  name: string;
  severity: Severity;
  title: string;
  rationale: string;
  fix: string;
  helpUri: string;
}

type Description = Omit<RuleInfo, "id" | "name" | "severity" | "helpUri">;

const DSL_RULES: Record<string, Description> = {
  syntax: {
    title: "The `.wf` text follows the grammar",
    rationale: "A source that does not parse has no definition to check or send.",
    fix: "Correct the text at the marked place; the message says what was expected.",
  },
  "undeclared-node": {
    title: "Edges name declared nodes",
    rationale: "An edge to a node no statement declares joins nothing; the service would refuse the graph.",
    fix: "Declare the node, or correct the name in the edge.",
  },
  "undeclared-subject": {
    title: "Subject lists name declared subjects",
    rationale: "A subject that no `subject` statement declares cannot be pinned.",
    fix: "Declare the subject with a `subject` statement, or correct the name.",
  },
  "duplicate-name": {
    title: "Node and subject names are declared once",
    rationale: "Two declarations of one name make every reference to it ambiguous.",
    fix: "Rename or remove one of the declarations.",
  },
  "duplicate-field": {
    title: "A field is written once per object",
    rationale: "A repeated field leaves it unclear which value was meant.",
    fix: "Remove one of the repeated fields.",
  },
  "duplicate-statement": {
    title: "Statements that may appear once appear once",
    rationale: "A second `workflow`, `version` or block `trigger` contradicts the first.",
    fix: "Remove the repeated statement.",
  },
  "mixed-document": {
    title: "`document` is not mixed with graph statements",
    rationale: "A source is either a raw document or a graph written in statements, not both.",
    fix: "Keep either the `document` or the graph statements.",
  },
  "number-precision": {
    title: "Numbers have an exact JSON value",
    rationale: "A number too large or too precise for a double changes when the service reads it.",
    fix: "Write a number a double can hold exactly, or a string.",
  },
  "json-syntax": {
    title: "A `.json` source is strict JSON",
    rationale: "The service takes strict JSON: comments, trailing commas and other extensions are refused.",
    fix: "Correct the JSON at the marked place (or write the workflow in `.wf`, which allows comments).",
  },
  "json-duplicate-key": {
    title: "A JSON object does not repeat a key",
    rationale: "JSON readers keep only the last of repeated keys, silently dropping the first.",
    fix: "Remove or rename one of the repeated keys.",
  },
};

const CLI_RULES: Record<string, Description> = {
  [SUPPRESSION_CODES.unused]: {
    title: "Every `wfkit-ignore` suppresses something",
    rationale: "A suppression that matches no fault is stale; it would silently hide a future fault on that line.",
    fix: "Remove the suppression, or the codes in it that match nothing.",
  },
  [SUPPRESSION_CODES.withoutReason]: {
    title: "Every `wfkit-ignore` gives a reason",
    rationale: "A suppression nobody can explain will never be removed.",
    fix: "Add the reason after a colon: `# wfkit-ignore dead-end: kept for the next release`.",
  },
  [SUPPRESSION_CODES.ofError]: {
    title: "Errors are not suppressed",
    rationale: "The service refuses a graph with an error whatever wfkit says, so suppressing one would let CI pass a graph that cannot be saved.",
    fix: "Fix the error, and remove its code from the suppression.",
  },
  [SUPPRESSION_CODES.malformed]: {
    title: "A `wfkit-ignore` names the codes it suppresses",
    rationale: "There is no blanket suppression: each must say which faults it hides.",
    fix: "Write `# wfkit-ignore CODE[, CODE...]: reason`.",
  },
};

let cached: RuleInfo[] | undefined;

/** Every code wfkit reports, in a fixed order (core's rules, then the DSL's, then the CLI's). */
export function allRuleInfo(): RuleInfo[] {
  const info = (id: string, severity: Severity, description: Description, kind: "rule" | "dsl" | "cli"): RuleInfo => ({
    id,
    name: nameOfTitle(description.title),
    severity,
    ...description,
    helpUri: ruleDocUrl(id, kind),
  });
  cached ??= [
    ...rules.map(({ meta }) => info(meta.id, meta.severity, { title: meta.title, rationale: meta.rationale, fix: meta.fix }, "rule")),
    ...Object.entries(DSL_RULES).map(([id, description]) => info(id, DSL_CODE_SEVERITY.get(id) ?? "error", description, "dsl")),
    ...Object.entries(CLI_RULES).map(([id, description]) => info(id, "warning", description, "cli")),
  ];
  return cached;
}

/** "The `.wf` text follows the grammar" becomes "TheWfTextFollowsTheGrammar"; "a trigger's" becomes "ATriggers". */
export function nameOfTitle(title: string): string {
  return (title.replace(/['\u2019]/g, "").match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

export function ruleInfo(code: string): RuleInfo | undefined {
  return allRuleInfo().find((info) => info.id === code);
}
