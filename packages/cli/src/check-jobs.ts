/** One file of `wfkit check`: its text (read here unless given) checked under its project's catalogue and severities. */
import { readFileSync } from "node:fs";
import { catalogueAt } from "./catalogue-file.js";
import { checkText } from "./check-file.js";
import type { SeveritySetting } from "@wfkit/project";
import { CliError, describeFsError } from "./errors.js";
import { languageOf, type ScannedJson } from "./files.js";
import type { FileReport } from "./report.js";

export interface CheckJob {
  displayPath: string;
  absolutePath: string;
  /**
   * The text, when it is not in a file (standard input) or was read already (a `.json` file a
   * directory walk read to decide that it is a definition): each file is read once.
   */
  text?: string;
  /** What the walk's scan of `text` found, when it is strict JSON (handed to @wfkit/dsl). */
  scannedJson?: ScannedJson;
  /** The name that decides the language (the `--stdin-filename`, or the path). */
  languageName: string;
  /** Absolute path of the catalogue to use; core's sample catalogue when absent. */
  cataloguePath?: string;
  severity: ReadonlyMap<string, SeveritySetting>;
}

export async function runCheckJob(job: CheckJob, cwd: string): Promise<FileReport> {
  return checkJob(job, cwd);
}

/** `runCheckJob`, synchronously (it is: the file is read with `readFileSync`). */
export function checkJob(job: CheckJob, cwd: string): FileReport {
  let text = job.text;
  if (text === undefined) {
    // Synchronously: a job's file is a regular file (collectFiles says so), and a promise per
    // file (an open, a stat, a read and a close through the thread pool) cost more than the
    // reading when a directory of small files is checked.
    try {
      text = readFileSync(job.absolutePath, "utf8");
    } catch (error) {
      throw new CliError(describeFsError(error, job.displayPath));
    }
  }
  const catalogue = catalogueAt(job.cataloguePath, cwd);
  const options = job.scannedJson ? { catalogue, severity: job.severity, scannedJson: job.scannedJson } : { catalogue, severity: job.severity };
  return checkText(job.displayPath, text, languageOf(job.languageName, text), options);
}
