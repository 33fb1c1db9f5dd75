/**
 * The diagnostic registry: every code wfkit can report, whichever package reports it, with
 * its default severity, category, title, rationale, fix and documentation page.
 *
 * Core's rules describe themselves in their own files (`rule.meta`); the codes that no rule
 * reports (the `.wf` language, JSON sources, inline suppressions, the editor) are described in
 * `OTHER_CODES` below. The packages that report those codes take them from the typed constants
 * here (`DSL_CODES`, `SUPPRESSION_CODES`, `EDITOR_CODES`), so a code cannot be reported without
 * an entry. The CLI's formats, SARIF, the language server's links, @wfkit/project's severity
 * tables and scripts/gen-rule-docs.mjs all read this module.
 *
 * It lives in core because every other package may import core, and core stays pure: these
 * are plain data.
 */
import type { Severity } from "./fault.js";
import { bodyRules, rules } from "./rules/index.js";

/** What a core rule judges. */
export type RuleCategory = "catalogue" | "document" | "node" | "part" | "edge" | "graph" | "alert" | "view";

/** What a diagnostic is about; the groups of docs/rules.md. */
export type DiagnosticCategory = RuleCategory | "syntax" | "names" | "statements" | "fields" | "json" | "suppression" | "editor";

/** Which package reports a code. */
export type DiagnosticSource = "core" | "dsl" | "project" | "editor";

interface OtherCodeDescription {
  readonly source: Exclude<DiagnosticSource, "core">;
  readonly severity: Severity;
  readonly category: DiagnosticCategory;
  readonly title: string;
  readonly rationale: string;
  readonly fix: string;
  readonly assumptions?: readonly string[];
}

export interface DiagnosticCodeInfo extends Omit<OtherCodeDescription, "source"> {
  readonly code: string;
  readonly source: DiagnosticSource;
  /** The code's page, relative to the docs folder: `rules/<code>.md`, one page per code. */
  readonly docsPage: string;
  /** `DOCS_URL` followed by `docsPage`. */
  readonly helpUrl: string;
}

/** The project's home; the base of every documentation link. */
export const WFKIT_HOMEPAGE = "https://github.com/wfkit/wfkit";

/** Where the docs folder is published. */
export const DOCS_URL = `${WFKIT_HOMEPAGE}/blob/main/docs/`;

const OTHER_CODES = {
  syntax: {
    source: "dsl",
    severity: "error",
    category: "syntax",
    title: "The `.wf` text follows the grammar",
    rationale: "A source that does not parse has no definition to check or send.",
    fix: "Correct the text at the marked place; the message says what was expected.",
  },
  "undeclared-node": {
    source: "dsl",
    severity: "error",
    category: "names",
    title: "Edges name declared nodes",
    rationale: "An edge to a node no statement declares joins nothing; the service would refuse the graph.",
    fix: "Declare the node, or correct the name in the edge.",
  },
  "undeclared-subject": {
    source: "dsl",
    severity: "error",
    category: "names",
    title: "Subject lists name declared subjects",
    rationale: "A subject that no `subject` statement declares cannot be pinned.",
    fix: "Declare the subject with a `subject` statement, or correct the name.",
  },
  "duplicate-name": {
    source: "dsl",
    severity: "error",
    category: "names",
    title: "Node and subject names are declared once",
    rationale: "Two declarations of one name make every reference to it ambiguous.",
    fix: "Rename or remove one of the declarations.",
  },
  "duplicate-field": {
    source: "dsl",
    severity: "warning",
    category: "fields",
    title: "A field is written once per object",
    rationale: "Only one of the repeated values reaches the service, silently: the other is dropped.",
    fix: "Remove one of the repeated fields (the message says which value is kept).",
    assumptions: [
      "A repeated field is one code, `duplicate-field`, and a warning in both languages: a `.wf` property or `with` field written twice, a JSON literal in `.wf` or a `.json` object repeating a key. The service reads JSON keeping the last of repeated keys and saves the definition, and wfkit keeps errors for what the service refuses or what leaves no definition; the repeat is still shown by default, and a config can raise it to an error.",
    ],
  },
  "duplicate-statement": {
    source: "dsl",
    severity: "error",
    category: "statements",
    title: "Statements that may appear once appear once",
    rationale: "A second `workflow`, `version` or block `trigger` contradicts the first.",
    fix: "Remove the repeated statement.",
  },
  "mixed-document": {
    source: "dsl",
    severity: "error",
    category: "statements",
    title: "`document` is not mixed with graph statements",
    rationale: "A source is either a raw document or a graph written in statements, not both.",
    fix: "Keep either the `document` or the graph statements.",
  },
  "number-precision": {
    source: "dsl",
    severity: "warning",
    category: "syntax",
    title: "Numbers have an exact JSON value",
    rationale: "A number too large or too precise for a double changes when the service reads it.",
    fix: "Write a number a double can hold exactly, or a string.",
    assumptions: [
      "Listed as a warning, its configurable form (an integer that loses digits); a number too large for a double is reported as an error, which no config can lower.",
    ],
  },
  "json-syntax": {
    source: "dsl",
    severity: "error",
    category: "json",
    title: "A `.json` source is strict JSON",
    rationale: "The service takes strict JSON: comments, trailing commas and other extensions are refused.",
    fix: "Correct the JSON at the marked place (or write the workflow in `.wf`, which allows comments).",
  },
  "unused-suppression": {
    source: "project",
    severity: "warning",
    category: "suppression",
    title: "Every `wfkit-ignore` suppresses something",
    rationale: "A suppression that matches no fault is stale; it would silently hide a future fault on that line.",
    fix: "Remove the suppression, or the codes in it that match nothing.",
  },
  "suppression-without-reason": {
    source: "project",
    severity: "warning",
    category: "suppression",
    title: "Every `wfkit-ignore` gives a reason",
    rationale: "A suppression nobody can explain will never be removed.",
    fix: "Add the reason after a colon: `# wfkit-ignore dead-end: kept for the next release`.",
  },
  "suppression-of-error": {
    source: "project",
    severity: "warning",
    category: "suppression",
    title: "Errors are not suppressed",
    rationale: "The service refuses a graph with an error whatever wfkit says, so suppressing one would let CI pass a graph that cannot be saved.",
    fix: "Fix the error, and remove its code from the suppression.",
  },
  "malformed-suppression": {
    source: "project",
    severity: "warning",
    category: "suppression",
    title: "A `wfkit-ignore` names the codes it suppresses",
    rationale: "There is no blanket suppression: each must say which faults it hides.",
    fix: "Write `# wfkit-ignore CODE[, CODE...]: reason`.",
  },
  "catalogue-unusable": {
    source: "editor",
    severity: "warning",
    category: "editor",
    title: "The configured catalogue and config can be used",
    rationale: "The editor falls back to the sample catalogue when the configured one cannot be read or is invalid, so its verdicts would not be the ones your catalogue gives.",
    fix: "Correct the file the message names (the `wfkit.catalogue` setting, or the `wfkit.config.json` and its `catalogue`).",
  },
} as const satisfies Record<string, OtherCodeDescription>;

