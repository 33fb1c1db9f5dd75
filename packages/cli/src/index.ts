/**
 * wfkit's CLI as a library: run it in-process (tests, tools that embed it) and reuse its
 * output formats. The `wfkit` binary is the esbuild bundle of entry.ts.
 */
export { main, reportFailure, COMMANDS, EXIT } from "./main.js";
export type { Io, Output } from "./io.js";
export type { CheckReport, FileReport, Diagnostic, Summary } from "./report.js";
export { checkText, checkSource } from "./check-file.js";
export { FORMATS, loadFormatter, type FormatName } from "./formats/format.js";
export { renderGraph } from "./graph-render.js";
