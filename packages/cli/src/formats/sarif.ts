/**
 * `--format sarif`: SARIF 2.1.0, as GitHub code scanning accepts it
 * (`github/codeql-action/upload-sarif`).
 *
 * - `tool.driver.rules` lists every code wfkit can report, always in the same order, so a
 *   result's `ruleIndex` is stable across runs; each rule's name and help come from
 *   `rule-info.ts`.
 * - Locations are URIs relative to the source root, `uriBaseId` `%SRCROOT%`, which
 *   `originalUriBaseIds` resolves to an absolute `file:` URI. The source root is the nearest
 *   directory at or above the working directory that holds `.git` (a directory in a clone, a
 *   file in a worktree or submodule), else the working directory: so a run from a
 *   subdirectory still names files as the repository does, which is what code scanning
 *   matches against its checkout. A file outside the source root gets an absolute `file:` URI.
 * - Regions are 1-based; `columnKind` says columns count UTF-16 code units, and `endColumn`
 *   is the column just after the region, as SARIF defines it.
 * - Related locations (for example "first declared here") become `relatedLocations`, linked
 *   from the message by `[text](id)` as SARIF's embedded links allow.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic, Range } from "../report.js";
import { messageWithSuggestion, oneBasedRange } from "../report.js";
import { HOMEPAGE, VERSION } from "../project.js";
import { allRuleInfo, type RuleInfo } from "../rule-info.js";
import type { Formatter } from "./format.js";
import { printableKeepingLineBreaks } from "../printable.js";

/** The `uriBaseId` of every location inside the source root (the name code scanning documents). */
export const SOURCE_ROOT_ID = "%SRCROOT%";

export const SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json";

export const formatSarif: Formatter = (report, context) => {
  const rules = allRuleInfo();
  const indexOf = new Map(rules.map((rule, index) => [rule.id, index]));
  const root = sourceRoot(context.cwd);
  const results = report.files.flatMap((file) => {
    const artifact = artifactLocation(path.resolve(context.cwd, file.path), root);
    return file.faults.map((fault) => sarifResult(artifact, fault, indexOf));
  });
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "wfkit", version: VERSION, semanticVersion: VERSION, informationUri: HOMEPAGE, rules: rules.map(sarifRule) } },
        originalUriBaseIds: { [SOURCE_ROOT_ID]: { uri: directoryUri(root) } },
        results,
        columnKind: "utf16CodeUnits",
      },
    ],
  };
  // JSON leaves C1 controls and line separators raw; a log viewer showing them could be steered.
  return printableKeepingLineBreaks(JSON.stringify(log, null, 2)) + "\n";
};

function sarifRule(rule: RuleInfo): Record<string, unknown> {
  return {
    id: rule.id,
    name: rule.name,
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

type ArtifactLocation = { uri: string; uriBaseId?: string };

function sarifResult(artifact: ArtifactLocation, fault: Diagnostic, indexOf: ReadonlyMap<string, number>): Record<string, unknown> {
  const location = (range: Range) => ({ physicalLocation: { artifactLocation: artifact, region: sarifRegion(range) } });
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

/**
 * The directory that relative locations are relative to: the nearest at or above `cwd` that
 * holds `.git`, else `cwd` itself.
 */
export function sourceRoot(cwd: string): string {
  for (let directory = path.resolve(cwd); ; ) {
    if (existsSync(path.join(directory, ".git"))) return directory;
    const parent = path.dirname(directory);
    if (parent === directory) return path.resolve(cwd);
    directory = parent;
  }
}

/** Where a file is, relative to the source root when it is inside it. */
export function artifactLocation(absolutePath: string, root: string): ArtifactLocation {
  const relative = path.relative(root, absolutePath);
  const outside = relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  if (relative === "" || outside) return { uri: pathToFileURL(absolutePath).href };
  return { uri: relativeUri(relative.split(path.sep).join("/")), uriBaseId: SOURCE_ROOT_ID };
}

/** A directory's `file:` URI, ending with a slash as SARIF requires of a base URI. */
function directoryUri(directory: string): string {
  const href = pathToFileURL(directory).href;
  return href.endsWith("/") ? href : `${href}/`;
}

/** A relative path as a URI reference: each segment percent-encoded, `/` kept. */
export function relativeUri(relativePath: string): string {
  return relativePath
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
