/**
 * The output formats of `wfkit check`. Each lives in its own module, loaded only when asked
 * for, so that the common case (pretty) does not pay for SARIF's rule table.
 */
import { painter, type Painter } from "../colors.js";
import { summarize, type CheckReport } from "../report.js";

export const FORMATS = ["pretty", "json", "sarif", "github", "rdjsonl"] as const;
export type FormatName = (typeof FORMATS)[number];

export interface FormatContext {
  /** Colours for pretty output (disabled for every other format). */
  paint: Painter;
  /** True with `--quiet`: only errors are shown. */
  quiet: boolean;
  /** The working directory, which the reports' paths are relative to. */
  cwd: string;
}

export type Formatter = (report: CheckReport, context: FormatContext) => string;

export async function loadFormatter(name: FormatName): Promise<Formatter> {
  switch (name) {
    case "pretty":
      return (await import("./pretty.js")).formatPretty;
    case "json":
      return (await import("./json.js")).formatJson;
    case "sarif":
      return (await import("./sarif.js")).formatSarif;
    case "github":
      return (await import("./github.js")).formatGithub;
    case "rdjsonl":
      return (await import("./rdjsonl.js")).formatRdjsonl;
  }
}

/**
 * What a format writes when there is nothing to check (every file given is ignored, or passed
 * over): a machine format still owes its reader a document. json and sarif print the valid
 * empty one (no files; one run with no results), since GitHub code scanning refuses an empty
 * upload and a script's JSON.parse an empty string; github and rdjsonl print nothing, which is
 * their valid "no findings"; pretty prints nothing (a note on stderr says why).
 */
export async function emptyReportText(name: FormatName, cwd: string): Promise<string> {
  if (name !== "json" && name !== "sarif") return "";
  const formatter = await loadFormatter(name);
  return formatter({ files: [], summary: summarize([]) }, { paint: painter(false), quiet: false, cwd });
}
