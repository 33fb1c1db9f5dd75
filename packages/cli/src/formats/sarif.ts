/**
 * `--format sarif`: SARIF 2.1.0, as GitHub code scanning accepts it
 * (`github/codeql-action/upload-sarif`).
 *
 * - `tool.driver.rules` lists every code wfkit can report, always in the same order, so a
 *   result's `ruleIndex` is stable across runs; each rule's help comes from its meta.
 * - Locations are relative URIs (relative to the working directory, which in CI is the
 *   checkout), with 1-based regions; `columnKind` says columns count UTF-16 code units, and
 *   `endColumn` is the column just after the region, as SARIF defines it.
 * - Related locations (for example "first declared here") become `relatedLocations`, linked
 *   from the message by `[text](id)` as SARIF's embedded links allow.
 */
import type { Diagnostic, Range } from "../report.js";
import { messageWithSuggestion, oneBasedRange } from "../report.js";
import { HOMEPAGE, VERSION } from "../project.js";
import { allRuleInfo, type RuleInfo } from "../rule-info.js";
import type { Formatter } from "./format.js";

export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

export const formatSarif: Formatter = (report) => {
  const rules = allRuleInfo();
  const indexOf = new Map(rules.map((rule, index) => [rule.id, index]));
  const results = report.files.flatMap((file) => file.faults.map((fault) => sarifResult(file.path, fault, indexOf)));
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "wfkit", version: VERSION, semanticVersion: VERSION, informationUri: HOMEPAGE, rules: rules.map(sarifRule) } },
        results,
        columnKind: "utf16CodeUnits",
      },
    ],
  };
  return JSON.stringify(log, null, 2) + "\n";
};

function sarifRule(rule: RuleInfo): Record<string, unknown> {
  return {
    id: rule.id,
    name: pascalCase(rule.id),
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.rationale },
    help: {
      text: `${rule.rationale}\n\nHow to fix: ${rule.fix}\n\nDocumentation: ${rule.helpUri}`,
      markdown: `${rule.rationale}\n\n**How to fix:** ${rule.fix}\n\n[Documentation](${rule.helpUri})`,
    },
    helpUri: rule.helpUri,
    defaultConfiguration: { level: rule.severity },
    properties: { tags: ["wfkit"] },
  };
}

function sarifResult(path: string, fault: Diagnostic, indexOf: ReadonlyMap<string, number>): Record<string, unknown> {
  const location = (range: Range) => ({ physicalLocation: { artifactLocation: { uri: relativeUri(path) }, region: sarifRegion(range) } });
  const related = fault.related ?? [];
  let text = escapeBrackets(messageWithSuggestion(fault));
  if (related.length) text += ` See ${related.map((entry, i) => `[${escapeBrackets(entry.message)}](${i + 1})`).join(", ")}.`;
  const result: Record<string, unknown> = { ruleId: fault.code };
  const index = indexOf.get(fault.code);
  if (index !== undefined) result.ruleIndex = index;
  result.level = fault.severity;
  result.message = { text };
  result.locations = [location(fault.range)];
  if (related.length) result.relatedLocations = related.map((entry, i) => ({ id: i + 1, ...location(entry.range), message: { text: entry.message } }));
  const properties: Record<string, unknown> = {};
  if (fault.nodeId !== null) properties.nodeId = fault.nodeId;
  properties.pointer = fault.pointer;
  result.properties = properties;
  return result;
}

function sarifRegion(range: Range) {
  const { start, end } = oneBasedRange(range);
  return { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column };
}

/** A relative path as a URI reference: each segment percent-encoded, `/` kept. */
export function relativeUri(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/**
 * Square brackets in a message's text would read as an embedded link (SARIF 3.11.6), so
 * literal ones are escaped with a backslash. Rule help is not escaped: it has no links.
 */
function escapeBrackets(text: string): string {
  return text.replace(/[[\]]/g, (char) => `\\${char}`);
}

function pascalCase(id: string): string {
  return id.replace(/(^|-)([a-z0-9])/g, (_match, _dash, char: string) => char.toUpperCase());
}
