/** One file of `wfkit check`: its text (read here unless given) checked under its project's catalogue and severities. */
import { readFile } from "./fs-lazy.js";
import { catalogueAt } from "./catalogue-file.js";
import { checkText } from "./check-file.js";
import type { SeveritySetting } from "@wfkit/project";
import { CliError, describeFsError } from "./errors.js";
import { languageOf } from "./files.js";
import type { FileReport } from "./report.js";

export interface CheckJob {
  displayPath: string;
  absolutePath: string;
  /** The text, when it is not in a file (standard input). */
  text?: string;
  /** The name that decides the language (the `--stdin-filename`, or the path). */
  languageName: string;
  /** Absolute path of the catalogue to use; core's sample catalogue when absent. */
  cataloguePath?: string;
  severity: ReadonlyMap<string, SeveritySetting>;
}

export async function runCheckJob(job: CheckJob, cwd: string): Promise<FileReport> {
  let text = job.text;
  if (text === undefined) {
    try {
      text = await readFile(job.absolutePath, "utf8");
    } catch (error) {
      throw new CliError(describeFsError(error, job.displayPath));
    }
  }
  const catalogue = catalogueAt(job.cataloguePath, cwd);
  return checkText(job.displayPath, text, languageOf(job.languageName, text), { catalogue, severity: job.severity });
}
