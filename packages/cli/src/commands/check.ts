/** `wfkit check`: the linter. */
import os from "node:os";
import path from "node:path";
import { booleanFlag, choiceFlag, countFlag, parseCommandArgs, stringFlag, type CommandSpec } from "../args.js";
import { catalogueAt } from "../catalogue-file.js";
import type { CheckJob } from "../check-jobs.js";
import { runCheckJobs } from "../check-jobs.js";
import { painter, shouldColour } from "../colors.js";
import { ConfigResolver, type Config } from "../config.js";
import { UsageError } from "../errors.js";
import { collectFiles } from "../files.js";
import { FORMATS, loadFormatter, type FormatName } from "../formats/format.js";
import type { Io } from "../io.js";
import { workersAvailable } from "../parallel.js";
import { plural, summarize, type CheckReport, type FileReport } from "../report.js";
import { readSourceInput } from "../source-input.js";

export const checkSpec: CommandSpec = {
  name: "check",
  summary: "Check workflow definitions (.wf and .json) with the rules of the service's validate-definition.",
  usage: "[options] [PATH|GLOB|-]...",
  details: [
    "PATHs may be files, directories (walked, skipping node_modules and .git) or quoted globs.",
    "In a directory or glob, *.wf, *.workflow.json and .json files whose top-level keys look like",
    "a definition (schemaVersion, scope, or nodes and edges) are checked; a file named",
    "explicitly is always checked. With no PATH, the current directory is checked. `-` reads",
    "standard input.",
    "",
    "Exit status: 0 when there are no errors (and no more warnings than --max-warnings),",
    "1 when there are, 2 on a usage or I/O error (missing file, invalid catalogue or config).",
  ].join("\n"),
  flags: {
    format: { type: "string", short: "f", value: "FORMAT", description: `Output format: ${FORMATS.join(", ")} (default: pretty).` },
    catalogue: { type: "string", value: "FILE", description: "Part catalogue to check against (default: the config's, else the built-in SAMPLE)." },
    config: { type: "string", short: "c", value: "FILE", description: "Use this wfkit.config.json for every file instead of searching for one." },
    "max-warnings": { type: "string", value: "N", description: "Exit 1 when there are more than N warnings." },
    quiet: { type: "boolean", short: "q", description: "Report errors only (warnings still count for --max-warnings)." },
    "stdin-filename": { type: "string", value: "NAME", description: "The name of the source read from standard input (-): picks its language, config and how it is shown." },
  },
  examples: [
    { comment: "Check every definition under the current directory", command: "wfkit check" },
    { comment: "Check some files against your own catalogue", command: "wfkit check flows/*.wf --catalogue catalogue.json" },
    { comment: "In CI: annotate the pull request, fail on any warning", command: "wfkit check --format github --max-warnings 0" },
    { comment: "For GitHub code scanning", command: "wfkit check --format sarif > wfkit.sarif" },
    { comment: "From an editor or hook, on unsaved text", command: "cat flows/brief.wf | wfkit check - --stdin-filename flows/brief.wf" },
  ],
};

/**
 * Above this many files, checking is spread over worker threads. Measured with
 * bench/parallel.mjs on a 2-core machine: a worker costs ~40 ms to start (it loads the
 * bundle), while a typical definition checks in well under a millisecond, so threads only
 * win on large batches; see docs/cli.md "Parallelism".
 */
export const PARALLEL_THRESHOLD_FILES = 400;

export async function runCheck(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(checkSpec, argv);
  const format = choiceFlag<FormatName>(args, "format", FORMATS, "pretty", "check");
  const maxWarnings = countFlag(args, "max-warnings", "check");
  const quiet = booleanFlag(args, "quiet");
  const stdinFilename = stringFlag(args, "stdin-filename");
  const catalogueFlag = stringFlag(args, "catalogue");
  const patterns = args.positionals.length ? args.positionals : ["."];
  const readsStdin = patterns.includes("-");
  if (readsStdin && patterns.length > 1) throw new UsageError("`-` (standard input) cannot be combined with other paths", "check");
  if (stdinFilename !== undefined && !readsStdin) throw new UsageError("--stdin-filename only applies when reading standard input (give `-` as the path)", "check");

  const configs = new ConfigResolver(io.cwd, stringFlag(args, "config"));
  const flagCatalogue = catalogueFlag === undefined ? undefined : path.resolve(io.cwd, catalogueFlag);
  // Read the catalogue up front: a bad --catalogue is an error even if no file needs it.
  if (flagCatalogue) catalogueAt(flagCatalogue, io.cwd);
  const jobFor = (absolutePath: string, displayPath: string, config: Config | undefined): CheckJob => {
    const cataloguePath = flagCatalogue ?? config?.catalogue;
    return { displayPath, absolutePath, languageName: absolutePath, ...(cataloguePath ? { cataloguePath } : {}), severity: [...(config?.severity ?? [])] };
  };

  let jobs: CheckJob[];
  if (readsStdin) {
    const source = await readSourceInput("-", io, stdinFilename);
    const job = jobFor(source.absolutePath, source.displayPath, configs.configFor(source.absolutePath));
    jobs = [{ ...job, text: source.text, languageName: stdinFilename ?? source.displayPath }];
  } else {
    const collected = await collectFiles(patterns, { cwd: io.cwd, kind: "definitions", isIgnored: configs.isIgnored });
    if (!collected.files.length) {
      io.stderr.write(`wfkit: nothing to check: ${plural(collected.ignored, "file")} given ${collected.ignored === 1 ? "is" : "are"} ignored by wfkit.config.json\n`);
      return 0;
    }
    jobs = collected.files.map((file) => jobFor(file.absolutePath, file.displayPath, configs.configFor(file.absolutePath)));
  }
  // Every catalogue a config names is read before checking starts, so its errors come first and once.
  for (const job of jobs) catalogueAt(job.cataloguePath, io.cwd);

  const workers = workersAvailable && jobs.length >= PARALLEL_THRESHOLD_FILES ? Math.min(os.availableParallelism(), 8) : 1;
  const files = await runCheckJobs(jobs, io.cwd, workers);
  const all: CheckReport = { files, summary: summarize(files) };
  const shown = quiet ? errorsOnly(files) : all;

  const formatter = await loadFormatter(format);
  const paint = painter(format === "pretty" && shouldColour(io.env, io.stdout.isTTY));
  io.stdout.write(formatter(shown, { paint, quiet }));

  const tooManyWarnings = maxWarnings !== undefined && all.summary.warnings > maxWarnings;
  if (tooManyWarnings)
    io.stderr.write(`wfkit: ${plural(all.summary.warnings, "warning")}${quiet ? " (not shown: --quiet)" : ""}, more than --max-warnings ${maxWarnings} allows\n`);
  return all.summary.errors > 0 || tooManyWarnings ? 1 : 0;
}

function errorsOnly(files: readonly FileReport[]): CheckReport {
  const filtered = files.map((file) => ({ ...file, faults: file.faults.filter((fault) => fault.severity === "error") }));
  return { files: filtered, summary: summarize(filtered) };
}
