/**
 * `wfkit fmt`: the canonical layout of `.wf` sources.
 *
 * Exit status: 0 when every file is formatted (or was written); 1 when `--check` finds files
 * that would change; 2 when a file could not be formatted at all (it does not parse, is not
 * UTF-8, or cannot be written), which is a different problem from "would change" and wins
 * over it, as in prettier. Each such file gets one line naming it, after its syntax errors.
 */
import { readFile } from "../fs-lazy.js";
import { format } from "@wfkit/dsl";
import { booleanFlag, parseCommandArgs, stringFlag, stringsFlag } from "../args.js";
import { fmtSpec } from "./specs.js";
import { writeFileAtomic } from "../atomic-write.js";
import { ConfigResolver } from "../config.js";
import { CliError, describeFsError, UsageError } from "../errors.js";
import { collectFiles } from "../files.js";
import type { Io } from "../io.js";
import { printable } from "../printable.js";
import { plural, type Diagnostic, type FileReport } from "../report.js";
import { printFaults } from "../single-source.js";
import { readSourceInput } from "../source-input.js";

const EXIT_WOULD_CHANGE = 1;
const EXIT_UNFORMATTABLE = 2;

interface Formatted {
  text: string;
  changed: boolean;
  errors: Diagnostic[];
}

export async function runFmt(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCommandArgs(fmtSpec, argv);
  const write = booleanFlag(args, "write");
  const check = booleanFlag(args, "check");
  if (write && check) throw new UsageError("--write and --check cannot be used together", "fmt");
  const stdinFilename = stringFlag(args, "stdin-filename");
  const patterns = args.positionals.length ? args.positionals : ["."];

  if (patterns.includes("-")) {
    if (patterns.length > 1) throw new UsageError("`-` (standard input) cannot be combined with other paths", "fmt");
    if (write) throw new UsageError("--write cannot write to standard input", "fmt");
    const source = await readSourceInput("-", io, stdinFilename);
    const result = formatText(source.text);
    if (result.errors.length) {
      reportUnformattable(io, source.displayPath, source.text, result.errors);
      return EXIT_UNFORMATTABLE;
    }
    if (check) {
      if (result.changed) io.stdout.write(`${printable(source.displayPath)}\n`);
      return result.changed ? EXIT_WOULD_CHANGE : 0;
    }
    io.stdout.write(result.text);
    return 0;
  }
  if (stdinFilename !== undefined) throw new UsageError("--stdin-filename only applies when reading standard input (give `-` as the path)", "fmt");

  const { files } = await collectFiles(patterns, { cwd: io.cwd, kind: "wf-sources", ignores: new ConfigResolver(io.cwd, undefined, stringsFlag(args, "ignore")) });
  const notWf = files.find((file) => !file.absolutePath.endsWith(".wf"));
  if (notWf) throw new UsageError(`${notWf.displayPath}: fmt formats .wf sources only (to turn JSON into .wf, use \`wfkit decompile\`)`, "fmt");
  let failed = false;
  let unformatted = false;
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = await readFile(file.absolutePath);
    } catch (error) {
      throw new CliError(describeFsError(error, file.displayPath));
    }
    const text = bytes.toString("utf8");
    // Decoding replaces bytes that are not UTF-8 (a Latin-1 comment, say) with U+FFFD, so
    // writing the text back would destroy them: leave such a file as it is.
    if (write && !Buffer.from(text, "utf8").equals(bytes)) {
      const line = text.slice(0, Math.max(0, text.indexOf("\ufffd"))).split(/\r\n|\r|\n/).length;
      io.stderr.write(`wfkit: ${printable(file.displayPath)} could not be formatted: it is not valid UTF-8 (line ${line}), and rewriting it would replace those bytes\n`);
      failed = true;
      continue;
    }
    const result = formatText(text);
    if (result.errors.length) {
      reportUnformattable(io, file.displayPath, text, result.errors);
      failed = true;
      continue;
    }
    if (write) {
      if (!result.changed) continue;
      try {
        if ((await writeFileAtomic(file.absolutePath, result.text, file.displayPath)) === "written") io.stdout.write(`${printable(file.displayPath)}\n`);
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        io.stderr.write(`wfkit: ${printable(error.message)}\n`);
        failed = true;
      }
    } else if (check) {
      if (result.changed) {
        unformatted = true;
        io.stdout.write(`${printable(file.displayPath)}\n`);
      }
    } else {
      io.stdout.write(result.text);
    }
  }
  if (check && unformatted) io.stderr.write("wfkit: the files listed are not formatted; run `wfkit fmt --write` to format them\n");
  return failed ? EXIT_UNFORMATTABLE : unformatted ? EXIT_WOULD_CHANGE : 0;
}

function formatText(text: string): Formatted {
  const result = format(text);
  const errors: Diagnostic[] = result.faults
    .filter((fault) => fault.severity === "error")
    .map(({ span: _span, related, ...fault }) => ({ ...fault, ...(related?.length ? { related: related.map(({ span: _s, ...entry }) => entry) } : {}) }));
  return { text: result.text, changed: result.changed, errors };
}

function reportUnformattable(io: Io, displayPath: string, text: string, errors: Diagnostic[]): void {
  const report: FileReport = { path: displayPath, ok: false, faults: errors, source: text };
  printFaults(io, report);
  io.stderr.write(`wfkit: ${printable(displayPath)} could not be formatted: it does not parse (${plural(errors.length, "syntax error")}, shown above)\n`);
}
