/**
 * What the single-file commands (compile, graph) share with `check`: the same
 * config lookup, catalogue, suppressions and severity settings for the one source they
 * read, and the same fault display, on stderr so stdout carries only the command's output.
 */
import path from "node:path";
import type { Catalogue } from "@wfkit/core";
import { catalogueAt } from "./catalogue-file.js";
import { checkSource, type CheckedSource } from "./check-file.js";
import { painter, shouldColour } from "./colors.js";
import { ConfigResolver } from "./config.js";
import { CliError } from "./errors.js";
import { renderFileFaults } from "./formats/pretty.js";
import type { Io } from "./io.js";
import type { FileReport } from "./report.js";
import type { SourceInput } from "./source-input.js";

export interface SourceCheckFlags {
  catalogue?: string | undefined;
  config?: string | undefined;
}

/** A source checked, with the catalogue it was checked against (what a drawing labels edges with). */
export interface SingleSourceCheck extends CheckedSource {
  catalogue: Catalogue;
}

export function checkSingleSource(source: SourceInput, io: Io, flags: SourceCheckFlags): SingleSourceCheck {
  const override = flags.catalogue !== undefined ? path.resolve(io.cwd, flags.catalogue) : undefined;
  const { cataloguePath, policy } = new ConfigResolver(io.cwd, flags.config).fileProject(source.absolutePath, override);
  const catalogue = catalogueAt(cataloguePath, io.cwd);
  const checked = checkSource(source.displayPath, source.text, source.language, { catalogue, severity: policy.severity });
  if (checked.bodyKind)
    throw new CliError(`${source.displayPath} is a Consumer Signals ${checked.bodyKind} body, not a workflow definition; \`wfkit check\` judges it, this command reads definitions only`);
  return { ...checked, catalogue };
}

/** Writes a file's faults to stderr, as `check` would show them. */
export function printFaults(io: Io, report: FileReport): void {
  if (!report.faults.length) return;
  io.stderr.write(renderFileFaults(report, { paint: painter(shouldColour(io.env, io.stderr.isTTY)), quiet: false, cwd: io.cwd }));
}

export function errorCount(report: FileReport): number {
  return report.faults.filter((fault) => fault.severity === "error").length;
}