type OtherCode = keyof typeof OTHER_CODES;

/** The codes of the `.wf` language and of JSON sources, reported by @wfkit/dsl. */
export const DSL_CODES = {
  syntax: "syntax",
  undeclaredNode: "undeclared-node",
  undeclaredSubject: "undeclared-subject",
  duplicateName: "duplicate-name",
  duplicateField: "duplicate-field",
  duplicateStatement: "duplicate-statement",
  mixedDocument: "mixed-document",
  numberPrecision: "number-precision",
  jsonSyntax: "json-syntax",
} as const satisfies Record<string, OtherCode>;

/** The codes about `# wfkit-ignore` comments, reported by @wfkit/project. */
export const SUPPRESSION_CODES = {
  unused: "unused-suppression",
  withoutReason: "suppression-without-reason",
  ofError: "suppression-of-error",
  malformed: "malformed-suppression",
} as const satisfies Record<string, OtherCode>;

/** The codes only the language server reports (after the project's policy, so not configurable). */
export const EDITOR_CODES = {
  catalogueUnusable: "catalogue-unusable",
} as const satisfies Record<string, OtherCode>;

export type DslCode = (typeof DSL_CODES)[keyof typeof DSL_CODES];
export type SuppressionCode = (typeof SUPPRESSION_CODES)[keyof typeof SUPPRESSION_CODES];
export type EditorCode = (typeof EDITOR_CODES)[keyof typeof EDITOR_CODES];

/** Codes that were renamed, mapped to their present name (a config naming the old one is told). */
export const RENAMED_CODES: ReadonlyMap<string, string> = new Map([["json-duplicate-key", DSL_CODES.duplicateField]]);

function entry(code: string, description: OtherCodeDescription | (Omit<OtherCodeDescription, "source"> & { source: "core" })): DiagnosticCodeInfo {
  const docsPage = `rules/${code}.md`;
  const info: DiagnosticCodeInfo = {
    code,
    source: description.source,
    severity: description.severity,
    category: description.category,
    title: description.title,
    rationale: description.rationale,
    fix: description.fix,
    docsPage,
    helpUrl: DOCS_URL + docsPage,
  };
  return description.assumptions ? { ...info, assumptions: description.assumptions } : info;
}

/** Every code, in a fixed order: core's rules (in report order, the workflow rules then the alert and view rules), the language's, the suppressions', the editor's. */
export const diagnosticCodes: readonly DiagnosticCodeInfo[] = [
  ...[...rules, ...bodyRules].map(({ meta }) => entry(meta.id, { ...meta, source: "core" })),
  ...(Object.entries(OTHER_CODES) as [OtherCode, OtherCodeDescription][]).map(([code, description]) => entry(code, description)),
];

/** The registry by code. A Map, so `constructor` or `__proto__` is never a code. */
export const diagnosticCodeByName: ReadonlyMap<string, DiagnosticCodeInfo> = new Map(diagnosticCodes.map((info) => [info.code, info]));

/** The severity a code is reported with before any configuration. */
export function defaultSeverity(code: DslCode | SuppressionCode | EditorCode): Severity {
  return OTHER_CODES[code].severity;
}
