/** `wfkit check`: the linter. */
import path from "node:path";
import { booleanFlag, choiceFlag, countFlag, parseCommandArgs, stringFlag, stringsFlag } from "../args.js";
import { checkSpec } from "./specs.js";
import { catalogueAt } from "../catalogue-file.js";
import { type CheckJob, checkJob, runCheckJob } from "../check-jobs.js";
import { painter, shouldColour } from "../colors.js";
import { ConfigResolver } from "../config.js";
import { UsageError } from "../errors.js";
import { collectFiles, displayPathOf, type ReadAlready } from "../files.js";
import { emptyReportText, FORMATS, loadFormatter, type FormatName } from "../formats/format.js";
import type { Io } from "../io.js";
import { plural, summarize, type CheckReport, type FileReport } from "../report.js";
import { readSourceInput } from "../source-input.js";
import { clientFor, reportingRefusals } from "../remote.js";
import { reportRemoteDifferences } from "../remote-check.js";

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

  // --no-ignore (as eslint's): no `ignore` of any config, and no --ignore, leaves anything out.
  const noIgnore = booleanFlag(args, "no-ignore");
  if (noIgnore && stringsFlag(args, "ignore").length) throw new UsageError("--ignore and --no-ignore contradict each other: give one", "check");
  const configs = new ConfigResolver(io.cwd, stringFlag(args, "config"), stringsFlag(args, "ignore"));
  const flagCatalogue = catalogueFlag === undefined ? undefined : path.resolve(io.cwd, catalogueFlag);
  // Read the catalogue up front: a bad --catalogue is an error even if no file needs it.
  if (flagCatalogue) catalogueAt(flagCatalogue, io.cwd);
  const jobFor = (absolutePath: string, displayPath: string): CheckJob => {
    const { cataloguePath, policy } = configs.fileProject(absolutePath, flagCatalogue);
    return { displayPath, absolutePath, languageName: absolutePath, ...(cataloguePath ? { cataloguePath } : {}), severity: policy.severity };
  };

  // --fix and --remote read each job's text again; a plain check takes each file the walk reads
  // as it is read, and checks it there and then (its text is then neither kept nor read again).
  const checksAsRead = !booleanFlag(args, "fix") && stringFlag(args, "fix-type") === undefined && !booleanFlag(args, "remote");
  const checkAsRead = (absolutePath: string, read: ReadAlready): Checked | undefined => {
    try {
      const job = jobFor(absolutePath, displayPathOf(absolutePath, io.cwd));
      return { job, report: checkJob({ ...job, ...read }, io.cwd) };
    } catch {
      // A config or catalogue that fails fails again below, in its turn (after every walk).
      return undefined;
    }
  };

  let jobs: CheckJob[];
  /** By job: its report, when the walk's `take` checked it. */
  let checked: (FileReport | undefined)[] = [];
  if (readsStdin) {
    const source = await readSourceInput("-", io, stdinFilename);
    const job = jobFor(source.absolutePath, source.displayPath);
    jobs = [{ ...job, text: source.text, languageName: stdinFilename ?? source.displayPath }];
  } else {
    const collected = await collectFiles(patterns, { cwd: io.cwd, kind: "definitions", ...(noIgnore ? {} : { ignores: configs }), skipOtherJson: booleanFlag(args, "skip-other-json"), take: checksAsRead ? checkAsRead : undefined });
    if (!collected.files.length) {
      // Files --skip-other-json passed over are no news (a hook is handed every staged .json).
      if (collected.ignored) io.stderr.write(`wfkit: nothing to check: ${plural(collected.ignored, "file")} given ${collected.ignored === 1 ? "is" : "are"} ignored (by --ignore or wfkit.config.json)\n`);
      io.stdout.write(await emptyReportText(format, io.cwd));
      return 0;
    }
    // A file the walk read to decide that it counts comes with what was read: read once.
    jobs = collected.files.map((file) => file.taken?.job ?? (file.read ? { ...jobFor(file.absolutePath, file.displayPath), ...file.read } : jobFor(file.absolutePath, file.displayPath)));
    checked = collected.files.map((file) => file.taken?.report);
  }
  // Every catalogue a config names is read before checking starts, so its errors come first and once.
  for (const job of jobs) catalogueAt(job.cataloguePath, io.cwd);

  // Connect before checking, so a missing credential or base URL is reported first.
  const remote = booleanFlag(args, "remote") ? clientFor(args, io, "check") : undefined;
  if (!remote && (stringFlag(args, "base-url") ?? stringFlag(args, "token-file")) !== undefined) throw new UsageError("--base-url and --token-file apply only with --remote", "check");
  // --fix rewrites the .wf files in place first (check-fix.ts); what is reported is the fixed text.
  // Loaded only with --fix: it writes files, and a plain check loads no module that writes.
  if (booleanFlag(args, "fix") || stringFlag(args, "fix-type") !== undefined) {
    const { fixJobs, fixTypesOf } = await import("../check-fix.js");
    const fixTypes = fixTypesOf(args);
    if (fixTypes) jobs = await fixJobs(jobs, fixTypes, io, readsStdin);
  }
  const files: FileReport[] = [];
  for (const [i, job] of jobs.entries()) files.push(checked[i] ?? (await runCheckJob(job, io.cwd)));
  const all: CheckReport = { files, summary: summarize(files) };
  const shown = quiet ? errorsOnly(files) : all;

  const formatter = await loadFormatter(format);
  const paint = painter(format === "pretty" && shouldColour(io.env, io.stdout.isTTY));
  if (format === "json") {
    // In pieces, written as made: a million faults are more text than one string can hold.
    for (const chunk of (await import("../formats/json.js")).formatJsonChunks(shown)) {
      io.stdout.write(chunk);
      await io.stdout.flushed?.();
    }
  } else {
    let output: string;
    try {
      output = formatter(shown, { paint, quiet, cwd: io.cwd });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      // The other formats are one string; past about 512 MB of text V8 cannot make it.
      io.stderr.write(`wfkit: ${plural(all.summary.errors + all.summary.warnings, "fault")}: too many to print in the ${format} format; use --format json\n`);
      return all.summary.errors > 0 ? 1 : 2;
    }
    io.stdout.write(output);
  }

  const tooManyWarnings = maxWarnings !== undefined && all.summary.warnings > maxWarnings;
  if (tooManyWarnings)
    io.stderr.write(`wfkit: ${plural(all.summary.warnings, "warning")}${quiet ? " (not shown: --quiet)" : ""}, more than --max-warnings ${maxWarnings} allows\n`);
  // 0 the service agrees, 1 it differs or refused, 2 it could not be reached.
  const remoteExit = remote ? await reportingRefusals(io, "text", async () => ((await reportRemoteDifferences(remote.client, jobs, files, io)) > 0 ? 1 : 0)) : 0;
  if (remoteExit === 2) return 2;
  return all.summary.errors > 0 || tooManyWarnings || remoteExit === 1 ? 1 : 0;
}

/** A file checked as the walk read it. */
interface Checked {
  job: CheckJob;
  report: FileReport;
}

function errorsOnly(files: readonly FileReport[]): CheckReport {
  const filtered = files.map((file) => ({ ...file, faults: file.faults.filter((fault) => fault.severity === "error") }));
  return { files: filtered, summary: summarize(filtered) };
}
