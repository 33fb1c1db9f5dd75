/**
 * Where a command's text goes (`-o FILE` of compile, decompile and graph):
 *
 * - no `-o`, `-o -`, `-o /dev/stdout`, or any path that is the file standard output already
 *   is (a link to it, `/dev/fd/1`, or the file the shell redirected stdout to): standard
 *   output. Replacing that file by a rename would leave the shell writing to the old one.
 * - otherwise a regular file, written atomically through symbolic links (atomic-write.ts);
 *   anything else is refused.
 * - never a file the command reads: `-o` naming the input (also as `sub/../a.wf`, through a
 *   link, or as a hard link to it) is refused before any work, so the source is never lost.
 */
import type { Stats } from "node:fs";
import { readFile, realpath, stat } from "./fs-lazy.js";
import path from "node:path";
import { resolveWriteTarget, writeFileAtomic, type WriteOutcome } from "./atomic-write.js";
import { CliError, ReplaceRefused } from "./errors.js";
import { displayPathOf } from "./files.js";
import type { Io } from "./io.js";

const STDOUT_NAMES = new Set(["-", "/dev/stdout"]);

export type OutputTarget = { kind: "stdout" } | { kind: "file"; path: string; displayPath: string };

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Decides where `-o output` writes, refusing (CliError, exit 2) a target that is not a regular
 * file, is read-only, or is one of `inputs` (absolute paths the command reads).
 */
export async function outputTarget(output: string | undefined, io: Io, inputs: readonly string[]): Promise<OutputTarget> {
  if (output === undefined || STDOUT_NAMES.has(output)) return { kind: "stdout" };
  const absolute = path.resolve(io.cwd, output);
  const displayPath = displayPathOf(absolute, io.cwd);
  const current = await stat(absolute).catch(() => undefined);
  const stdout = io.stdout.identity?.();
  if (current && stdout && sameFile(current, stdout)) return { kind: "stdout" };
  const target = await resolveWriteTarget(absolute, displayPath);
  for (const input of inputs) {
    const inputStats = await stat(input).catch(() => undefined);
    const inputReal = await realpath(input).catch(() => input);
    if (inputReal === target.path || (inputStats && target.existing && sameFile(inputStats, target.existing)))
      throw new CliError(`cannot write ${displayPath}: it is the input ${displayPathOf(input, io.cwd)}, which would be overwritten; choose another output file`);
  }
  return { kind: "file", path: target.path, displayPath };
}

/**
 * Writes `text` where `target` says. With `guard`, a file that already holds other content is
 * not replaced unless `force` (see ReplaceRefused); the guard reads before anything is written.
 */
export async function writeOutput(text: string, target: OutputTarget, io: Io, options: { force?: boolean; guard?: boolean } = {}): Promise<WriteOutcome | "stdout"> {
  if (options.guard && !options.force && target.kind === "file") {
    const current = await readFile(target.path, "utf8").catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : Promise.reject(error)));
    if (current !== undefined && current !== text)
      throw new ReplaceRefused(`${target.displayPath} already exists with other content, and was left as it was; add --force to replace it, or write to another file with -o`);
  }
  if (target.kind === "stdout") {
    io.stdout.write(text);
    return "stdout";
  }
  return writeFileAtomic(target.path, text, target.displayPath);
}
