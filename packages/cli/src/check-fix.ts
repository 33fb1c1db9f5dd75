/**
 * `wfkit check --fix`: before the check, each `.wf` file is rewritten in place with the fixes
 * that are safe without a person, as `eslint --fix` does, and the check then reports what is
 * left in the fixed text.
 *
 * - `problem` fixes: @wfkit/dsl's `applySafeFixes`, the language server's quick fixes marked
 *   safe (a did-you-mean whose word has exactly one candidate), applied in rounds until none
 *   is left; each round judged with the same analysis and project policy as `check` (so a
 *   suppressed or `off` fault is not fixed), and kept only when text that parsed still parses
 *   and has no more errors. Only the misspelt word changes: comments and layout stay.
 * - `layout`: the file formatted as `wfkit fmt` formats it (comments kept), when it parses.
 *
 * `--fix-type problem,layout` picks (default: both). JSON files are not changed. Files are
 * written atomically (atomic-write.ts), only when their text changes; a file that cannot be
 * written, or is not valid UTF-8, is named and checked as it is.
 */
import type { Catalogue } from "@wfkit/core";
import { analyzeSource, applySafeFixes, format, type AppliedFix, type FixAnalysis } from "@wfkit/dsl";
import { applyProjectPolicy, type SeveritySetting } from "@wfkit/project";
import { booleanFlag, stringFlag, type ParsedArgs } from "./args.js";
import { writeFileAtomic } from "./atomic-write.js";
import { catalogueAt } from "./catalogue-file.js";
import type { CheckJob } from "./check-jobs.js";
import { CliError, describeFsError, UsageError } from "./errors.js";
import { languageOf } from "./files.js";
import { readFile } from "./fs-lazy.js";
import type { Io } from "./io.js";
import { printable } from "./printable.js";
import { plural } from "./report.js";

export const FIX_TYPES = ["problem", "layout"] as const;
export type FixType = (typeof FIX_TYPES)[number];

export interface FixTextOptions {
  catalogue: Catalogue;
  severity: ReadonlyMap<string, SeveritySetting>;
  /** The file's name, as `check` passes it to the analysis. */
  fileName: string;
  types: ReadonlySet<FixType>;
}

export interface FixedText {
  text: string;
  applied: AppliedFix[];
  formatted: boolean;
}

/** The safe fixes of one `.wf` text, then its layout: pure, so tests run it in-process. */
export function fixWfText(text: string, options: FixTextOptions): FixedText {
  const analyze = (candidate: string): FixAnalysis => {
    const analysis = analyzeSource(candidate, "wf", { catalogue: options.catalogue, fileName: options.fileName });
    const { faults } = applyProjectPolicy({ text: candidate, faults: analysis.faults, ast: analysis.ast, definition: analysis.definition }, { severity: options.severity });
    return {
      input: { text: candidate, ast: analysis.ast, definition: analysis.definition, catalogue: options.catalogue },
      faults,
      parses: !analysis.faults.some((fault) => fault.code === "syntax" && fault.severity === "error"),
    };
  };
  // Problems, then layout, until neither changes the text: a fix can make text the formatter
  // reads differently, and formatting can make a word a fix reads (so a second --fix finds nothing).
  const applied: AppliedFix[] = [];
  let result = text;
  let formatted = false;
  for (let pass = 0; pass < 3; pass++) {
    const before = result;
    if (options.types.has("problem")) {
      const fixed = applySafeFixes(result, analyze);
      applied.push(...fixed.applied);
      result = fixed.text;
    }
    if (options.types.has("layout")) {
      const layout = format(result);
      if (layout.changed && !layout.faults.some((fault) => fault.severity === "error")) {
        result = layout.text;
        formatted = true;
      }
    }
    if (result === before) break;
  }
  return { text: result, applied, formatted };
}

/** `--fix` and `--fix-type`, or undefined when neither is given. */
export function fixTypesOf(args: ParsedArgs): Set<FixType> | undefined {
  const given = stringFlag(args, "fix-type");
  if (given === undefined) return booleanFlag(args, "fix") ? new Set(FIX_TYPES) : undefined;
  const types = new Set<FixType>();
  for (const word of given.split(",").map((part) => part.trim())) {
    if (!(FIX_TYPES as readonly string[]).includes(word)) throw new UsageError(`--fix-type takes ${FIX_TYPES.join(", ")} or both, comma-separated (got \`${word}\`)`, "check");
    types.add(word as FixType);
  }
  return types;
}

/**
 * Fixes the files of `jobs` in place and returns the jobs with their fixed text (so that the
 * check reads each file once more, from memory). One line per changed file and a count on
 * stderr; standard output stays the report's.
 */
export async function fixJobs(jobs: readonly CheckJob[], types: ReadonlySet<FixType>, io: Io, readsStdin: boolean): Promise<CheckJob[]> {
  if (readsStdin) throw new UsageError("--fix rewrites files in place, and standard input is not a file: give the file's path (or use `wfkit fmt -` for its layout)", "check");
  let problems = 0;
  let changedFiles = 0;
  let formattedFiles = 0;
  const out: CheckJob[] = [];
  for (const job of jobs) {
    let text = job.text;
    if (text === undefined) {
      let bytes: Buffer;
      try {
        bytes = await readFile(job.absolutePath);
      } catch (error) {
        throw new CliError(describeFsError(error, job.displayPath));
      }
      text = bytes.toString("utf8");
      // Decoding replaced bytes that are not UTF-8 with U+FFFD: writing the text back would destroy them.
      if (!Buffer.from(text, "utf8").equals(bytes)) {
        io.stderr.write(`wfkit: ${printable(job.displayPath)} was not fixed: it is not valid UTF-8, and rewriting it would replace those bytes\n`);
        out.push({ ...job, text });
        continue;
      }
    }
    if (languageOf(job.languageName, text) !== "wf") {
      out.push({ ...job, text });
      continue;
    }
    const fixed = fixWfText(text, { catalogue: catalogueAt(job.cataloguePath, io.cwd), severity: job.severity, fileName: job.displayPath, types });
    if (fixed.text === text) {
      out.push({ ...job, text });
      continue;
    }
    try {
      await writeFileAtomic(job.absolutePath, fixed.text, job.displayPath);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      io.stderr.write(`wfkit: ${printable(error.message)}; its problems are reported as they are\n`);
      out.push({ ...job, text });
      continue;
    }
    changedFiles++;
    problems += fixed.applied.length;
    if (fixed.formatted) formattedFiles++;
    const what = [...(fixed.applied.length ? [`${plural(fixed.applied.length, "problem")} (${fixed.applied.map((fix) => `${fix.code}: ${printable(fix.title)}`).join("; ")})`] : []), ...(fixed.formatted ? ["layout"] : [])];
    io.stderr.write(`wfkit: fixed ${printable(job.displayPath)}: ${what.join(", ")}\n`);
    out.push({ ...job, text: fixed.text });
  }
  const layout = types.has("layout") ? `, ${plural(formattedFiles, "file")} formatted` : "";
  io.stderr.write(`wfkit: --fix: ${plural(problems, "problem")} fixed${layout}, ${plural(changedFiles, "file")} rewritten; the report is of the fixed text\n`);
  return out;
}
