/** `wfkit estimate`: what a run would reserve, part by part. */
import { readFile } from "../fs-lazy.js";
import path from "node:path";
import type { Estimate } from "@wfkit/core";
import { choiceFlag, parseCommandArgs, stringFlag, stringsFlag } from "../args.js";
import { catalogueAt } from "../catalogue-file.js";
import { checkSource } from "../check-file.js";
import { ConfigResolver } from "../config.js";
import { CliError, describeFsError, UsageError } from "../errors.js";
import { collectFiles, languageOf } from "../files.js";
import type { Io } from "../io.js";
import { formatMinorUnits } from "../money.js";
import { printableKeepingLineBreaks, printable } from "../printable.js";
import type { FileReport } from "../report.js";
import { errorCount, printFaults } from "../single-source.js";
import { readSourceInput, type SourceInput } from "../source-input.js";
import { estimateSpec } from "./specs.js";

export async function runEstimate(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(estimateSpec, argv);
  const format = choiceFlag(args, "format", ["table", "json"] as const, "table", "estimate");
  const stdinFilename = stringFlag(args, "stdin-filename");
  if (!args.positionals.length) throw new UsageError("give the files or directories to estimate (or - for standard input)", "estimate");
  if (args.positionals.includes("-") && args.positionals.length > 1) throw new UsageError("`-` (standard input) cannot be combined with other paths", "estimate");
  if (stdinFilename !== undefined && args.positionals[0] !== "-") throw new UsageError("--stdin-filename only applies when reading standard input (give `-` as the path)", "estimate");

  const configs = new ConfigResolver(io.cwd, stringFlag(args, "config"), stringsFlag(args, "ignore"));
  const catalogueFlag = stringFlag(args, "catalogue");
  const flagCatalogue = catalogueFlag === undefined ? undefined : path.resolve(io.cwd, catalogueFlag);
  if (flagCatalogue) catalogueAt(flagCatalogue, io.cwd);

  let sources: SourceInput[];
  if (args.positionals[0] === "-") {
    sources = [await readSourceInput("-", io, stdinFilename)];
  } else {
    const { files } = await collectFiles(args.positionals, { cwd: io.cwd, kind: "definitions", ignores: configs });
    sources = [];
    for (const file of files) {
      const text = await readFile(file.absolutePath, "utf8").catch((error: unknown) => {
        throw new CliError(describeFsError(error, file.displayPath));
      });
      sources.push({ text, displayPath: file.displayPath, absolutePath: file.absolutePath, language: languageOf(file.absolutePath, text), fromStdin: false });
    }
  }

  const reports: FileReport[] = sources.map((source) => {
    const config = configs.configFor(source.absolutePath);
    const catalogue = catalogueAt(flagCatalogue ?? config?.catalogue, io.cwd);
    return checkSource(source.displayPath, source.text, source.language, { catalogue, severity: config?.severity ?? new Map() }).report;
  });
  let failed = false;
  for (const report of reports) {
    printFaults(io, report);
    if (errorCount(report) > 0 || !report.estimate) {
      io.stderr.write(`wfkit: ${printable(report.path)} has errors, so it has no estimate\n`);
      failed = true;
    }
  }
  io.stdout.write(format === "json" ? renderEstimateJson(reports) : renderEstimateTables(reports));
  return failed ? 1 : 0;
}

/** `{version: 1, files: [{path, ok, estimate?}]}`: the shape of `check --format json`, without faults. */
function renderEstimateJson(reports: readonly FileReport[]): string {
  const files = reports.map((report) => ({ path: report.path, ok: report.ok, ...(report.estimate ? { estimate: report.estimate } : {}) }));
  return printableKeepingLineBreaks(JSON.stringify({ version: 1, files }, null, 2)) + "\n";
}

/** One table per file with an estimate; a heading names the file when there are several. */
function renderEstimateTables(reports: readonly FileReport[]): string {
  const tables = reports.filter((report) => report.estimate).map((report) => (reports.length > 1 ? `${printable(report.path)}\n` : "") + renderEstimateTable(report.estimate!));
  return tables.join("\n");
}

/**
 *   node      part              cost
 *   profile   terminal.profile    60
 *   pack      pack                20
 *   -------------------------------
 *   total                         80 minor units
 */
export function renderEstimateTable(estimate: Estimate): string {
  const rows = estimate.parts.map((part) => [printable(part.nodeId), printable(part.partId), formatMinorUnits(part.costMinorUnits)] as const);
  const total = formatMinorUnits(estimate.costMinorUnits);
  const header = ["node", "part", "cost"] as const;
  const width = (column: 0 | 1 | 2) => Math.max(header[column].length, ...rows.map((row) => row[column].length), column === 2 ? total.length : 0);
  const [nodeWidth, partWidth, costWidth] = [width(0), width(1), width(2)];
  const line = (node: string, part: string, cost: string) => `${node.padEnd(nodeWidth)}  ${part.padEnd(partWidth)}  ${cost.padStart(costWidth)}`;
  const out = [line(...header)];
  for (const row of rows) out.push(line(...row));
  if (!rows.length) out.push("(no parts)");
  out.push("-".repeat(nodeWidth + partWidth + costWidth + 4));
  out.push(`${line("total", "", total)} minor units`);
  return out.map((row) => row.trimEnd()).join("\n") + "\n";
}
