/**
 * The output formats of `wfkit check`. Each lives in its own module, loaded only when asked
 * for, so that the common case (pretty) does not pay for SARIF's rule table.
 */
import type { Painter } from "../colors.js";
import type { CheckReport } from "../report.js";

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
