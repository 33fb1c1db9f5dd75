/**
 * Reading the one source a single-file command (compile, decompile, graph) works on: a
 * path, or `-` for standard input, named by `--stdin-filename` for messages and for choosing
 * the language.
 */
import { readFile } from "./fs-lazy.js";
import path from "node:path";
import { CliError, describeFsError, UsageError } from "./errors.js";
import { displayPathOf, languageOf } from "./files.js";
import type { Io } from "./io.js";

export interface SourceInput {
  text: string;
  /** As shown in messages. */
  displayPath: string;
  /** Where the source lives (for stdin: where its name puts it, to find its config). */
  absolutePath: string;
  language: "wf" | "json";
  fromStdin: boolean;
}

export const STDIN_DEFAULT_NAME = "<stdin>";

export async function readSourceInput(argument: string, io: Io, stdinFilename: string | undefined): Promise<SourceInput> {
  if (argument === "-") {
    const text = await io.readStdin().catch((error: unknown) => {
      throw new CliError(describeFsError(error, "standard input"));
    });
    const name = stdinFilename ?? STDIN_DEFAULT_NAME;
    const absolutePath = path.resolve(io.cwd, stdinFilename ?? STDIN_DEFAULT_NAME);
    return { text, displayPath: stdinFilename ? displayPathOf(absolutePath, io.cwd) : name, absolutePath, language: languageOf(name, text), fromStdin: true };
  }
  const absolutePath = path.resolve(io.cwd, argument);
  let text: string;
  try {
    text = await readFile(absolutePath, "utf8");
  } catch (error) {
    throw new CliError(describeFsError(error, argument));
  }
  return { text, displayPath: displayPathOf(absolutePath, io.cwd), absolutePath, language: languageOf(absolutePath, text), fromStdin: false };
}

/** The single FILE argument of a single-file command. */
export function singleFileArgument(positionals: readonly string[], command: string): string {
  if (positionals.length === 0) throw new UsageError(`give the file to read (or - for standard input)`, command);
  if (positionals.length > 1) throw new UsageError(`takes one file, got ${positionals.length}: ${positionals.join(" ")}`, command);
  return positionals[0]!;
}
